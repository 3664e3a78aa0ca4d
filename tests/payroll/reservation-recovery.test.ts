import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createMarginQuery } from "@/app/v1/payroll/margin-queries/route";
import { POST as createReservation } from "@/app/v1/payroll/margin-reservations/route";
import { db } from "@/lib/db/client";
import { runReservationRecoveries } from "@/lib/payroll/reservation-recovery";
import { authorityKey, reserveIn } from "@/lib/payroll/reservations";
import { actor } from "../helpers/factory";
import { productionAuthority, VALID_MARGIN_ANSWER, type FakeAuthority } from "../helpers/fake-authority";
import { call } from "../helpers/http";
import { creditTenant, newCustomer, type CreditTenant } from "../credit/flow-helpers";

// A reservation call whose transaction never commits (the authority never answered — a 5xx, a timeout — or it did and
// the request died before the commit) leaves the authority holding margin for nobody: the call is written ahead on its
// own, the transaction marks it recorded with the answer, and the worker replays what is still pending under the same
// idempotency key to learn the outcome and releases what it reserved; a retry asks under a new key.

let fake: FakeAuthority;
let t: CreditTenant;

beforeAll(async () => {
  fake = await productionAuthority();
  t = await creditTenant("production");
  // The worker serves every tenant: recoveries left pending by an earlier run of this file (against its own fake)
  // would be replayed against this one. Only this file records any (the sandbox's simulator never does).
  await db().reservationRecovery.updateMany({ where: { status: "pending" }, data: { status: "refused" } });
});
afterAll(async () => {
  await fake.close();
});

/** The authority key of a direct reservation: per credential, as the request's own idempotency. */
const requestKey = async (requestId: string) =>
  authorityKey({ tenantId: t.tenant.id, environment: "production" }, "request", `${(await db().apiKey.findFirstOrThrow({ where: { tenantId: t.tenant.id } })).id}:${requestId}`);
const reserveBody = (queryId: string) => ({ margin_query_id: queryId, installment_amount: 50000, term: 24 });
const reserve = (queryId: string, requestId: string) =>
  call(createReservation, { base: t.base, path: "/v1/payroll/margin-reservations", headers: { ...t.headers, "x-request-id": requestId }, json: reserveBody(queryId) });

