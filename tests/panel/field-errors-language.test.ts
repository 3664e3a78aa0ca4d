import { describe, expect, it, vi } from "vitest";
import { ptBrErrorMap, toPtBr } from "@/lib/panel/field-messages-pt-br";
import { CollectionAccountBody } from "@/lib/collection/account-settings";
import { CreateCredentialBody } from "@/lib/panel/credential-schemas";

// The panel's forms show field errors beside the fields, in the panel's language: pt-BR by default (or by the
// language switch's cookie), English when chosen. zod's own messages and the panel's own words are both translated.

vi.mock("@/lib/panel/session", async () => {
  const { newTenant } = await import("@/tests/helpers/factory");
  const { tenant, ownerUserId } = await newTenant();
  return { currentPanelUser: async () => ({ userId: ownerUserId, email: "owner@panel.test", tenantId: tenant.id, role: "owner", memberships: [] }) };
});

const ORIGIN = "http://localhost:3000";
const send = (path: string, method: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, { method, headers: { "content-type": "application/json", origin: ORIGIN, ...headers }, body: JSON.stringify(body) });
const none = { params: Promise.resolve({}) };

describe("panel field errors", () => {
  it("creating an API key: pt-BR by default, English by cookie, the same fields either way; nothing is created", async () => {
    const { POST } = await import("@/app/api/panel/api-keys/route");
    const body = { name: "  ", environment: "staging", permissions: [], extra: 1 };
    const pt = await POST(send("/api/panel/api-keys", "POST", body), none);
    expect(pt.status).toBe(400);
    expect((await pt.json()).errors).toEqual([
      { param: "name", in: "body", message: "Dê um nome" },
      { param: "environment", in: "body", message: 'Escolha um destes valores: "sandbox", "production"' },
      { param: "permissions", in: "body", message: "Escolha ao menos uma permissão" },
      { param: "extra", in: "body", message: "Campo desconhecido" },
    ]);
    const en = await POST(send("/api/panel/api-keys", "POST", body, { cookie: "cp_locale=en" }), none);
    const enErrors = (await en.json()).errors as { param: string; message: string }[];
    expect(Object.fromEntries(enErrors.map((e) => [e.param, e.message]))).toEqual({
      extra: "Unknown field",
      name: "Give it a name",
      environment: 'Invalid option: expected one of "sandbox"|"production"',
      permissions: "Choose at least one permission",
    });
    const { db } = await import("@/lib/db/client");
    expect(await db().apiKey.count({ where: { name: "  " } })).toBe(0);
  });

  it("the collection account: zod's messages and the service's (CNPJ check) in pt-BR", async () => {
    const { PUT } = await import("@/app/api/panel/collection-account/route");
    const valid = { environment: "sandbox", bank_code: "001", agreement: "7654321", wallet: "17", beneficiary_name: "Crédito Fácil", beneficiary_document: "11.222.333/0001-80", city: "São Paulo", pix_location_base: "pix.example-psp.com.br/qr/v2", expected_updated_at: null };
    const badDigits = await PUT(send("/api/panel/collection-account", "PUT", valid, { "accept-language": "pt-BR,pt;q=0.9" }), none);
    expect(badDigits.status).toBe(400);
    expect((await badDigits.json()).errors).toEqual([{ param: "beneficiary_document", in: "body", message: "Os dígitos verificadores do CNPJ não conferem" }]);
    const badFields = await PUT(send("/api/panel/collection-account", "PUT", { ...valid, agreement: "12", city: "x".repeat(61), wallet: 17 }), none);
    const errors = Object.fromEntries(((await badFields.json()).errors as { param: string; message: string }[]).map((e) => [e.param, e.message]));
    // Every field's error at once, the CNPJ's check digits with the others.
    expect(errors).toEqual({ agreement: "7 dígitos", city: "No máximo 60 caracteres", wallet: 'Escolha um destes valores: "17", "18"', beneficiary_document: "Os dígitos verificadores do CNPJ não conferem" });
  });

  it("every zod issue the panel's schemas raise has a pt-BR message, never an English one", () => {
    const credential = CreateCredentialBody.safeParse({ name: 1, permissions: "read" }, { error: ptBrErrorMap });
    expect(credential.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["name", "Valor inválido: esperado um texto"],
      ["environment", "Campo obrigatório"],
      ["permissions", "Valor inválido: esperado uma lista"],
    ]);
    const account = CollectionAccountBody.safeParse({ bank_code: "001", agreement: "1234567", wallet: "17", beneficiary_name: "", beneficiary_document: "1", city: "c", pix_location_base: "https://x" }, { error: ptBrErrorMap });
    expect(account.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["beneficiary_name", "Preencha este campo"],
      ["beneficiary_document", "Ao menos 14 caracteres"],
      ["pix_location_base", "A host and path without scheme, e.g. pix.example-psp.com.br/qr/v2"],
    ]);
    expect(toPtBr("A host and path without scheme, e.g. pix.example-psp.com.br/qr/v2")).toBe("Host e caminho, sem https:// (ex.: pix.example-psp.com.br/qr/v2)");
    expect(toPtBr("At least 12 characters")).toBe("Ao menos 12 caracteres");
    // A name or city with nothing the BR Code can carry: its own message, in pt-BR too.
    const symbols = CollectionAccountBody.safeParse({ bank_code: "001", agreement: "1234567", wallet: "17", beneficiary_name: "★★★", beneficiary_document: "11.222.333/0001-81", city: "—", pix_location_base: "pix.example-psp.com.br/qr" }, { error: ptBrErrorMap });
    expect(symbols.error!.issues.map((i) => [i.path.join("."), toPtBr(i.message)])).toEqual([
      ["beneficiary_name", "Precisa ter uma letra (de A a Z, com ou sem acento) ou um dígito: o BR Code do Pix leva o nome sem os outros caracteres"],
      ["city", "Precisa ter uma letra (de A a Z, com ou sem acento) ou um dígito: o BR Code do Pix leva a cidade sem os outros caracteres"],
    ]);
    expect(toPtBr("hooks.example resolves to 10.0.0.1, a private address: only public addresses receive webhooks")).toBe(
      "hooks.example aponta para 10.0.0.1, um endereço private: só endereços públicos recebem webhooks",
    );
    expect(toPtBr("Something no form shows")).toBe("Something no form shows");
  });
});
