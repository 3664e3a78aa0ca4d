import { execute, queryRows, raw, sql, withSqlTransaction, type Raw } from "@/lib/db/sql";
import { getEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { DISABLED, FAIL_PENDING_BATCH, LOST_ATTEMPT, UNSUBSCRIBED } from "./deliveries";
import { signingSecrets } from "./endpoints";
import { TEST_EVENT_TYPE } from "./event-catalog";
import { nextAttemptAt, platformRetryAt, retryAfterMs, withRetryAfter } from "./retry-schedule";
import { sendAttempt, snippet, type AttemptOutcome, type SendOptions } from "./sender";
import { envelope, signatureHeaders } from "./signing";

// The delivery worker, from the persisted outbox (at least once):
// 1. dispatch: outbox events not yet published are fanned out, one delivery per subscribed endpoint of the
//    event's tenant and environment, and marked published — in one transaction, rows locked FOR UPDATE SKIP
//    LOCKED so that workers share the work; a unique (endpoint, event) makes a repeat harmless.
// 2. claim: due pending deliveries, FOR UPDATE SKIP LOCKED, each given a lease (`locked_until`) and its next
//    attempt number in the same statement, committed before anything is sent: two workers never hold the same
//    attempt, and a worker that dies mid-attempt leaves a lease that lapses, after which another worker retries
//    (recording the lost attempt as such).
// 3. send, then record: the attempt row (unique per delivery and number) and the delivery's new state, only
//    while the claim is still ours (same attempt number, still pending, still leased — a resend clears the lease).
// Only what the receiver did (its answer, or no answer) counts against its endpoint: failing_since, running out of
// attempts, being disabled. An attempt the platform could not make is retried later outside the schedule; one whose
// endpoint was disabled or narrowed meanwhile ends its delivery without blaming the endpoint.
// Any number of workers may run (`npm run worker`, and inside `npm run dev`): each keeps a pool of attempts in flight
// (./delivery-pool.ts).

const DISPATCH_BATCH = 500;
const FAILING_DISABLE_MS = 3 * 24 * 3600_000;
const WORKER = { type: "system", label: "webhook worker" } as const;
const PLATFORM_ERROR = "The platform could not make this attempt (see its logs); it is tried again later";

export type WorkerOptions = { concurrency?: number; send?: SendOptions; now?: () => Date; /** WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT */ perEndpoint?: number };

/** Fans out up to one batch of unpublished outbox events. Returns how many events it published. */
export async function dispatchEvents(limit = DISPATCH_BATCH): Promise<number> {
  return withSqlTransaction(async () => {
    const pairs = await queryRows<{ event_id: string; type: string; tenant_id: string; environment: string; endpoint_id: string | null }>(sql`
      SELECT ev.id AS event_id, ev.type, ev.tenant_id, ev.environment::text AS environment, e.id AS endpoint_id
      FROM (SELECT id, type, tenant_id, environment, created_at FROM outbox_events
            WHERE published_at IS NULL ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) ev
      LEFT JOIN webhook_endpoints e
        ON e.tenant_id = ev.tenant_id AND e.environment = ev.environment AND e.enabled AND e.deleted_at IS NULL AND e.created_at <= ev.created_at
       AND (cardinality(e.event_types) = 0 OR ev.type = ANY(e.event_types))
      ORDER BY ev.created_at, ev.id, e.id`);
    if (pairs.length === 0) return 0;
    // Ids in the events' order: claims take deliveries of one fan-out (one next_attempt_at) by id.
    const deliveries = pairs
      .filter((p) => p.endpoint_id !== null)
      .map((p) => ({ id: newId("webhookDelivery"), tenant_id: p.tenant_id, environment: p.environment, endpoint_id: p.endpoint_id, event_id: p.event_id, event_type: p.type }));
    if (deliveries.length > 0) {
      await execute(sql`
        INSERT INTO webhook_deliveries (id, tenant_id, environment, endpoint_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
        SELECT x.id, x.tenant_id, x.environment::"Environment", x.endpoint_id, x.event_id, x.event_type, 'pending', now(), now(), now()
        FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) AS x(id text, tenant_id text, environment text, endpoint_id text, event_id text, event_type text)
        ON CONFLICT (endpoint_id, event_id) DO NOTHING`);
    }
    const eventIds = [...new Set(pairs.map((p) => p.event_id))];
    await execute(sql`UPDATE outbox_events SET published_at = now() WHERE id = ANY(${eventIds})`);
    return eventIds.length;
  });
}

export type Claimed = {
  id: string;
  number: number;
  /** This attempt's place in the retry schedule: its number since the delivery was last resent or recovered. */
  scheduled_number: number;
  tenant_id: string;
  environment: "sandbox" | "production";
  endpoint_id: string;
  lease_lapsed: boolean;
  url: string;
  enabled: boolean;
  /** The types the endpoint carries now (empty: every type). */
  event_types: string[];
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  payload: unknown;
};

/** Whether the endpoint still carries the delivery's type (the test event always). */
function carries(claimed: Pick<Claimed, "event_types" | "event_type">): boolean {
  return claimed.event_types.length === 0 || claimed.event_type === TEST_EVENT_TYPE || claimed.event_types.includes(claimed.event_type);
}

/** Up to this many due deliveries, the endpoints with work are found by reading them (DISTINCT over the due index);
 *  past it, by skipping through the pending index one endpoint at a time. See dueCandidates. */
export const DISTINCT_SCAN_LIMIT = 5000;

/** Whether more than DISTINCT_SCAN_LIMIT deliveries are due (reads at most that many index entries). */
export const DUE_BACKLOG_CHECK = `SELECT count(*) > ${DISTINCT_SCAN_LIMIT} AS backlog FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now() LIMIT ${DISTINCT_SCAN_LIMIT + 1}) d`;

/**
 * The ids of up to `limit` due deliveries to claim, oldest due first, no more of one endpoint than leaves it
 * `perEndpoint` attempts in flight across all workers (leases not yet lapsed). Two ways to find the endpoints with
 * work, each cheap where the other is not (tests/webhooks/claim-plan.test.ts):
 * - `distinct` (up to DISTINCT_SCAN_LIMIT due): a DISTINCT over the due rows — behind a backlog of 1,000,000 due it read
 *   them all on every claim (0.5 s a claim);
 * - `skip` (a backlog): skipping through the pending index one endpoint at a time (a loose index scan, ≈ 1 ms behind
 *   that backlog; ordered as only that partial index is, so the planner cannot walk the unique index's delivered rows
 *   instead) — it visits every endpoint with a pending delivery, due or not, so with 20,000 failing receivers in
 *   backoff and nothing due it cost 167 ms a claim where `distinct` cost 4 ms.
 * A deleted endpoint's queued deliveries are never claimed: the retention purger removes them. Integers only, spliced as
 * text (the statement is also run under EXPLAIN by that test).
 */
export function dueCandidates(limit: number, perEndpoint: number, strategy: "distinct" | "skip"): Raw {
  if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(perEndpoint)) throw new RangeError("dueCandidates takes integers");
  const endpoints =
    strategy === "skip"
      ? `WITH RECURSIVE endpoints_with_work(endpoint_id) AS (
      (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id, next_attempt_at LIMIT 1)
      UNION ALL
      SELECT (SELECT d.endpoint_id FROM webhook_deliveries d WHERE d.status = 'pending' AND d.endpoint_id > p.endpoint_id
               ORDER BY d.endpoint_id, d.next_attempt_at LIMIT 1)
        FROM endpoints_with_work p WHERE p.endpoint_id IS NOT NULL),`
      : `WITH endpoints_with_work(endpoint_id) AS (
      SELECT DISTINCT endpoint_id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()),`;
  return raw(`
    ${endpoints}
    waiting AS (
      SELECT p.endpoint_id FROM endpoints_with_work p JOIN webhook_endpoints e ON e.id = p.endpoint_id AND e.deleted_at IS NULL),
    candidates AS (
      SELECT x.id, x.next_attempt_at
        FROM waiting w
        CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM webhook_deliveries b
                             WHERE b.endpoint_id = w.endpoint_id AND b.status = 'pending' AND b.locked_until IS NOT NULL AND b.locked_until >= now()) busy
        CROSS JOIN LATERAL (SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
                             WHERE d.endpoint_id = w.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now()
                               AND (d.locked_until IS NULL OR d.locked_until < now())
                             ORDER BY d.next_attempt_at, d.id LIMIT GREATEST(${perEndpoint} - busy.n, 0)) x)
    SELECT id FROM candidates ORDER BY next_attempt_at, id LIMIT ${limit}`);
}

