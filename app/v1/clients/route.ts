import { listClientsOperation } from "@/lib/api/operations/customers";
import { apiRoute } from "@/lib/api/route";
import { listCustomers } from "@/lib/customers";

// GET /v1/clients — deprecated alias of GET /v1/customers (since 1.1.0): same service, same answer;
// the wrapper adds the Deprecation, Link (successor-version) and Warning headers.
export const GET = apiRoute(listClientsOperation, async ({ ctx, query }) => ({
  body: await listCustomers(ctx, query),
}));
