import { todayInBrazil } from "@/lib/clock";
import { WriteOffContractBody } from "@/lib/contracts/schemas";
import { writeOffContract } from "@/lib/contracts/write-off";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/contracts/{id}/write-off?environment= — an owner or admin writes a contract in default off, with its
// reason: the same service, rules, audit and event as POST /v1/contracts/{id}/write-off, with the signed-in person as the actor.
export const POST = panelRoute({ writeOff: true, body: WriteOffContractBody }, async ({ user, actor, body, params, request }) => ({
  body: await writeOffContract(panelScope(user, request), actor, params.id!, body.reason, todayInBrazil()),
}));
