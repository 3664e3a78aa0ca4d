import { queryRows, sql } from "@/lib/db/sql";
import { DomainError, notFound } from "@/lib/errors";
import type { BorrowerKind } from "@/lib/finance";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import type { Scope } from "@/lib/scope";

// Payroll products (inss_payroll, private_payroll) deduct the installments from a payroll the customer
// is linked to, so a simulation or proposal for them needs a customer with that link: without
// `customer_id`, or with a customer whose `payroll.type` is not the product's `payrollLink`, it is a 400
// `payroll_link_required` naming `customer_id`. Other products take an optional customer. The customer
// must exist in the caller's tenant and environment (else 404, never revealing another tenant's customers).

function payrollLinkRequired(product: ProductCode, message: string): DomainError {
  const needed = PRODUCTS[product].payrollLink;
  return new DomainError("payroll_link_required", `${product} requires a customer with a payroll link of type ${needed}`, {
    errors: [{ param: "customer_id", in: "body", message }],
  });
}

/** Before anything is read or computed: a payroll product without a customer is refused. */
export function requireCustomerFor(product: ProductCode, customerId: string | undefined): void {
  const needed = PRODUCTS[product].payrollLink;
  if (needed && customerId === undefined) {
    throw payrollLinkRequired(product, `Required for ${product}: a customer with a payroll link of type ${needed} (payroll.type "${needed}")`);
  }
}

/** The customer's stored payroll (customers.payroll) must carry the product's link. */
export function checkPayrollLink(product: ProductCode, payroll: unknown): void {
  const needed = PRODUCTS[product].payrollLink;
  if (!needed) return;
  const link = (payroll as { type?: unknown } | null)?.type;
  if (link !== needed) throw payrollLinkRequired(product, `The customer has no ${needed} payroll link, which ${product} requires`);
}

// Reads the customers table directly (one indexed row, two columns; raw SQL on this hot path: ~0.7 ms of CPU
// less than Prisma's findFirst).
export async function checkCustomer(scope: Scope, customerId: string, product: ProductCode): Promise<{ borrowerKind: BorrowerKind }> {
  const [customer] = await queryRows<{ kind: string; payroll: unknown }>(sql`
    SELECT kind, payroll FROM customers WHERE id = ${customerId} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"`);
  if (!customer) throw notFound("Customer");
  checkPayrollLink(product, customer.payroll);
  return { borrowerKind: customer.kind === "company" ? "PJ" : "PF" };
}
