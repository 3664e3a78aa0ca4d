import { createHash, randomUUID } from "node:crypto";
import type { Environment } from "@prisma/client";
import stringify from "safe-stable-stringify";
import { rootDb, type Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "./errors";
import { PROBLEM_CONTENT_TYPE, toProblem } from "./problem";

// Idempotent POSTs (api-conventions.md), crash-safe in Stripe's "atomic phases":
// 1. claim — a record `in_flight` with a lease (IDEMPOTENCY_LEASE_SECONDS, default 30 s) commits on its own;
// 2. effect — the handler runs in one transaction that also stores the response in the record
//    (`completeInTransaction`), fenced by the lease token: if another request took the key over, the update
//    finds nothing and the whole effect rolls back;
// 3. a 4xx outcome (the effect rolled back) is stored afterwards; a 400 (the request as sent cannot be accepted:
//    api-conventions.md keeps validation failures out) or a 5xx outcome releases the key.
// After a crash the key is either completed with its response (replayed) or in flight with no effect (a retry
// takes over once the lease has passed and applies the effect exactly once). The key (X-Request-Id, or its
// synonym Idempotency-Key) is stored per tenant + environment with a fingerprint of method, path and body:
// another request under the same key is 422; a repeat while the lease holds is 409 with Retry-After.

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export type IdempotencyScope = { tenantId: string; environment: Environment; key: string };
export type StoredResponse = { status: number; body: string; contentType: string; headers?: Record<string, string> };
export type Claim = { replay: StoredResponse; lease: null } | { replay: null; lease: string };

type Row = {
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  response_type: string | null;
  response_headers: Record<string, string> | null;
  lease_token: string | null;
  lease_left_ms: number | null;
  expired: boolean;
};

/** The second phase found the key taken over by another request (its lease had passed). */
export class LeaseLostError extends Error {}

/** What a stored response carrying a secret is sealed to (lib/security/secret-box.ts): its record, and no other. */
export function sealedName(scope: IdempotencyScope): string {
  return `idempotency:${scope.tenantId}:${scope.environment}:${scope.key}`;
}

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()} ${path}\n${stringify(body ?? null)}`)
    .digest("hex");
}

const leaseMs = () => getEnv().IDEMPOTENCY_LEASE_SECONDS * 1000;

const inProgress = (retryAfterSeconds: number) =>
  new ApiError("idempotency_in_progress", "The first request with this key has not finished; retry later", {
    headers: { "retry-after": String(Math.max(1, retryAfterSeconds)) },
  });

/** Phase 1: claims the key for this request (new, expired, or its lease passed), or returns the response to replay. */
export async function claimIdempotencyKey(scope: IdempotencyScope, print: string): Promise<Claim> {
  const db = rootDb();
  for (let attempt = 0; attempt < 3; attempt++) {
    const lease = randomUUID();
    // Times come from the database's clock, the one clock every instance shares.
    const inserted = await db.$executeRaw`
      INSERT INTO idempotency_records (tenant_id, environment, key, fingerprint, state, lease_token, locked_until, created_at, expires_at)
      VALUES (${scope.tenantId}, ${scope.environment}::"Environment", ${scope.key}, ${print}, 'in_flight', ${lease},
              now() + make_interval(secs => ${leaseMs() / 1000}), now(), now() + make_interval(secs => ${IDEMPOTENCY_TTL_MS / 1000}))
      ON CONFLICT DO NOTHING`;
    if (inserted === 1) return { replay: null, lease };

    const [existing] = await db.$queryRaw<Row[]>`
      SELECT fingerprint, state, response_status, response_body, response_type, response_headers, lease_token,
             (EXTRACT(EPOCH FROM (locked_until - now())) * 1000)::float8 AS lease_left_ms,
             expires_at <= now() AS expired
      FROM idempotency_records
      WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND key = ${scope.key}`;
    if (!existing) continue; // released between our insert and read: try again
    if (existing.expired) {
      await db.$executeRaw`
        DELETE FROM idempotency_records
        WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND key = ${scope.key} AND expires_at <= now()`;
      continue;
    }
    if (existing.fingerprint !== print) {
      throw new ApiError("idempotency_key_reused", "This idempotency key was already used with a different request");
    }
    if (existing.state === "completed") {
      return {
        replay: {
          status: existing.response_status ?? 200,
          body: existing.response_body ?? "",
          contentType: existing.response_type ?? "application/json",
          headers: existing.response_headers ?? {},
        },
        lease: null,
      };
    }
    if (existing.lease_left_ms !== null && existing.lease_left_ms > 0) throw inProgress(Math.ceil(existing.lease_left_ms / 1000));
    // In flight, lease passed: its request died before committing (a commit stores the response). Take over —
    // only if nobody else did first (the old token must still be there).
    const taken = await db.$executeRaw`
      UPDATE idempotency_records SET lease_token = ${lease}, locked_until = now() + make_interval(secs => ${leaseMs() / 1000})
      WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND key = ${scope.key}
        AND state = 'in_flight' AND lease_token IS NOT DISTINCT FROM ${existing.lease_token}`;
    if (taken === 1) return { replay: null, lease };
  }
  throw inProgress(1);
}

/** Phase 2, inside the effect's transaction: stores the response; throws LeaseLostError if the key was taken over. */
export async function completeInTransaction(tx: Tx, scope: IdempotencyScope, lease: string, response: StoredResponse): Promise<void> {
  const updated = await tx.$executeRaw`
    UPDATE idempotency_records
    SET state = 'completed', response_status = ${response.status}, response_body = ${response.body},
        response_type = ${response.contentType}, response_headers = ${JSON.stringify(response.headers ?? {})}::jsonb,
        lease_token = NULL, locked_until = NULL
    WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND key = ${scope.key}
      AND state = 'in_flight' AND lease_token = ${lease}`;
  if (updated !== 1) throw new LeaseLostError("the idempotency key was taken over by another request");
}

/** Phase 3 for a 4xx outcome (nothing was changed): stores it, if this request still holds the lease. */
export async function completeIdempotencyKey(scope: IdempotencyScope, lease: string, response: StoredResponse): Promise<void> {
  await completeInTransaction(rootDb() as unknown as Tx, scope, lease, response).catch((err: unknown) => {
    if (!(err instanceof LeaseLostError)) throw err;
  });
}

/** Phase 3 for a 5xx outcome: forgets the key so that the client's retry runs again. */
export async function releaseIdempotencyKey(scope: IdempotencyScope, lease: string): Promise<void> {
  await rootDb().$executeRaw`
    DELETE FROM idempotency_records
    WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND key = ${scope.key}
      AND state = 'in_flight' AND lease_token = ${lease}`;
}

/**
 * Stored answers that name any of `objectIds` (a customer erased at its subject's request, its simulations …) answer
 * their replays 404 from now on, instead of the data: the key stays used, so a replay cannot make the object again (a
 * retried POST /v1/customers would register the erased person anew), and the data is gone. In the caller's transaction.
 * Reads every stored answer of the tenant and environment (at most a day's, IDEMPOTENCY_TTL_MS).
 */
export async function eraseStoredAnswers(tx: Tx, scope: Omit<IdempotencyScope, "key">, objectIds: readonly string[], reason: string): Promise<number> {
  const patterns = objectIds.map((id) => `%"${id}"%`);
  // The replay's own request id is not known here (the record's key holds the credential's too): none is given.
  const problem: Partial<ReturnType<typeof toProblem>> = toProblem(new ApiError("not_found", reason), "");
  delete problem.request_id;
  const body = JSON.stringify(problem);
  const rows = await tx.$queryRaw<{ key: string }[]>`
    SELECT key FROM idempotency_records
     WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND response_body LIKE ANY(${patterns}::text[])
     FOR UPDATE`;
  for (const { key } of rows) {
    await tx.$executeRaw`
      UPDATE idempotency_records SET response_status = 404, response_body = ${body}, response_type = ${PROBLEM_CONTENT_TYPE}, response_headers = NULL
       WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND key = ${key}`;
  }
  return rows.length;
}

/** Deletes up to `limit` records past their expiry (24 h): their keys are free again, and the responses they kept —
 *  sealed or not — are not held longer than replays need them. Returns how many went. */
export async function purgeExpiredIdempotencyRecords(limit = 1000): Promise<number> {
  return rootDb().$executeRaw`
    DELETE FROM idempotency_records WHERE ctid IN (
      SELECT ctid FROM idempotency_records
       WHERE expires_at <= now() AND (state = 'completed' OR locked_until IS NULL OR locked_until <= now()) LIMIT ${limit})`;
}