/**
 * Claims up to `limit` due deliveries for one attempt each (ranked by dueCandidates: a receiver that hangs, with a
 * backlog behind it, cannot take every slot). The locking query repeats the due conditions, so a row another worker
 * claimed since the ranking read it is not claimed twice (PostgreSQL re-checks them on the row's latest version).
 */
export async function claimDeliveries(limit: number, perEndpoint = getEnv().WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT): Promise<Claimed[]> {
  const [{ backlog }] = (await queryRows<{ backlog: boolean }>({ text: DUE_BACKLOG_CHECK, values: [] })) as [{ backlog: boolean }];
  const rows = await queryRows<Claimed>(sql`
    WITH due AS (
      SELECT id, locked_until FROM webhook_deliveries
      WHERE id IN (${dueCandidates(limit, perEndpoint, backlog ? "skip" : "distinct")})
        AND status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
      ORDER BY next_attempt_at, id FOR UPDATE SKIP LOCKED)
    UPDATE webhook_deliveries d
       SET attempt_count = d.attempt_count + 1, locked_until = now() + ${`${getEnv().WEBHOOK_LEASE_SECONDS} seconds`}::interval, updated_at = now()
      FROM due, webhook_endpoints e, outbox_events o
     WHERE d.id = due.id AND e.id = d.endpoint_id AND o.id = d.event_id
    RETURNING d.id, d.attempt_count AS number, d.attempt_count - d.retry_base AS scheduled_number, d.tenant_id, d.environment::text AS environment, d.endpoint_id, due.locked_until IS NOT NULL AS lease_lapsed,
              e.url, e.enabled, e.event_types, e.secret_ciphertext, e.previous_secret_ciphertext, e.previous_secret_expires_at,
              o.id AS event_id, o.type AS event_type, o.created_at AS event_created_at, o.payload`);
  // A lapsed lease: its worker died during that attempt; what happened is unknown, and the log says so.
  const lost = rows.filter((r) => r.lease_lapsed);
  if (lost.length > 0) {
    const entries = lost.map((r) => ({ id: newId("webhookAttempt"), delivery_id: r.id, number: r.number - 1, url: r.url }));
    await execute(sql`
      INSERT INTO webhook_attempts (id, delivery_id, number, url, started_at, duration_ms, status_code, error, request_body, response_body)
      SELECT x.id, x.delivery_id, x.number, x.url, now(), 0, NULL, ${LOST_ATTEMPT}, '', NULL
      FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS x(id text, delivery_id text, number int, url text)
      ON CONFLICT (delivery_id, number) DO NOTHING`);
  }
  return rows;
}

