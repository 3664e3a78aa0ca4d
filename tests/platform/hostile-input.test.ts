import { afterAll, describe, expect, it } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import * as customers from "@/app/v1/customers/route";
import * as customerById from "@/app/v1/customers/[id]/route";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { caller, PERSON } from "../customers/fixtures";
import { newClient, newTenant } from "../helpers/factory";
import { call } from "../helpers/http";
import { problem } from "../helpers/problem";
import { caller as simulationCaller, PERSONAL, simulate } from "../simulations/helpers";

// Input a client can send that used to reach PostgreSQL or the calendar math and crash there (500): each is now
// a 4xx problem that names the field, and nothing is written.

afterAll(() => stopListener());

const NUL = "Must not contain NUL characters (U+0000)";
const SURROGATE = "Must be well-formed Unicode (no lone UTF-16 surrogates)";
const textProblem = (errors: unknown[]) => problem("validation_error", 400, "The request is invalid", "One or more fields cannot be accepted as sent", { errors });

describe("text that cannot be stored", () => {
  it("refuses NUL and lone surrogates anywhere in a JSON body, keys included, and writes nothing", async () => {
    const who = await caller();
    const count = () => db().customer.count({ where: { tenantId: who.tenantId } });
    const bodies: [string, unknown[]][] = [
      [JSON.stringify({ ...PERSON, name: "Maria\u0000" }), [{ param: "name", in: "body", message: NUL }]],
      [JSON.stringify({ ...PERSON, address: { ...PERSON.address, street: "Av. \u0000" } }), [{ param: "address.street", in: "body", message: NUL }]],
      [JSON.stringify({ ...PERSON, payroll: { type: "inss", benefit_number: "12\u00003" } }), [{ param: "payroll.benefit_number", in: "body", message: NUL }]],
      [`{"document":"529.982.247-25","name":"\\ud800"}`, [{ param: "name", in: "body", message: SURROGATE }]],
      [`{"document":"529.982.247-25","name":"Maria","tags":["ok","\\udfff"]}`, [{ param: "tags.1", in: "body", message: SURROGATE }]],
      [`{"document":"529.982.247-25","na\\u0000me":"Maria"}`, [{ param: "na\\0me", in: "body", message: `Field name: ${NUL}` }]],
    ];
    for (const [rawBody, errors] of bodies) {
      const res = await call(customers.POST, { path: "/v1/customers", rawBody, headers: { ...who.headers, "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.body).toEqual(textProblem(errors));
    }
    expect(await count()).toBe(0);
  });

  it("refuses a body that is not UTF-8 (400 invalid_encoding), writing nothing", async () => {
    const who = await caller();
    const bytes = Buffer.concat([Buffer.from('{"document":"529.982.247-25","name":"Mar'), Buffer.from([0xc3, 0x28]), Buffer.from('ia"}')]);
    const res = await customers.POST(
      new Request(`${who.base}/v1/customers`, { method: "POST", headers: { ...who.headers, "content-type": "application/json" }, body: bytes }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(problem("invalid_encoding", 400, "The body's encoding is invalid", "The body is not valid UTF-8"));
    expect(await db().customer.count({ where: { tenantId: who.tenantId } })).toBe(0);
  });

  it("refuses NUL in query strings and malformed path ids before any query", async () => {
    const who = await caller();
    const query = await call(customers.GET, { path: "/v1/customers?document=%00", headers: who.headers });
    expect(query.status).toBe(400);
    expect(query.body).toEqual(problem("validation_error", 400, "The request is invalid", "One or more fields cannot be accepted as sent", {
      errors: [{ param: "document", in: "query", message: NUL }],
    }));
    for (const id of ["\u0000", "cus_%00", "cus_01JD0000000000000000000000'", "x".repeat(64)]) {
      const res = await call(customerById.GET, { path: `/v1/customers/${encodeURIComponent(id)}`, params: { id }, headers: who.headers });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ param: "id", in: "path", message: "Must be a customer id (cus_…)" }]);
    }
  });

  it("token endpoint: bad percent-encoding in Basic credentials or NUL in client_id is a client error", async () => {
    const { tenant } = await newTenant();
    const { client } = await newClient(tenant.id);
    const basic = Buffer.from(`${client.client_id}:%E0%A4%A`).toString("base64");
    const bad = await call(token, { path: "/v1/auth/token", form: { grant_type: "client_credentials" }, headers: { authorization: `Basic ${basic}` } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("content-type")).toBe("application/json");
    expect(bad.body).toMatchObject({ error: "invalid_client", error_description: "Malformed Basic credentials: bad percent-encoding" });
    const nul = await call(token, { path: "/v1/auth/token", form: { grant_type: "client_credentials", client_id: `${client.client_id}\u0000`, client_secret: "x" } });
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ error: "invalid_request", code: "invalid_request" });
  });
});

describe("dates outside 1900-01-01 … 2199-12-31", () => {
  it("are a 400 naming the field; the edges compute", async () => {
    const who = await simulationCaller();
    const cases: [Record<string, string>, string, string][] = [
      [{ disbursement_date: "1500-03-02" }, "disbursement_date", "Must be from 1900-01-01 to 2199-12-31"],
      [{ disbursement_date: "2026-02-30" }, "disbursement_date", "Must be a valid date YYYY-MM-DD"],
      [{ first_due_date: "10000-01-01" }, "first_due_date", "Must be a valid date YYYY-MM-DD"],
      [{ first_due_date: "2200-01-01" }, "first_due_date", "Must be from 1900-01-01 to 2199-12-31"],
    ];
    for (const [dates, param, message] of cases) {
      const res = await simulate(who, { ...PERSONAL, ...dates });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ param, in: "body", message }]);
    }
    // An unparsable deprecated tax_rate beside monthly_rate: that field's 400, not a crash in the comparison.
    const badTaxRate = await simulate(who, { ...PERSONAL, tax_rate: "abc" });
    expect(badTaxRate.status).toBe(400);
    expect(badTaxRate.body.errors.map((e: { param: string }) => e.param)).toEqual(["tax_rate"]);
    expect(await db().simulation.count({ where: { tenantId: who.tenantId } })).toBe(0);
    const late = await simulate(who, { ...PERSONAL, disbursement_date: "2199-11-02", first_due_date: "2199-12-02" });
    expect(late.status).toBe(201);
    expect(late.body.schedule.at(-1).due_date).toMatch(/^2200-11-/);
  });
});