describe("reservation calls the authority never answered", () => {
  it("are recorded, replayed under the same key by the worker, and what they reserved released; a retry asks under a new key", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
    expect(query.status).toBe(201);

    // The authority reserves, then its answer is lost (a 500 on the way back).
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 500, json: {} } : { status: 404, json: {} });
    const lost = await reserve(query.body.id, "rsv-lost-1");
    expect(lost.status).toBeGreaterThanOrEqual(502);
    expect(await db().marginReservation.count({ where: { customerId: customer.id } })).toBe(0);
    const key = await requestKey("rsv-lost-1");
    expect(fake.calls("/v1/reservations").at(-1)!.headers["idempotency-key"]).toBe(key);
    const recorded = await db().reservationRecovery.findFirstOrThrow({ where: { tenantId: t.tenant.id, authorityKey: key } });
    expect(recorded).toMatchObject({ status: "pending", baseKey: key, attempts: 0, environment: "production" });
    expect(recorded.request).toMatchObject({ authorityQueryId: "AUTH-Q-1", installmentAmount: 50000, termMonths: 24, kind: "loan" });

    // The client retries the same request: it is asked under the next key, never the recorded one.
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 201, json: { reservation_id: "R-NEW", status: "reserved", expires_at: "2030-01-01T00:00:00Z" } } : { status: 404, json: {} });
    const retried = await reserve(query.body.id, "rsv-lost-1");
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ status: "reserved", authority_reservation_id: "R-NEW" });
    expect(fake.calls("/v1/reservations").at(-1)!.headers["idempotency-key"]).toBe(`${key}:1`);

    // The worker (once due) replays the lost call under its key — the authority answers what it did — and releases it.
    fake.handler = (req) =>
      req.path === "/v1/reservations"
        ? { status: 201, json: { reservation_id: "R-LOST", status: "reserved", expires_at: "2030-01-01T00:00:00Z" } }
        : req.path === "/v1/reservations/R-LOST/release"
          ? { status: 204 }
          : { status: 404, json: {} };
    expect(await runReservationRecoveries(20, () => new Date())).toEqual({ attempted: 0, resolved: 0 }); // not due for a minute
    const later = () => new Date(Date.now() + 120_000);
    expect(await runReservationRecoveries(20, later)).toMatchObject({ attempted: expect.any(Number) });
    const replay = fake.calls("/v1/reservations").at(-1)!;
    expect(replay.headers["idempotency-key"]).toBe(key);
    expect(replay.body).toEqual(fake.calls("/v1/reservations")[0]!.body);
    expect(fake.calls("/v1/reservations/R-LOST/release")).toHaveLength(1);
    expect(await db().reservationRecovery.findUniqueOrThrow({ where: { id: recorded.id } })).toMatchObject({ status: "released", authorityReservationId: "R-LOST", attempts: 1, lastError: null });
    // Ours, made by the retry, is untouched.
    expect((await db().marginReservation.findMany({ where: { customerId: customer.id } })).map((r) => [r.status, r.authorityReservationId])).toEqual([["reserved", "R-NEW"]]);
  });

  it("a replay that fails is retried later, with its error shown and the backoff's wait", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 503, json: {} } : { status: 404, json: {} });
    await reserve(query.body.id, "rsv-down-1");
    const key = await requestKey("rsv-down-1");
    const recorded = await db().reservationRecovery.findFirstOrThrow({ where: { tenantId: t.tenant.id, authorityKey: key } });
    const at = new Date(Date.now() + 120_000);
    await runReservationRecoveries(20, () => at);
    const after = await db().reservationRecovery.findUniqueOrThrow({ where: { id: recorded.id } });
    expect(after).toMatchObject({ status: "pending", attempts: 1, lastError: "unavailable: The payroll authority answered 503" });
    expect(after.nextAttemptAt.getTime()).toBe(at.getTime() + 60_000);
  });

  it("a reservation the authority made whose transaction then failed is released; one that committed is left alone", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
    const scope = { tenantId: t.tenant.id, environment: "production" as const };
    const reserved = (id: string) => ({ status: 201, json: { reservation_id: id, status: "reserved", expires_at: "2030-01-01T00:00:00Z" } });
    const request = (base: string) => ({ marginQueryId: query.body.id, customerId: customer.id, installmentAmount: 40000, term: 24, kind: "loan" as const, proposalId: null, authorityKey: base });

    // The authority reserves and answers; the request dies before its transaction commits (a kill, the database lost).
    fake.handler = (req) => (req.path === "/v1/reservations" ? reserved("R-ORPHAN") : { status: 404, json: {} });
    await expect(
      db().$transaction(async (tx) => {
        await reserveIn(tx, scope, actor, request("orphan-base"));
        throw new Error("the process died before the commit");
      }),
    ).rejects.toThrow("the process died");
    expect(await db().marginReservation.count({ where: { customerId: customer.id } })).toBe(0);
    const orphan = await db().reservationRecovery.findFirstOrThrow({ where: { tenantId: t.tenant.id, baseKey: "orphan-base" } });
    expect(orphan).toMatchObject({ status: "pending", authorityKey: "orphan-base", attempts: 0 });
    // Not the worker's until that transaction must have ended (its timeout and a minute).
    expect(orphan.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 60_000);

    // Another reservation commits: its call is marked recorded in the same transaction.
    fake.handler = (req) => (req.path === "/v1/reservations" ? reserved("R-KEPT") : { status: 404, json: {} });
    const kept = await db().$transaction((tx) => reserveIn(tx, scope, actor, request("kept-base")));
    expect(kept).toMatchObject({ status: "reserved", authority_reservation_id: "R-KEPT" });
    expect(await db().reservationRecovery.findFirstOrThrow({ where: { tenantId: t.tenant.id, baseKey: "kept-base" } })).toMatchObject({ status: "recorded", authorityReservationId: "R-KEPT" });

    fake.handler = (req) =>
      req.path === "/v1/reservations"
        ? reserved(req.headers["idempotency-key"] === "orphan-base" ? "R-ORPHAN" : "R-KEPT")
        : req.path === "/v1/reservations/R-ORPHAN/release"
          ? { status: 204 }
          : { status: 404, json: {} };
    const releasesBefore = fake.calls("/v1/reservations/R-KEPT/release").length;
    await runReservationRecoveries(20, () => new Date(Date.now() + 10 * 60_000));
    expect(await db().reservationRecovery.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({ status: "released", authorityReservationId: "R-ORPHAN", attempts: 1 });
    expect(fake.calls("/v1/reservations/R-ORPHAN/release")).toHaveLength(1);
    expect(fake.calls("/v1/reservations/R-KEPT/release")).toHaveLength(releasesBefore);
    expect((await db().marginReservation.findMany({ where: { customerId: customer.id } })).map((r) => [r.status, r.authorityReservationId])).toEqual([["reserved", "R-KEPT"]]);
  });

  it("a pending call whose reservation is stored here after all is marked recorded, never released", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 201, json: { reservation_id: "R-OURS", status: "reserved", expires_at: "2030-01-01T00:00:00Z" } } : { status: 404, json: {} });
    const made = await reserve(query.body.id, "rsv-ours-1");
    expect(made.status).toBe(201);
    const key = await requestKey("rsv-ours-1");
    const row = await db().reservationRecovery.findFirstOrThrow({ where: { tenantId: t.tenant.id, authorityKey: key } });
    expect(row.status).toBe("recorded");
    // As if the mark had been lost while the reservation committed: the worker must still not release it.
    await db().reservationRecovery.update({ where: { id: row.id }, data: { status: "pending", authorityReservationId: null, nextAttemptAt: new Date() } });
    await runReservationRecoveries(20, () => new Date(Date.now() + 10 * 60_000));
    expect(await db().reservationRecovery.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "recorded", authorityReservationId: "R-OURS" });
    expect(fake.calls("/v1/reservations/R-OURS/release")).toHaveLength(0);
    expect((await db().marginReservation.findFirstOrThrow({ where: { customerId: customer.id } })).status).toBe("reserved");
  });

  it("a call refused before it reached the authority leaves nothing to recover and its key unused", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 429, json: {}, headers: { "retry-after": "1" } } : { status: 404, json: {} });
    const limited = await reserve(query.body.id, "rsv-429-1");
    expect(limited.status).toBe(503);
    const key = await requestKey("rsv-429-1");
    expect(await db().reservationRecovery.count({ where: { tenantId: t.tenant.id, baseKey: key } })).toBe(0);
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 201, json: { reservation_id: "R-429", status: "reserved", expires_at: "2030-01-01T00:00:00Z" } } : { status: 404, json: {} });
    expect((await reserve(query.body.id, "rsv-429-1")).status).toBe(201);
    expect(fake.calls("/v1/reservations").at(-1)!.headers["idempotency-key"]).toBe(key);
  });
});
