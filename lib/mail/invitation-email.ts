import type { Role } from "@prisma/client";
import type { Locale } from "@/i18n/locales";
import { brasiliaTime, renderEmail, type RenderedEmail } from "./layout";

// The invitation e-mail, in the inviter's panel language.

export type InvitationEmailInput = {
  locale: Locale;
  tenantName: string;
  /** The inviting person's e-mail; null when the platform's operators invited (the CLI). */
  invitedBy: string | null;
  role: Role;
  url: string;
  expiresAt: Date;
};

const ROLE_NAMES: Record<Locale, Record<Role, string>> = {
  en: { owner: "owner", admin: "admin", support: "support", viewer: "viewer" },
  "pt-BR": { owner: "proprietário", admin: "administrador", support: "suporte", viewer: "leitor" },
};

const COPY = {
  en: {
    subject: (tenant: string) => `Invitation to ${tenant} on Credit Platform`,
    intro: (by: string | null, tenant: string, role: string) => `${by ?? "You are"} invited ${by ? "you " : ""}to join ${tenant} on Credit Platform as ${role}.`,
    action: "Accept the invitation",
    expiry: (when: string) => `The link works once, until ${when} (Brasília time).`,
    ignore: "If you were not expecting this invitation, ignore this e-mail: nothing happens without the link.",
  },
  "pt-BR": {
    subject: (tenant: string) => `Convite para ${tenant} na Credit Platform`,
    intro: (by: string | null, tenant: string, role: string) =>
      `${by ? `${by} convidou você` : "Você foi convidado(a)"} para entrar em ${tenant} na Credit Platform como ${role}.`,
    action: "Aceitar o convite",
    expiry: (when: string) => `O link vale uma vez, até ${when} (horário de Brasília).`,
    ignore: "Se você não esperava este convite, ignore este e-mail: nada acontece sem o link.",
  },
} as const;

export function invitationEmail(input: InvitationEmailInput): RenderedEmail {
  const copy = COPY[input.locale];
  return renderEmail({
    locale: input.locale,
    subject: copy.subject(input.tenantName),
    intro: copy.intro(input.invitedBy, input.tenantName, ROLE_NAMES[input.locale][input.role]),
    action: { label: copy.action, url: input.url },
    notes: [copy.expiry(brasiliaTime(input.locale, input.expiresAt)), copy.ignore],
  });
}
