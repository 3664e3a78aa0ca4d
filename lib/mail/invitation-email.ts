import type { Role } from "@prisma/client";
import type { Locale } from "@/i18n/locales";
import { TIME_ZONE } from "@/i18n/locales";

// The invitation e-mail, in the inviter's panel language: plain text (what every client shows) and a small HTML
// alternative. Everything that comes from people (tenant name, inviter) is escaped in the HTML; the link is the
// only call to action and is also written out, for clients that strip links.

export type InvitationEmailInput = {
  locale: Locale;
  tenantName: string;
  /** The inviting person's e-mail; null when the platform's operators invited (the CLI). */
  invitedBy: string | null;
  role: Role;
  url: string;
  expiresAt: Date;
};

export type RenderedEmail = { subject: string; text: string; html: string };

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
  const when = new Intl.DateTimeFormat(input.locale, { dateStyle: "long", timeStyle: "short", timeZone: TIME_ZONE }).format(input.expiresAt);
  const intro = copy.intro(input.invitedBy, input.tenantName, ROLE_NAMES[input.locale][input.role]);
  const text = [intro, "", `${copy.action}: ${input.url}`, "", copy.expiry(when), "", copy.ignore, ""].join("\n");
  const html = [
    `<!doctype html><html lang="${input.locale}"><body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(input.url)}" style="display:inline-block;background:#0f172a;color:#fff;padding:8px 16px;border-radius:6px;text-decoration:none">${escapeHtml(copy.action)}</a></p>`,
    `<p style="font-size:13px;color:#475569">${escapeHtml(input.url)}</p>`,
    `<p style="font-size:13px;color:#475569">${escapeHtml(copy.expiry(when))}<br>${escapeHtml(copy.ignore)}</p>`,
    `</body></html>`,
  ].join("\n");
  // A subject is one header line: no line breaks from a tenant's name.
  return { subject: copy.subject(input.tenantName).replace(/[\r\n]+/g, " "), text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
