import { describe, expect, it } from "vitest";
import { invitationEmail } from "./invitation-email";

// The invitation e-mail, whole: both languages, Brasília time for the expiry, HTML escaped, a one-line subject.

const base = {
  tenantName: "Crédito Fácil",
  invitedBy: "ana@credito-facil.example",
  role: "support" as const,
  url: "https://painel.example/invitations/cpinv_abc",
  expiresAt: new Date("2026-12-01T14:30:00Z"),
};

describe("invitation e-mail", () => {
  it("in Portuguese", () => {
    const mail = invitationEmail({ ...base, locale: "pt-BR" });
    expect(mail.subject).toBe("Convite para Crédito Fácil na Credit Platform");
    expect(mail.text).toBe(
      "ana@credito-facil.example convidou você para entrar em Crédito Fácil na Credit Platform como suporte.\n\n" +
        "Aceitar o convite: https://painel.example/invitations/cpinv_abc\n\n" +
        "O link vale uma vez, até 1 de dezembro de 2026 às 11:30 (horário de Brasília).\n\n" +
        "Se você não esperava este convite, ignore este e-mail: nada acontece sem o link.\n",
    );
  });

  it("in English", () => {
    const mail = invitationEmail({ ...base, locale: "en", role: "owner" });
    expect(mail.subject).toBe("Invitation to Crédito Fácil on Credit Platform");
    expect(mail.text).toBe(
      "ana@credito-facil.example invited you to join Crédito Fácil on Credit Platform as owner.\n\n" +
        "Accept the invitation: https://painel.example/invitations/cpinv_abc\n\n" +
        "The link works once, until December 1, 2026 at 11:30 AM (Brasília time).\n\n" +
        "If you were not expecting this invitation, ignore this e-mail: nothing happens without the link.\n",
    );
  });

  it("without a person behind it (the CLI), the invitation speaks for itself", () => {
    expect(invitationEmail({ ...base, locale: "en", invitedBy: null }).text).toMatch(/^You are invited to join Crédito Fácil on Credit Platform as support\.\n/);
    expect(invitationEmail({ ...base, locale: "pt-BR", invitedBy: null }).text).toMatch(/^Você foi convidado\(a\) para entrar em Crédito Fácil na Credit Platform como suporte\.\n/);
  });

  it("escapes what people typed in the HTML and keeps the subject on one line", () => {
    const mail = invitationEmail({ ...base, locale: "en", tenantName: 'Evil "Co"\r\n<script>x</script>' });
    expect(mail.subject).toBe('Invitation to Evil "Co" <script>x</script> on Credit Platform');
    expect(mail.html).toContain("Evil &quot;Co&quot;\r\n&lt;script&gt;x&lt;/script&gt;");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain('<a href="https://painel.example/invitations/cpinv_abc"');
  });
});
