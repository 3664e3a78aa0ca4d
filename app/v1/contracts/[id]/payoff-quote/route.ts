import { payoffQuoteOperation } from "@/lib/api/operations/settlements";
import { apiRoute } from "@/lib/api/route";
import { getPayoffQuote } from "@/lib/settlements/payoff-quote";

// GET /v1/contracts/{id}/payoff-quote?date= — what settles the contract on that date.
export const GET = apiRoute(payoffQuoteOperation, async ({ ctx, params, query }) => ({ body: await getPayoffQuote(ctx, params.id, query) }));
