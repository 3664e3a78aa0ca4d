import { CreateRefundBody } from "@/lib/collection/refund-schemas";
import { createRefund } from "@/lib/collection/refunds";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/contracts/{id}/refunds?environment= — records that the borrower's credit was sent back (owners and
// admins): the same service, rules and audit as POST /v1/refunds, with the signed-in person as the actor.
const Body = CreateRefundBody.omit({ contract_id: true });

export const POST = panelRoute({ recordRefunds: true, body: Body }, async ({ user, actor, body, params, request }) => ({
  status: 201,
  body: await createRefund(panelScope(user, request), actor, { ...body, contract_id: params.id! }),
}));
