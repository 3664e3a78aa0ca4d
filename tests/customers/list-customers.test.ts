import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { encodeCursor } from "@/lib/pagination";
import { caller, COMPANY, cpf, get, getClient, list, listClients, patch, PERSON, post, problem } from "./fixtures";

afterAll(() => stopListener());

describe("GET /v1/customers", () => {
  it("walks every customer exactly once, newest first, across pages of 10", async () => {
    const who = await caller();
    const created: string[] = [];
    for (let i = 0; i < 25; i++) created.push((await post(who, { document: cpf(i), name: `Customer ${i}` })).body.id);
    await post(await caller("production", undefined, who.tenantId), PERSON); // the other environment never shows up
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(who, `?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "next_cursor", "object"]);
      sizes.push(res.body.data.length);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.next_cursor;
      expect(res.body.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual([...created].reverse());
  });

  it("refuses another list's cursor (400 invalid_cursor): a contracts cursor is no position among customers", async () => {
    const who = await caller();
    await post(who, PERSON);
    const contracts = encodeCursor({ tenantId: who.tenantId, environment: "sandbox" }, { at: new Date(), id: "ctr_01JD0000000000000000000000" });
    const res = await list(who, `?cursor=${encodeURIComponent(contracts)}`);
    expect([res.status, res.body.code, res.body.detail]).toEqual([400, "invalid_cursor", "The cursor is invalid for this list"]);
    expect(res.body.errors).toEqual([{ param: "cursor", in: "query", message: "The cursor is invalid for this list" }]);
  });

  it("filters by document, formatted or not, and validates the query", async () => {
    const who = await caller();
    const person = await post(who, PERSON);
    const alpha = await post(who, { document: "12ABC34501DE35", name: "Alpha SA" });
    await post(who, COMPANY);
    for (const document of ["529.982.247-25", "52998224725"]) {
      const res = await list(who, `?document=${encodeURIComponent(document)}`);
      expect(res.body).toEqual({ object: "list", data: [person.body], has_more: false, next_cursor: null });
    }
    expect((await list(who, "?document=12.abc.345%2F01de-35")).body.data).toEqual([alpha.body]);
    expect((await list(who, "?document=00000000000")).body.data).toEqual([]);
    const bad = await list(who, "?limit=101&sort=name");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(problem("validation_error", 400, "The request is invalid", "One or more fields are invalid", {
      errors: [
        { param: "limit", in: "query", message: "Too big: expected number to be <=100" },
        { param: "sort", in: "query", message: "Unknown field" },
      ],
    }));
  });
});

describe("GET /v1/customers, written by PostgreSQL (lib/customers/list-customers.ts)", () => {
  it("lists every customer exactly as GET /v1/customers/{id} shows it, whatever its fields", async () => {
    const who = await caller();
    const noComplement = Object.fromEntries(Object.entries(PERSON.address).filter(([field]) => field !== "complement"));
    const bodies = [
      PERSON,
      { document: cpf(1), name: "Só o nome" },
      { document: cpf(2), name: 'Aspas "duplas", barra \\ e emoji 🏦 — ç', address: noComplement, monthly_income: 1 },
      { document: cpf(3), name: "Private link", payroll: { type: "private", employer_cnpj: "11.222.333/0001-81", registration: "MAT-00042" }, monthly_income: 9_007_199_254_740_991 },
      COMPANY,
      { document: "12ABC34501DE35", name: "Alfa Numérica SA", foundation_date: "1999-12-31", email: "contato@alfa.example", address: PERSON.address },
    ];
    const created = [];
    for (const body of bodies) {
      const res = await post(who, body);
      expect(res.status).toBe(201);
      created.push(res.body);
    }
    const page = await list(who, "?limit=100");
    expect(page.status).toBe(200);
    const shown = await Promise.all(created.map(async (c) => (await get(who, c.id)).body));
    expect(page.body).toEqual({ object: "list", data: shown.reverse(), has_more: false, next_cursor: null });
    // Key order too: the same fields in the same order as the single-customer answer.
    for (const [i, c] of page.body.data.entries()) expect(Object.keys(c)).toEqual(Object.keys(shown[i]));
    expect(Object.keys(page.body.data[0].address)).toEqual(Object.keys(shown[0].address));
  });

  it("lists a customer as it is after every write: the stored object (customers.api_json) is rewritten with its row", async () => {
    const who = await caller();
    const person = (await post(who, PERSON)).body;
    const company = (await post(who, COMPANY)).body;
    const listed = async () => (await list(who, "?limit=100")).body.data;
    const shown = async () => [(await get(who, company.id)).body, (await get(who, person.id)).body];

    // Through the API: fields changed, cleared and set.
    const changed = await patch(who, person.id, { name: "Maria Atualizada", address: null, monthly_income: 123_45, payroll: null, email: "nova@example.com" });
    expect(changed.status).toBe(200);
    expect(await listed()).toEqual(await shown());
    expect((await listed())[1]).toMatchObject({ name: "Maria Atualizada", address: null, payroll: null, monthly_income: 123_45, email: "nova@example.com" });
    expect((await listed())[1].updated_at).not.toBe(person.updated_at);

    // And by any other writer of the row (a data fix in SQL): PostgreSQL writes the column, nobody else can.
    await db().$executeRaw`UPDATE customers SET name = 'Padaria Nova Ltda', address = ${JSON.stringify(PERSON.address)}::jsonb, updated_at = '2030-01-02T03:04:05.678Z' WHERE id = ${company.id}`;
    const now = await listed();
    expect(now).toEqual(await shown());
    expect(now[0]).toMatchObject({ name: "Padaria Nova Ltda", address: PERSON.address, updated_at: "2030-01-02T03:04:05.678Z" });
  });
});

describe("GET /v1/clients (deprecated alias)", () => {
  it("answers exactly like /v1/customers, with Deprecation and Link successor-version headers", async () => {
    const who = await caller();
    const a = await post(who, PERSON);
    await post(who, COMPANY);
    const customers = await list(who, "?limit=1");
    const clients = await listClients(who, "?limit=1");
    expect(clients.status).toBe(200);
    expect(clients.body.data).toEqual(customers.body.data);
    expect(clients.body.has_more).toBe(true);
    expect(clients.headers.get("deprecation")).toBe("@1690848000"); // RFC 9745: since 2023-08-01 (1.1.0)
    expect(clients.headers.get("link")).toBe('</v1/customers>; rel="successor-version"');
    expect(clients.headers.get("warning")).toBe('299 - "Deprecated: use /v1/customers"');
    expect(customers.headers.get("deprecation")).toBeNull();
    // One pagination scheme: a cursor from the alias pages the successor.
    const next = await list(who, `?limit=1&cursor=${encodeURIComponent(clients.body.next_cursor)}`);
    expect(next.body.data).toEqual([a.body]);

    const one = await getClient(who, a.body.id);
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await get(who, a.body.id)).body);
    expect(one.headers.get("deprecation")).toBe("@1690848000");
    expect(one.headers.get("link")).toBe(`</v1/customers/${a.body.id}>; rel="successor-version"`);
  });
});
