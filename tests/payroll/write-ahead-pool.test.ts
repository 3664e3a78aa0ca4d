import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createMarginQuery } from "@/app/v1/payroll/margin-queries/route";
import { db } from "@/lib/db/client";
import { freePort } from "@/scripts/lib/database";
import { productionAuthority, VALID_MARGIN_ANSWER, type FakeAuthority } from "../helpers/fake-authority";
import { call } from "../helpers/http";
import { killHard, startRouteServer } from "../helpers/route-server-process";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { creditTenant, newCustomer, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// A payroll reservation's call is written ahead on a connection of its own while the request's transaction holds
// one (lib/payroll/reservation-recovery.ts). On the same pool, as many concurrent reservations as the pool has
// connections each held one and waited for another: none got it, and every one answered 503 after the connect
// timeout. The write-ahead rows have a pool of their own (sideDb, lib/db/client.ts).

const POOL = 2;
const CONCURRENT = 6;
let fake: FakeAuthority;
let t: CreditTenant;
let server: ChildProcess | undefined;

beforeAll(async () => {
  fake = await productionAuthority();
  t = await creditTenant("production");
});
afterAll(async () => {
  if (server) await killHard(server);
  await fake.close();
});

describe("payroll calls written ahead while the request's transaction is open", () => {
  it(`${CONCURRENT} idempotent reservations at once on a pool of ${POOL} all complete`, async () => {
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const queries = [];
    for (let i = 0; i < CONCURRENT; i++) {
      const customer = await newCustomer(t);
      const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
      expect(query.status).toBe(201);
      queries.push({ customerId: customer.id, queryId: query.body.id as string });
    }
    // The authority answers each after a moment, so that every request holds its transaction at once.
    let n = 0;
    fake.handler = (req) =>
      req.path === "/v1/reservations"
        ? { status: 201, json: { reservation_id: `R-POOL-${++n}`, status: "reserved", expires_at: "2030-01-01T00:00:00Z" }, delayMs: 300 }
        : { status: 404, json: {} };
    const port = await freePort();
    server = await startRouteServer(port, 10, "route-server.ts", "production", { DATABASE_POOL_SIZE: String(POOL), DATABASE_CONNECT_TIMEOUT_MS: "15000" });
    const answers = await Promise.all(
      queries.map((q, i) =>
        fetch(`http://127.0.0.1:${port}/v1/payroll/margin-reservations`, {
          method: "POST",
          headers: { ...t.headers, "content-type": "application/json", "x-request-id": `pool-${t.tenant.id}-${i}` },
          body: JSON.stringify({ margin_query_id: q.queryId, installment_amount: 50000, term: 24 }),
        }).then(async (res) => { const text = await res.text(); return { status: res.status, body: (text ? JSON.parse(text) : { code: text }) as { status?: string; code?: string } }; }),
      ),
    );
    expect(answers.map((a) => [a.status, a.body.status ?? a.body.code])).toEqual(queries.map(() => [201, "reserved"]));
    const stored = await db().marginReservation.findMany({ where: { customerId: { in: queries.map((q) => q.customerId) } }, select: { status: true } });
    expect(stored.map((r) => r.status)).toEqual(queries.map(() => "reserved"));
    expect(await db().reservationRecovery.count({ where: { tenantId: t.tenant.id, status: "recorded" } })).toBe(CONCURRENT);
  });

  it(`${CONCURRENT} idempotent sandbox repasse runs at once on a pool of ${POOL} all complete`, async () => {
    const sandbox = await creditTenant();
    const { proposal } = await signedProposal(sandbox, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const contract = await call(issueContract, { base: sandbox.base, path: "/v1/contracts", headers: sandbox.headers, json: { proposal_id: proposal.id } });
    expect(contract.status).toBe(201);
    if (server) await killHard(server);
    const port = await freePort();
    server = await startRouteServer(port, 10, "route-server.ts", "sandbox", { DATABASE_POOL_SIZE: String(POOL), DATABASE_CONNECT_TIMEOUT_MS: "15000" });
    // Each run holds its request's transaction (a connection) while each contract's month commits on its own.
    const months = Array.from({ length: CONCURRENT }, (_, i) => `2026-${String(i + 4).padStart(2, "0")}`);
    const answers = await Promise.all(
      months.map((competence, i) =>
        fetch(`http://127.0.0.1:${port}/v1/sandbox/repasse`, {
          method: "POST",
          headers: { ...sandbox.headers, "content-type": "application/json", "x-request-id": `repasse-pool-${sandbox.tenant.id}-${i}` },
          body: JSON.stringify({ competence, scenario: "full", contract_ids: [contract.body.id] }),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string; totals?: { processed: number } } })),
      ),
    );
    expect(answers.map((a) => [a.status, a.body.totals?.processed ?? a.body.code])).toEqual(months.map(() => [200, 1]));
    expect(await db().repasseEntry.count({ where: { contractId: contract.body.id } })).toBe(CONCURRENT);
  });
});
