import { toApiError } from "@/lib/api/error-response";
import { settlementBatchOperation } from "@/lib/api/operations/settlements";
import { toProblem } from "@/lib/api/problem";
import { apiRoute } from "@/lib/api/route";
import { runSettlementBatch } from "@/lib/settlements/batch";

// POST /v1/settlements/batch — each item in its own transaction, exactly once by X-Request-Id.
export const POST = apiRoute(settlementBatchOperation, async ({ ctx, body }) => {
  const { replayed, batch } = await runSettlementBatch(ctx, ctx.actor, {
    requestId: ctx.idempotencyKey,
    caller: ctx.idempotencyScope,
    items: body.items,
    describe: (err) => toProblem(toApiError(err, ctx.requestId), ctx.requestId) as unknown as Record<string, unknown>,
  });
  const headers: Record<string, string> = replayed ? { "idempotent-replayed": "true" } : {};
  return { status: 201, body: batch, headers };
});
