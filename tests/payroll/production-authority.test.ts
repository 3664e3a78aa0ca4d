import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createMarginQuery } from "@/app/v1/payroll/margin-queries/route";
import { db } from "@/lib/db/client";
import { productionAuthority, VALID_MARGIN_ANSWER, type FakeAuthority } from "../helpers/fake-authority";
import { problem } from "../helpers/problem";
import { call } from "../helpers/http";
import { creditTenant, newCustomer, type CreditTenant } from "../credit/flow-helpers";

// Production through /v1: the configured HTTP client talks to a fake authority on loopback, and its
// failures become 502/503 problems with `retryable`, storing nothing.

let fake: FakeAuthority;
let t: CreditTenant;

beforeAll(async () => {
  fake = await productionAuthority();
  t = await creditTenant("production");
});
afterAll(async () => {
  await fake.close();
});

const query = (customerId: string) => call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customerId } });

describe("production margin queries through the authority's HTTP client", () => {
  it("stores the authority's answer", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const res = await query(customer.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      authority: "http",
      authority_query_id: "AUTH-Q-1",
      margin_base: 450000,
      available_loan_margin: 137500,
      existing_loans: [{ lender: "Banco Alfa S.A.", contract_number: "X-1", installment_amount: 20000, remaining_installments: 30 }],
      valid_until: "2030-01-01T00:00:00.000Z",
      environment: "production",
    });
    const sent = fake.calls("/v1/margin-queries").at(-1)!;
    const stored = await db().customer.findUniqueOrThrow({ where: { id: customer.id } });
    expect(sent.body).toEqual({ cpf: stored.document, source: { type: "inss", benefit_number: "1234567890" } });
    expect(sent.headers["idempotency-key"]).toBe(res.body.id);
  });

  it("an unavailable authority is 503 and a malformed answer 502, both storing nothing", async () => {
    const customer = await newCustomer(t);
    const before = await db().marginQuery.count({ where: { tenantId: t.tenant.id } });
    fake.handler = () => ({ status: 503, json: {} });
    const down = await query(customer.id);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    expect(down.body).toEqual(problem("authority_unavailable", 503, "The payroll authority is unavailable", "The payroll authority answered 503", { retryable: true }));
    fake.handler = () => ({ status: 200, json: { query_id: 42 } });
    const garbled = await query(customer.id);
    expect(garbled.body).toEqual(
      problem("authority_bad_response", 502, "The payroll authority gave an answer that could not be read", "The payroll authority's margin query answer is malformed", { retryable: false }),
    );
    expect(await db().marginQuery.count({ where: { tenantId: t.tenant.id } })).toBe(before);
  });
});
