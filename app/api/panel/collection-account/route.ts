import { z } from "zod";
import { CollectionAccountBody, findCollectionAccount, putCollectionAccount } from "@/lib/collection/account-settings";
import { cnpjProblem } from "@/lib/customers/document";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// The active tenant's collection account per environment, for owners and admins (Settings → Collection account).
// The same service as GET/PUT /v1/collection-account; the environment is chosen in the panel.

const Environment = z.enum(["sandbox", "production"]);

// GET /api/panel/collection-account?environment=sandbox|production — `null` in production until one is set (a normal
// state of a new tenant, not an error the browser should log; /v1 answers 404 there).
export const GET = panelRoute({ manageCredentials: true }, async ({ user, request }) => ({ body: await findCollectionAccount(panelScope(user, request)) }));

// PUT /api/panel/collection-account — {environment, …the account}. The CNPJ's check digits are checked with the other
// fields (the form shows every error at once; the service, as /v1 does, would answer them one at a time).
// On the field itself: an object's refinement would run only once every other field is valid.
const PanelAccountBody = CollectionAccountBody.extend({
  environment: Environment,
  // The `updated_at` of the account the form showed (null: none of the tenant's own): changed since, 409.
  expected_updated_at: z.iso.datetime().nullable(),
  beneficiary_document: CollectionAccountBody.shape.beneficiary_document.superRefine((document, ctx) => {
    const problem = cnpjProblem(document);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});

export const PUT = panelRoute({ manageCredentials: true, body: PanelAccountBody }, async ({ user, actor, body }) => {
  const { environment, expected_updated_at: expected, ...account } = body;
  return { body: await putCollectionAccount({ tenantId: user.tenantId, environment }, actor, account, expected) };
});