/** Why an attempt was not sent: its endpoint is disabled or no longer carries the type (the delivery ends, the
 *  endpoint is not blamed), or the platform could not make it (a sealed secret that no longer opens…). */
type Unsent = "disabled" | "unsubscribed" | "platform";
export type Result = { claimed: Claimed; startedAt: Date; body: string; outcome: AttemptOutcome; unsent?: Unsent };

/** One attempt of a claimed delivery: signed with the endpoint's secret(s), sent, not yet recorded. */
export async function attempt(claimed: Claimed, send: SendOptions, now: Date = new Date()): Promise<Result> {
  const body = JSON.stringify(
    envelope({ id: claimed.event_id, type: claimed.event_type, createdAt: claimed.event_created_at, tenantId: claimed.tenant_id, environment: claimed.environment, payload: claimed.payload }),
  );
  if (!claimed.enabled) {
    return { claimed, startedAt: now, body, unsent: "disabled", outcome: { ok: false, statusCode: null, error: DISABLED, durationMs: 0, responseBody: null } };
  }
  // Narrowed since this delivery was queued (a dispatch racing the change, a resend of an old one): what it no longer
  // subscribes to is never sent to it — its URL may have changed hands since (lib/webhooks/endpoints.ts).
  if (!carries(claimed)) {
    return { claimed, startedAt: now, body, unsent: "unsubscribed", outcome: { ok: false, statusCode: null, error: UNSUBSCRIBED, durationMs: 0, responseBody: null } };
  }
  const secrets = signingSecrets({
    id: claimed.endpoint_id,
    secretCiphertext: claimed.secret_ciphertext,
    previousSecretCiphertext: claimed.previous_secret_ciphertext,
    previousSecretExpiresAt: claimed.previous_secret_expires_at,
  }, now);
  const headers = signatureHeaders(claimed.event_id, now, body, secrets);
  return { claimed, startedAt: now, body, outcome: await sendAttempt(claimed.url, headers, body, send) };
}

