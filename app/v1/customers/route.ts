import { createCustomerOperation, listCustomersOperation } from "@/lib/api/operations/customers";
import { apiRoute } from "@/lib/api/route";
import { createCustomer, listCustomers } from "@/lib/customers";

// GET /v1/customers — the environment's customers, newest first; `document` finds one by CPF or CNPJ.
export const GET = apiRoute(listCustomersOperation, async ({ ctx, query }) => ({
  body: await listCustomers(ctx, query),
}));

// POST /v1/customers — register a person (CPF) or a company (CNPJ); idempotent with X-Request-Id.
export const POST = apiRoute(createCustomerOperation, async ({ ctx, body }) => ({
  status: 201,
  body: await createCustomer(ctx, body),
}));
