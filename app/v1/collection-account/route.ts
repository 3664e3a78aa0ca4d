import { getCollectionAccountOperation, putCollectionAccountOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { getCollectionAccount, putCollectionAccount } from "@/lib/collection/account-settings";

// GET /v1/collection-account — the account charges are issued under in this environment.
export const GET = apiRoute(getCollectionAccountOperation, async ({ ctx }) => ({ body: await getCollectionAccount(ctx) }));

// PUT /v1/collection-account — set it (collections:admin).
export const PUT = apiRoute(putCollectionAccountOperation, async ({ ctx, body }) => ({ body: await putCollectionAccount(ctx, ctx.actor, body) }));