/** Records a batch of attempts and moves each delivery on: succeeded, retried later, or failed. */
export async function recordResults(results: Result[], now: Date = new Date()): Promise<void> {
  if (results.length === 0) return;
  const made = results.filter((r) => r.unsent !== "platform");
  const rows = made.map(({ claimed, startedAt, body, outcome, unsent }) => {
    const gone = outcome.statusCode === 410;
    const scheduled = outcome.ok || gone || unsent ? null : nextAttemptAt(claimed.scheduled_number, now);
    // A receiver that is rate limiting or briefly down says when to come back (429, 502/503/504 + Retry-After).
    const next = withRetryAfter(scheduled, now, retryAfterMs(outcome.statusCode, outcome.retryAfter, now));
    return {
      attempt_id: newId("webhookAttempt"),
      id: claimed.id,
      number: claimed.number,
      url: claimed.url,
      endpoint_id: claimed.endpoint_id,
      status: outcome.ok ? "succeeded" : next ? "pending" : "failed",
      next_attempt_at: next?.toISOString() ?? null,
      started_at: startedAt.toISOString(),
      duration_ms: outcome.durationMs,
      status_code: outcome.statusCode,
      error: outcome.error === null ? null : gone ? "The endpoint answered 410 Gone: it was disabled" : outcome.error,
      request_body: snippet(body),
      response_body: outcome.responseBody,
      gone,
      // What the receiver did (answered, or did not) counts against its endpoint; nothing sent does not.
      counts: unsent === undefined,
    };
  });
  const platform = results.filter((r) => r.unsent === "platform").map((r) => ({ id: r.claimed.id, number: r.claimed.number, next_attempt_at: platformRetryAt(now).toISOString() }));
  const disabled = await withSqlTransaction(async () => {
    if (rows.length > 0) {
      // An event erased since its attempt read it (its customer erased at the subject's request, LGPD:
      // lib/customers/erase-customer.ts) is recorded as that erasure leaves the attempts it found: no body, no answer.
      const erased = await erasedSinceClaimed(rows.map((r) => r.id));
      for (const r of rows) {
        if (!erased.has(r.id)) continue;
        r.request_body = ERASED_BODY;
        r.response_body = null;
      }
      await execute(sql`
        WITH r AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(attempt_id text, id text, number int, url text, status text,
                     next_attempt_at timestamptz, started_at timestamptz, duration_ms int, status_code int, error text, request_body text, response_body text)),
        attempts AS (
          INSERT INTO webhook_attempts (id, delivery_id, number, url, started_at, duration_ms, status_code, error, request_body, response_body)
          SELECT attempt_id, id, number, url, started_at, duration_ms, status_code, error, request_body, response_body FROM r
          WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = r.id) -- its endpoint may have been deleted meanwhile
          ON CONFLICT (delivery_id, number) DO NOTHING)
        UPDATE webhook_deliveries d
           SET status = r.status, next_attempt_at = r.next_attempt_at, locked_until = NULL, last_status_code = r.status_code,
               last_duration_ms = r.duration_ms, last_error = r.error, last_attempt_at = r.started_at,
               completed_at = CASE WHEN r.status = 'pending' THEN NULL ELSE ${now}::timestamptz END, updated_at = now()
          FROM r
         WHERE d.id = r.id AND d.attempt_count = r.number AND d.status = 'pending' AND d.locked_until IS NOT NULL`);
    }
    // Nothing was sent: the claim is handed back with its attempt number unused (no attempt row), and the delivery is
    // due again later — the receiver's schedule and the endpoint's standing untouched (runOnce logged the cause).
    if (platform.length > 0) {
      await execute(sql`
        UPDATE webhook_deliveries d
           SET attempt_count = d.attempt_count - 1, locked_until = NULL, next_attempt_at = p.next_attempt_at, last_error = ${PLATFORM_ERROR}, updated_at = now()
          FROM jsonb_to_recordset(${JSON.stringify(platform)}::jsonb) AS p(id text, number int, next_attempt_at timestamptz)
         WHERE d.id = p.id AND d.attempt_count = p.number AND d.status = 'pending' AND d.locked_until IS NOT NULL`);
    }
    const counted = rows.filter((r) => r.counts);
    const succeeded = [...new Set(counted.filter((r) => r.status === "succeeded").map((r) => r.endpoint_id))];
    const failing = [...new Set(counted.filter((r) => r.status !== "succeeded").map((r) => r.endpoint_id))].filter((id) => !succeeded.includes(id));
    const gone = [...new Set(counted.filter((r) => r.gone).map((r) => r.endpoint_id))];
    const exhausted = [...new Set(counted.filter((r) => r.status === "failed" && !r.gone).map((r) => r.endpoint_id))];
    if (succeeded.length > 0) await execute(sql`UPDATE webhook_endpoints SET failing_since = NULL, updated_at = now() WHERE id = ANY(${succeeded}) AND failing_since IS NOT NULL`);
    if (failing.length > 0) await execute(sql`UPDATE webhook_endpoints SET failing_since = ${now}, updated_at = now() WHERE id = ANY(${failing}) AND failing_since IS NULL`);
    // 410 Gone: the receiver says it will never take these again. Days of nothing but failures: it is down.
    const off: DisabledEndpoint[] = [];
    if (gone.length > 0) off.push(...(await disable(gone, "gone", "The endpoint answered 410 Gone: it was disabled", now)));
    const stale = new Date(now.getTime() - FAILING_DISABLE_MS);
    if (exhausted.length > 0) {
      const down = await queryRows<{ id: string }>(sql`SELECT id FROM webhook_endpoints WHERE id = ANY(${exhausted}) AND enabled AND failing_since <= ${stale}`);
      if (down.length > 0) off.push(...(await disable(down.map((d) => d.id), "failing", "The endpoint failed for 3 days: it was disabled", now)));
    }
    await endUnwanted(results.map((r) => r.claimed.id), now);
    return off;
  });
  for (const endpoint of disabled) log().warn({ endpoint_id: endpoint.id, reason: endpoint.reason }, "webhook endpoint disabled");
}

