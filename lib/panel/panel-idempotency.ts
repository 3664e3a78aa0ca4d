import { ApiError } from "@/lib/api/errors";
import {
  claimIdempotencyKey,
  completeInTransaction,
  fingerprint,
  LeaseLostError,
  releaseIdempotencyKey,
  sealedName,
  type IdempotencyScope,
} from "@/lib/api/idempotency";
import { rootDb } from "@/lib/db/client";
import { requestTransactionOptions, runInAmbientTransaction } from "@/lib/db/transaction";
import type { Scope } from "@/lib/scope";
import { openSecret, sealSecret } from "@/lib/security/secret-box";

// Panel writes that create something (a charge, a webhook endpoint) are idempotent as /v1's POSTs are, on the same
// records (lib/api/idempotency.ts): the form sends an Idempotency-Key per submission (components/idempotency-keys.ts),
// so a click sent again after the answer was lost — the panel gives up after 20 s, the server may still commit — gets
// the first one's answer instead of a second boleto the borrower could pay twice, or a second endpoint whose secret
// nobody saw. The effect and its stored answer commit together; any failure forgets the key (nothing was changed,
// the same submission runs again). Keys are the person's own, in the screen's tenant and environment, and the stored
// answer is sealed (a webhook endpoint's carries its secret).

export type PanelResult = { status?: number; body: unknown };

export async function runPanelIdempotent(
  scope: Scope,
  userId: string,
  key: string,
  request: Request,
  body: unknown,
  call: () => Promise<PanelResult>,
): Promise<PanelResult & { replayed: boolean }> {
  const records: IdempotencyScope = { tenantId: scope.tenantId, environment: scope.environment, key: `panel:${userId}:${key}` };
  const sealedAs = sealedName(records);
  const claim = await claimIdempotencyKey(records, fingerprint(request.method, new URL(request.url).pathname, body));
  if (claim.replay) {
    return { status: claim.replay.status, body: JSON.parse(openSecret(claim.replay.body, sealedAs)) as unknown, replayed: true };
  }
  try {
    return await runInAmbientTransaction(
      rootDb(),
      async (tx) => {
        const result = await call();
        const stored = { status: result.status ?? 200, body: sealSecret(JSON.stringify(result.body), sealedAs), contentType: "application/json" };
        await completeInTransaction(tx, records, claim.lease, stored);
        return { ...result, replayed: false };
      },
      requestTransactionOptions(),
    );
  } catch (err) {
    await releaseIdempotencyKey(records, claim.lease).catch(() => undefined);
    if (err instanceof LeaseLostError) {
      throw new ApiError("idempotency_in_progress", "Another request with this key took over; retry to get its response", { headers: { "retry-after": "1" } });
    }
    throw err;
  }
}
