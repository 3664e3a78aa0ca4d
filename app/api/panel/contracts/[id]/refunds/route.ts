import { z } from "zod";
import { CreateRefundBody } from "@/lib/collection/refund-schemas";
import { createRefund } from "@/lib/collection/refunds";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/contracts/{id}/refunds?environment= — records that the borrower's credit was sent back (owners and
// admins): the same service, rules and audit as POST /v1/refunds, with the signed-in person as the actor.
// `expected_credit_balance`: the credit the form showed; a different one now is 409 (a second click, another refund).
const Body = CreateRefundBody.omit({ contract_id: true }).extend({ expected_credit_balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

export const POST = panelRoute({ recordRefunds: true, body: Body }, async ({ user, actor, body, params, request }) => {
  const { expected_credit_balance: expected, ...refund } = body;
  return { status: 201, body: await createRefund(panelScope(user, request), actor, { ...refund, contract_id: params.id! }, expected) };
});