/** Deliveries just handed back as pending whose endpoint was disabled or narrowed while their attempt was in flight
 *  (lib/webhooks/deliveries.ts failPendingDeliveries leaves leased ones to us): ended now, as that change ends the
 *  others. One that slips past (the change committing just after this) is ended by its next claim. */
async function endUnwanted(ids: string[], now: Date): Promise<void> {
  await execute(sql`
    UPDATE webhook_deliveries d
       SET status = 'failed', next_attempt_at = NULL, last_error = CASE WHEN e.enabled THEN ${UNSUBSCRIBED} ELSE ${DISABLED} END, completed_at = ${now}, updated_at = now()
      FROM webhook_endpoints e
     WHERE d.id = ANY(${ids}) AND e.id = d.endpoint_id AND d.status = 'pending' AND d.locked_until IS NULL
       AND NOT (e.enabled AND (cardinality(e.event_types) = 0 OR d.event_type = ${TEST_EVENT_TYPE} OR d.event_type = ANY(e.event_types)))`);
}

/** What an erased event's attempts keep of the body sent (lib/customers/erase-customer.ts writes the same). */
export const ERASED_BODY = '{"erased":true}';

/**
 * The deliveries (of `deliveryIds`) whose event's data was erased, in the recording's transaction. An erasure that
 * commits between the claim (which read the data) and this recording found no attempt to blank: so the events are
 * held FOR SHARE, in id order as the erasure takes them — an erasure under way finishes first and its data is seen
 * erased here (a row waited for is read again as committed), or waits for this recording to commit and then blanks
 * the attempt it wrote. One statement: the lock and the check (two cost ≈ 15% of the delivery rate, bench/webhooks.ts).
 */
async function erasedSinceClaimed(deliveryIds: string[]): Promise<Set<string>> {
  const rows = await queryRows<{ id: string; erased: boolean }>(sql`
    SELECT d.id, COALESCE(o.payload -> 'erased' = 'true'::jsonb, false) AS erased
      FROM webhook_deliveries d JOIN outbox_events o ON o.id = d.event_id
     WHERE d.id = ANY(${deliveryIds})
     ORDER BY o.id FOR SHARE OF o`);
  return new Set(rows.filter((r) => r.erased).map((r) => r.id));
}

type DisabledEndpoint = { id: string; reason: "gone" | "failing" };

