import { getClientOperation } from "@/lib/api/operations/customers";
import { apiRoute } from "@/lib/api/route";
import { getCustomer } from "@/lib/customers";

// GET /v1/clients/{id} — deprecated alias of GET /v1/customers/{id} (since 1.1.0): same service, same
// answer. The wrapper adds the deprecation headers; Link names this customer's successor address.
export const GET = apiRoute(getClientOperation, async ({ ctx, params }) => {
  const customer = await getCustomer(ctx, params.id);
  return { body: customer, headers: { link: `</v1/customers/${customer.id}>; rel="successor-version"` } };
});
