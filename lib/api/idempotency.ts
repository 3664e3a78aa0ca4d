import { createHash } from "node:crypto";
import type { Environment } from "@prisma/client";
import stringify from "safe-stable-stringify";
import { db } from "@/lib/db/client";
import { ApiError } from "./errors";

// Idempotent POSTs (api-conventions.md): the key (X-Request-Id, or its synonym Idempotency-Key) is
// stored per tenant + environment with a fingerprint of method, path and body. A repeat replays the
// stored response; the same key with another request is 422; a repeat while the first still runs is 409.
// Only requests that reach the handler are recorded (auth, validation and 429 failures are not), and a
// 5xx outcome is forgotten so that the client's retry can succeed.

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export type IdempotencyScope = { tenantId: string; environment: Environment; key: string };
export type StoredResponse = { status: number; body: string; contentType: string };

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()} ${path}\n${stringify(body ?? null)}`)
    .digest("hex");
}

/** Claims the key for this request, or returns the stored response to replay. Throws 409/422. */
export async function claimIdempotencyKey(
  scope: IdempotencyScope,
  print: string,
): Promise<{ replay: StoredResponse } | { replay: null }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = new Date();
    const inserted = await db().$executeRaw`
      INSERT INTO idempotency_records (tenant_id, environment, key, fingerprint, state, created_at, expires_at)
      VALUES (${scope.tenantId}, ${scope.environment}::"Environment", ${scope.key}, ${print}, 'in_flight', ${now},
              ${new Date(now.getTime() + IDEMPOTENCY_TTL_MS)})
      ON CONFLICT DO NOTHING`;
    if (inserted === 1) return { replay: null };

    const existing = await db().idempotencyRecord.findUnique({
      where: { tenantId_environment_key: { tenantId: scope.tenantId, environment: scope.environment, key: scope.key } },
    });
    if (!existing) continue; // released between our insert and read: try again
    if (existing.expiresAt <= now) {
      await db().idempotencyRecord.deleteMany({
        where: { tenantId: scope.tenantId, environment: scope.environment, key: scope.key, expiresAt: { lte: now } },
      });
      continue;
    }
    if (existing.fingerprint !== print) {
      throw new ApiError("idempotency_key_reused", "This idempotency key was already used with a different request");
    }
    if (existing.state !== "completed") {
      throw new ApiError("idempotency_in_progress", "The first request with this key has not finished; retry later", {
        headers: { "retry-after": "1" },
      });
    }
    return {
      replay: {
        status: existing.responseStatus ?? 200,
        body: existing.responseBody ?? "",
        contentType: existing.responseType ?? "application/json",
      },
    };
  }
  throw new ApiError("idempotency_in_progress", "The idempotency key is busy; retry later", { headers: { "retry-after": "1" } });
}

export async function completeIdempotencyKey(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
  await db().idempotencyRecord.update({
    where: { tenantId_environment_key: { tenantId: scope.tenantId, environment: scope.environment, key: scope.key } },
    data: {
      state: "completed",
      responseStatus: response.status,
      responseBody: response.body,
      responseType: response.contentType,
    },
  });
}

export async function releaseIdempotencyKey(scope: IdempotencyScope): Promise<void> {
  await db().idempotencyRecord.deleteMany({
    where: { tenantId: scope.tenantId, environment: scope.environment, key: scope.key, state: "in_flight" },
  });
}
