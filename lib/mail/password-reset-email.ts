import type { Locale } from "@/i18n/locales";
import { brasiliaTime, renderEmail, type RenderedEmail } from "./layout";

// The "forgot your password?" e-mail, in the language of the page it was asked from.

const COPY = {
  en: {
    subject: "Reset your Credit Platform password",
    intro: (email: string) => `Someone — hopefully you — asked to reset the password of ${email} on Credit Platform.`,
    action: "Choose a new password",
    expiry: (when: string) => `The link works once, until ${when} (Brasília time). Choosing a new password signs out every other session.`,
    ignore: "If you did not ask for it, ignore this e-mail: your password stays as it is.",
  },
  "pt-BR": {
    subject: "Redefina sua senha da Credit Platform",
    intro: (email: string) => `Alguém — esperamos que você — pediu para redefinir a senha de ${email} na Credit Platform.`,
    action: "Escolher uma nova senha",
    expiry: (when: string) => `O link vale uma vez, até ${when} (horário de Brasília). A nova senha encerra todas as outras sessões.`,
    ignore: "Se você não pediu, ignore este e-mail: sua senha continua a mesma.",
  },
} as const;

export function passwordResetEmail(input: { locale: Locale; email: string; url: string; expiresAt: Date }): RenderedEmail {
  const copy = COPY[input.locale];
  return renderEmail({
    locale: input.locale,
    subject: copy.subject,
    intro: copy.intro(input.email),
    action: { label: copy.action, url: input.url },
    notes: [copy.expiry(brasiliaTime(input.locale, input.expiresAt)), copy.ignore],
  });
}
