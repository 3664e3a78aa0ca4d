import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createMarginQuery } from "@/app/v1/payroll/margin-queries/route";
import { POST as createReservation } from "@/app/v1/payroll/margin-reservations/route";
import { db } from "@/lib/db/client";
import { claimReservationRecoveries, recoverClaimed, runReservationRecoveries } from "@/lib/payroll/reservation-recovery";
import { authorityKey, reserveIn } from "@/lib/payroll/reservations";
import { actor } from "../helpers/factory";
import { productionAuthority, VALID_MARGIN_ANSWER, type FakeAuthority } from "../helpers/fake-authority";
import { call } from "../helpers/http";
import { creditTenant, newCustomer, type CreditTenant } from "../credit/flow-helpers";

// A reservation call whose transaction never commits (the authority never answered — a 5xx, a timeout — or it did and
// the request died before the commit) leaves the authority holding margin for nobody: the call is written ahead on its
// own, the transaction marks it recorded with the answer, and the worker replays what is still pending under the same
// idempotency key to learn the outcome and releases what it reserved; a retry of the same reservation asks under the
// pending call's key (the authority answers the reservation it made), or under the next key once that call is settled.

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
  it("are recorded, and a retry asks again under the same key: the authority's reservation for the lost answer becomes the retry's", async () => {
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
    expect(recorded).toMatchObject({ status: "pending", baseKey: key, attempts: 0, environment: "production", claimedAt: null });
    expect(recorded.request).toMatchObject({ authorityQueryId: "AUTH-Q-1", installmentAmount: 50000, termMonths: 24, kind: "loan" });

    // The client retries the same request. Under a new key the authority would refuse it (the lost reservation holds
    // the margin); under the recorded one it answers the reservation it made, which is the retry's now.
    fake.handler = (req) =>
      req.path === "/v1/reservations"
        ? req.headers["idempotency-key"] === key
          ? { status: 201, json: { reservation_id: "R-LOST", status: "reserved", expires_at: "2030-01-01T00:00:00Z" } }
          : { status: 422, json: { status: "refused", code: "insufficient_margin", message: "No margin left" } }
        : { status: 404, json: {} };
    const retried = await reserve(query.body.id, "rsv-lost-1");
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ status: "reserved", authority_reservation_id: "R-LOST" });
    const replay = fake.calls("/v1/reservations").at(-1)!;
    expect(replay.headers["idempotency-key"]).toBe(key);
    expect(replay.body).toEqual(fake.calls("/v1/reservations")[0]!.body);
    expect(await db().reservationRecovery.findMany({ where: { tenantId: t.tenant.id, baseKey: key } })).toMatchObject([{ id: recorded.id, status: "recorded", authorityReservationId: "R-LOST", attempts: 0 }]);

    // The worker finds nothing to release, now or later.
    await runReservationRecoveries(20, () => new Date(Date.now() + 10 * 60_000));
    expect(fake.calls("/v1/reservations/R-LOST/release")).toHaveLength(0);
    expect((await db().marginReservation.findMany({ where: { customerId: customer.id } })).map((r) => [r.status, r.authorityReservationId])).toEqual([["reserved", "R-LOST"]]);
  });

  it("while the worker replays a lost call a retry is a 503; once the worker released it, the retry asks under the next key", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 500, json: {} } : { status: 404, json: {} });
    expect((await reserve(query.body.id, "rsv-busy-1")).status).toBeGreaterThanOrEqual(502);
    const key = await requestKey("rsv-busy-1");
    const row = await db().reservationRecovery.findFirstOrThrow({ where: { tenantId: t.tenant.id, authorityKey: key } });

    // The worker has claimed it and is replaying (its claim, as runReservationRecoveries writes it).
    await db().reservationRecovery.update({ where: { id: row.id }, data: { attempts: 1, claimedAt: new Date(), nextAttemptAt: new Date(Date.now() + 120_000) } });
    const callsBefore = fake.calls("/v1/reservations").length;
    const busy = await reserve(query.body.id, "rsv-busy-1");
    expect([busy.status, busy.body.code, busy.body.retryable, busy.headers.get("retry-after")]).toEqual([503, "authority_unavailable", true, "30"]);
    expect(fake.calls("/v1/reservations")).toHaveLength(callsBefore); // nothing asked of the authority
    expect(await db().marginReservation.count({ where: { customerId: customer.id } })).toBe(0);

    // The worker's replay ends: what the lost call reserved is released, the claim cleared.
    fake.handler = (req) =>
      req.path === "/v1/reservations"
        ? { status: 201, json: { reservation_id: req.headers["idempotency-key"] === key ? "R-BUSY-LOST" : "R-BUSY-NEW", status: "reserved", expires_at: "2030-01-01T00:00:00Z" } }
        : req.path === "/v1/reservations/R-BUSY-LOST/release"
          ? { status: 204 }
          : { status: 404, json: {} };
    await db().reservationRecovery.update({ where: { id: row.id }, data: { claimedAt: null, nextAttemptAt: new Date() } });
    await runReservationRecoveries(20, () => new Date(Date.now() + 10 * 60_000));
    expect(await db().reservationRecovery.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "released", claimedAt: null, authorityReservationId: "R-BUSY-LOST" });
    expect(fake.calls("/v1/reservations/R-BUSY-LOST/release")).toHaveLength(1);

    const retried = await reserve(query.body.id, "rsv-busy-1");
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ status: "reserved", authority_reservation_id: "R-BUSY-NEW" });
    expect(fake.calls("/v1/reservations").at(-1)!.headers["idempotency-key"]).toBe(`${key}:1`);
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

  it("a claimed call a retry has taken over (its transaction still open, or committed since) is skipped by the replay, never released", async () => {
    const customer = await newCustomer(t);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    const query = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customer.id } });
    fake.handler = (req) => (req.path === "/v1/reservations" ? { status: 500, json: {} } : { status: 404, json: {} });
    expect((await reserve(query.body.id, "rsv-race-1")).status).toBeGreaterThanOrEqual(502);
    const key = await requestKey("rsv-race-1");
    const row = await db().reservationRecovery.findFirstOrThrow({ where: { tenantId: t.tenant.id, authorityKey: key } });

    // The worker claimed it three minutes ago (late in a long batch, its lease ran out before its turn) …
    const threeMinutesAgo = new Date(Date.now() - 3 * 60_000);
    await db().reservationRecovery.update({ where: { id: row.id }, data: { nextAttemptAt: new Date(threeMinutesAgo.getTime() - 1000) } });
    const claimed = (await claimReservationRecoveries(1000, () => threeMinutesAgo)).filter((c) => c.id === row.id);
    expect(claimed).toHaveLength(1);
    // … and a retry takes the row over (its lock held until its transaction ends) and asks under the same key.
    fake.handler = (req) =>
      req.path === "/v1/reservations" ? { status: 201, json: { reservation_id: "R-RACE", status: "reserved", expires_at: "2030-01-01T00:00:00Z" } } : { status: 204 };
    const callsBefore = fake.calls("/v1/reservations").length;
    let replayed: string | undefined;
    await db().$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE reservation_recoveries SET next_attempt_at = now() + interval '10 minutes' WHERE id = ${row.id}`;
      replayed = await recoverClaimed(claimed[0]!); // the worker's turn comes while the retry holds the row
    });
    expect(replayed).toBe("skipped");
    expect(fake.calls("/v1/reservations")).toHaveLength(callsBefore); // nothing asked, nothing released
    expect(fake.calls("/v1/reservations/R-RACE/release")).toHaveLength(0);

    // The retry completes (the reservation is stored and the call recorded); the stale claim still changes nothing.
    const retried = await reserve(query.body.id, "rsv-race-1");
    expect(retried.body).toMatchObject({ status: "reserved", authority_reservation_id: "R-RACE" });
    expect(await recoverClaimed(claimed[0]!)).toBe("skipped");
    expect(await db().reservationRecovery.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "recorded", authorityReservationId: "R-RACE" });
    expect(fake.calls("/v1/reservations/R-RACE/release")).toHaveLength(0);
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
