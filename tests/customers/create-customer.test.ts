import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { caller, COMPANY, invalidDocument, invalidFields, PERSON, post, problem } from "./fixtures";

afterAll(() => stopListener());

describe("POST /v1/customers", () => {
  it("creates a person with every field, normalized, and writes the audit row and the event with it", async () => {
    const who = await caller();
    const res = await post(who, PERSON);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cus_[0-9A-Z]{26}$/),
      object: "customer",
      kind: "person",
      document: "52998224725",
      document_formatted: "529.982.247-25",
      name: "Maria da Silva",
      birth_date: "1985-04-12",
      foundation_date: null,
      email: "maria@example.com",
      phone: "+5511987654321",
      address: { street: "Avenida Paulista", number: "1578", complement: "Apto 12", district: "Bela Vista", city: "São Paulo", state: "SP", zip_code: "01310100" },
      monthly_income: 850000,
      payroll: { type: "inss", benefit_number: "1234567890" },
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = await db().customer.findUniqueOrThrow({ where: { id: res.body.id } });
    expect([row.tenantId, row.environment, row.document, row.monthlyIncome]).toEqual([who.tenantId, "sandbox", "52998224725", 850000n]);
    const audit = await db().auditLog.findMany({ where: { tenantId: who.tenantId, targetId: res.body.id } });
    expect(audit.map((a) => [a.action, a.actorType, a.actorId, a.environment, a.metadata])).toEqual([
      ["customer.created", "api_key", who.keyId, "sandbox", { kind: "person" }],
    ]);
    const events = await db().outboxEvent.findMany({ where: { tenantId: who.tenantId } });
    expect(events.map((e) => [e.type, e.environment, e.payload])).toEqual([["customer.created", "sandbox", res.body]]);
  });

  it("accepts companies by numeric and alphanumeric (2026) CNPJ, and a private payroll link for a person", async () => {
    const who = await caller();
    const numeric = await post(who, COMPANY);
    expect(numeric.status).toBe(201);
    expect(numeric.body).toMatchObject({ kind: "company", document: "11222333000181", document_formatted: "11.222.333/0001-81", foundation_date: "2010-09-01", birth_date: null, email: null, address: null, monthly_income: null, payroll: null });
    const alpha = await post(who, { document: "12.abc.345/01de-35", name: "Nova Empresa SA" });
    expect(alpha.status).toBe(201);
    expect(alpha.body).toMatchObject({ kind: "company", document: "12ABC34501DE35", document_formatted: "12.ABC.345/01DE-35" });
    const employee = await post(who, { document: "52998224725", name: "João", payroll: { type: "private", employer_cnpj: "12.ABC.345/01DE-35", registration: "A-778" } });
    expect(employee.status).toBe(201);
    expect(employee.body.payroll).toEqual({ type: "private", employer_cnpj: "12ABC34501DE35", registration: "A-778" });
  });

  it("refuses an invalid CPF or CNPJ with 400 invalid_document saying why, and stores nothing", async () => {
    const who = await caller();
    const cases: [string, unknown][] = [
      ["529.982.247-24", invalidDocument("invalid_check_digits", "The CPF's check digits do not match")],
      ["11.222.333/0001-82", invalidDocument("invalid_check_digits", "The CNPJ's check digits do not match")],
      ["12.ABC.345/01DE-36", invalidDocument("invalid_check_digits", "The CNPJ's check digits do not match")],
      ["111.111.111-11", invalidDocument("repeated_digits", "A CPF made of one repeated character is not valid")],
      ["5299822472", invalidDocument("invalid_length", "A document is a CPF (11 digits) or a CNPJ (14 characters)")],
      ["5299822472A", invalidDocument("invalid_characters", "A CPF has digits only (dots, dashes, slashes and spaces are ignored)")],
      ["12.ABC.345/01DE-3X", invalidDocument("invalid_characters", "A CNPJ has 12 letters (A–Z) or digits followed by 2 check digits (dots, dashes, slashes and spaces are ignored)")],
    ];
    for (const [document, expected] of cases) {
      const res = await post(who, { document, name: "X" });
      expect(res.status, document).toBe(400);
      expect(res.body, document).toEqual(expected);
    }
    const employer = await post(who, { document: "52998224725", name: "X", payroll: { type: "private", employer_cnpj: "11.222.333/0001-80", registration: "1" } });
    expect(employer.body).toEqual(invalidDocument("invalid_check_digits", "The CNPJ's check digits do not match", "payroll.employer_cnpj"));
    expect(await db().customer.count({ where: { tenantId: who.tenantId } })).toBe(0);
  });

  it("refuses unknown fields, malformed values and fields of the other kind with whole field errors", async () => {
    const who = await caller();
    const unknown = await post(who, { ...PERSON, tenant_id: "ten_x", kind: "company" });
    expect(unknown.body).toEqual(invalidFields([
      { param: "tenant_id", message: "Unknown field" },
      { param: "kind", message: "Unknown field" },
    ]));
    const malformed = await post(who, {
      document: "52998224725",
      name: " ",
      birth_date: "2999-01-01",
      phone: "11 98765-4321",
      address: { ...PERSON.address, state: "XX", zip_code: "1310-100" },
      monthly_income: -1,
      payroll: { type: "inss", benefit_number: "123" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(invalidFields([
      { param: "name", message: "Too small: expected string to have >=1 characters" },
      { param: "birth_date", message: "Must not be in the future" },
      { param: "phone", message: "Must be in E.164 form: +, country code and number, digits only, e.g. +5511987654321" },
      { param: "address.state", message: "Must be one of the 27 Brazilian state codes (UF), upper case, e.g. SP" },
      { param: "address.zip_code", message: "Must be a CEP: 8 digits, e.g. 01310100 or 01310-100" },
      { param: "monthly_income", message: "Too small: expected number to be >=0" },
      { param: "payroll.benefit_number", message: "Must be the 10-digit INSS benefit number (NB), digits only" },
    ]));
    const company = await post(who, { ...COMPANY, birth_date: "1990-01-01", payroll: { type: "inss", benefit_number: "1234567890" } });
    expect(company.body).toEqual(invalidFields([
      { param: "birth_date", message: "Only persons (CPF) have a birth date; send foundation_date for a company" },
      { param: "payroll", message: "Only persons (CPF) have a payroll link" },
    ]));
    const person = await post(who, { document: "52998224725", name: "X", foundation_date: "2000-01-01" });
    expect(person.body).toEqual(invalidFields([
      { param: "foundation_date", message: "Only companies (CNPJ) have a foundation date; send birth_date for a person" },
    ]));
    expect(await db().customer.count({ where: { tenantId: who.tenantId } })).toBe(0);
  });

  it("answers 409 duplicate_document for the same document in the same tenant and environment only", async () => {
    const who = await caller();
    expect((await post(who, PERSON)).status).toBe(201);
    const again = await post(who, { document: "52998224725", name: "Someone else" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(problem("duplicate_document", 409, "A customer with this document already exists", "A customer with this document already exists in this environment"));
    expect(await db().customer.count({ where: { tenantId: who.tenantId } })).toBe(1);
    expect(await db().outboxEvent.count({ where: { tenantId: who.tenantId } })).toBe(1);

    const live = await caller("production", undefined, who.tenantId);
    expect((await post(live, PERSON)).status).toBe(201);
    const other = await caller();
    expect((await post(other, PERSON)).status).toBe(201);

    // Two concurrent creations: the unique index decides, the loser gets the same 409 (never a 500).
    const racers = await Promise.all([post(other, COMPANY), post(other, { ...COMPANY, name: "Twin" })]);
    expect(racers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(racers.find((r) => r.status === 409)!.body.code).toBe("duplicate_document");
  });

  it("replays a repeated X-Request-Id instead of creating a second customer", async () => {
    const who = await caller();
    const headers = { "x-request-id": "5b8e1f2a-7c1d-4e55-9a0b-2f4c6d8e0a13" };
    const first = await post(who, PERSON, headers);
    const second = await post(who, PERSON, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await db().customer.count({ where: { tenantId: who.tenantId } })).toBe(1);
    expect(await db().outboxEvent.count({ where: { tenantId: who.tenantId, type: "customer.created" } })).toBe(1);
  });

  it("refuses a read-only key with 403 and creates nothing", async () => {
    const who = await caller("sandbox", ["customers:read"]);
    const res = await post(who, PERSON);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(problem("insufficient_permissions", 403, "The credential lacks the required permission", "This operation requires the customers:write permission"));
    expect(await db().customer.count({ where: { tenantId: who.tenantId } })).toBe(0);
  });
});
