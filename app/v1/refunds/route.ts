import { createRefundOperation, listRefundsOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { createRefund, listRefunds } from "@/lib/collection/refunds";

// POST /v1/refunds — record money paid back from a contract's credit; GET — refunds, newest first.
export const POST = apiRoute(createRefundOperation, async ({ ctx, body }) => ({ status: 201, body: await createRefund(ctx, ctx.actor, body) }));
export const GET = apiRoute(listRefundsOperation, async ({ ctx, query }) => ({ body: await listRefunds(ctx, query) }));