/** Disables endpoints (those still enabled), fails their queued deliveries and audits each change as the worker's. */
async function disable(endpointIds: string[], reason: "gone" | "failing", error: string, now: Date): Promise<DisabledEndpoint[]> {
  const off = await queryRows<{ id: string; tenant_id: string; environment: string }>(sql`
    UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${reason}, disabled_at = ${now}, updated_at = now()
     WHERE id = ANY(${endpointIds}) AND enabled
    RETURNING id, tenant_id, environment::text AS environment`);
  // A bounded batch (deliveries.ts FAIL_PENDING_BATCH): the rest are ended unsent at their turn.
  await execute(sql`
    UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ${error}, completed_at = ${now}, updated_at = now()
     WHERE id IN (SELECT id FROM webhook_deliveries
                   WHERE endpoint_id = ANY(${endpointIds}) AND status = 'pending' AND (locked_until IS NULL OR locked_until < now())
                   ORDER BY next_attempt_at, id LIMIT ${FAIL_PENDING_BATCH})`);
  if (off.length === 0) return [];
  const audits = off.map((e) => ({ id: newId("audit"), tenant_id: e.tenant_id, environment: e.environment, target_id: e.id }));
  await execute(sql`
    INSERT INTO audit_logs (id, tenant_id, environment, actor_type, actor_id, actor_label, action, target_type, target_id, metadata, created_at)
    SELECT x.id, x.tenant_id, x.environment::"Environment", ${WORKER.type}, NULL, ${WORKER.label}, 'webhook_endpoint.disabled', 'webhook_endpoint', x.target_id,
           ${JSON.stringify({ reason, detail: error })}::jsonb, ${now}
      FROM jsonb_to_recordset(${JSON.stringify(audits)}::jsonb) AS x(id text, tenant_id text, environment text, target_id text)`);
  return off.map((e) => ({ id: e.id, reason }));
}

export function sendOptions(environment: "sandbox" | "production"): SendOptions {
  const env = getEnv();
  return { environment, allowLoopback: env.WEBHOOKS_SANDBOX_ALLOW_LOOPBACK, timeoutMs: env.WEBHOOK_TIMEOUT_MS };
}

/** One round: dispatch, claim, send all concurrently, record. Returns what it did (0, 0: nothing to do). The CLI and
 *  the tests run rounds; `npm run worker` keeps a continuous pool instead (./delivery-pool.ts). */
export async function runOnce(options: WorkerOptions = {}): Promise<{ dispatched: number; attempted: number }> {
  const dispatched = await dispatchEvents();
  const claimed = await claimDeliveries(options.concurrency ?? getEnv().WEBHOOK_WORKER_CONCURRENCY, options.perEndpoint);
  const now = options.now ?? (() => new Date());
  const results = await Promise.all(claimed.map((c) => attemptOrHandBack(c, options, now())));
  await recordSafely(results, now());
  return { dispatched, attempted: claimed.length };
}

/** One attempt; one that cannot even be made (a sealed secret that no longer opens after a key change…) is the
 *  platform's fault, not the receiver's: logged here at error level, then handed back to be tried again later without
 *  using up an attempt (recordResults) — never a failure of the others. */
export function attemptOrHandBack(c: Claimed, options: WorkerOptions, now: Date): Promise<Result> {
  return attempt(c, options.send ?? sendOptions(c.environment), now).catch((err: unknown): Result => {
    log().error({ delivery_id: c.id, endpoint_id: c.endpoint_id, err: err instanceof Error ? err.message : String(err) }, "a webhook attempt could not be made");
    return { claimed: c, startedAt: now, body: "", unsent: "platform", outcome: { ok: false, statusCode: null, error: PLATFORM_ERROR, durationMs: 0, responseBody: null } };
  });
}

/** Records results; one bad row (e.g. a delivery deleted with its endpoint at that very moment) must not cost the
 *  others their record — they would be sent again after their lease: then they are recorded one by one. */
export async function recordSafely(results: Result[], now: Date): Promise<void> {
  try {
    await recordResults(results, now);
  } catch (err) {
    log().warn({ err }, "recording a round of webhook attempts failed; recording them one by one");
    for (const result of results) await recordResults([result], now).catch((e: unknown) => log().error({ err: e, delivery_id: result.claimed.id }, "could not record a webhook attempt"));
  }
}
