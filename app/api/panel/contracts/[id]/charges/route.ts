import { z } from "zod";
import { createCharge } from "@/lib/collection/create-charge";
import { CreateChargeBody } from "@/lib/collection/schemas";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/contracts/{id}/charges?environment= — a new boleto or Pix for open installments (the "2ª via" a
// borrower asks support for; support staff and above): the same service, rules and audit as POST /v1/charges, with
// the signed-in person as the actor.
// Pix options stay at their defaults here (a `cobv` with the due date); the API takes them.
const { installment_ids, method, due_date } = CreateChargeBody.shape;
const Body = z.strictObject({ installment_ids, method, due_date });

export const POST = panelRoute({ issueCharges: true, idempotent: true, body: Body }, async ({ user, actor, body, params, request }) => ({
  status: 201,
  body: await createCharge(panelScope(user, request), actor, { ...body, contract_id: params.id! }),
}));
