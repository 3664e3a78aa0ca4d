import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { where, type Scope } from "@/lib/scope";
import type { CustomerView } from "./schemas";
import { toCustomerView } from "./serialize";

/** One customer of the caller's tenant and environment; any other id is "not found" (never revealed). */
export async function getCustomer(scope: Scope, id: string): Promise<CustomerView> {
  const row = await db().customer.findFirst({ where: { ...where(scope), id } });
  if (!row) throw notFound("Customer");
  return toCustomerView(row);
}
