import type { Locale } from "@/i18n/locales";
import { TIME_ZONE } from "@/i18n/locales";

// The platform's e-mails share one shape: a plain-text body (what every client shows) and a small HTML alternative
// with the one action as a button, the link also written out for clients that strip links. Everything that comes
// from people (tenant names, addresses) is escaped in the HTML; the subject stays on one header line.

export type RenderedEmail = { subject: string; text: string; html: string };

export function renderEmail(input: { locale: Locale; subject: string; intro: string; action: { label: string; url: string }; notes: string[] }): RenderedEmail {
  const text = [input.intro, "", `${input.action.label}: ${input.action.url}`, "", ...input.notes.flatMap((n) => [n, ""])].join("\n");
  const html = [
    `<!doctype html><html lang="${input.locale}"><body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">`,
    `<p>${escapeHtml(input.intro)}</p>`,
    `<p><a href="${escapeHtml(input.action.url)}" style="display:inline-block;background:#0f172a;color:#fff;padding:8px 16px;border-radius:6px;text-decoration:none">${escapeHtml(input.action.label)}</a></p>`,
    `<p style="font-size:13px;color:#475569">${escapeHtml(input.action.url)}</p>`,
    `<p style="font-size:13px;color:#475569">${input.notes.map(escapeHtml).join("<br>")}</p>`,
    `</body></html>`,
  ].join("\n");
  return { subject: input.subject.replace(/[\r\n]+/g, " "), text, html };
}

/** A moment as people in Brazil read it, in the e-mail's language ("1 de dezembro de 2026 às 11:30"). */
export function brasiliaTime(locale: Locale, at: Date): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: TIME_ZONE }).format(at);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
