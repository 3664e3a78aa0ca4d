import { deleteCustomerOperation, getCustomerOperation, updateCustomerOperation } from "@/lib/api/operations/customers";
import { apiRoute } from "@/lib/api/route";
import { eraseCustomer, getCustomer, updateCustomer } from "@/lib/customers";

// GET /v1/customers/{id} — one customer of the caller's tenant and environment (404 for any other).
export const GET = apiRoute(getCustomerOperation, async ({ ctx, params }) => ({
  body: await getCustomer(ctx, params.id),
}));

// PATCH /v1/customers/{id} — change only the fields sent; document and kind are immutable.
export const PATCH = apiRoute(updateCustomerOperation, async ({ ctx, params, body }) => ({
  body: await updateCustomer(ctx, params.id, body),
}));

// DELETE /v1/customers/{id} — erase the customer's data (LGPD) unless a credit operation holds it (409).
export const DELETE = apiRoute(deleteCustomerOperation, async ({ ctx, params }) => ({
  body: await eraseCustomer(ctx, params.id),
}));
