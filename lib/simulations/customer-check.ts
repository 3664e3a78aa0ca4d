import { db } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import type { BorrowerKind } from "@/lib/finance";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { where, type Scope } from "@/lib/scope";

// A simulation may name its borrower. The customer must exist in the caller's tenant and environment
// (else 404, never revealing another tenant's customers), and a payroll product needs the customer's
// payroll link of the matching kind. Reads the customers table directly (one indexed row, two columns).

export async function checkCustomer(scope: Scope, customerId: string, product: ProductCode): Promise<{ borrowerKind: BorrowerKind }> {
  const customer = await db().customer.findFirst({ where: { id: customerId, ...where(scope) }, select: { kind: true, payroll: true } });
  if (!customer) throw notFound("Customer");
  const needed = PRODUCTS[product].payrollLink;
  if (needed) {
    const link = (customer.payroll as { type?: unknown } | null)?.type;
    if (link !== needed) {
      const message = `The customer has no ${needed} payroll link, which ${product} requires`;
      throw new DomainError("product_rule_violation", `The simulation breaks the rules of product ${product}`, {
        errors: [{ param: "customer_id", in: "body", message }],
      });
    }
  }
  return { borrowerKind: customer.kind === "company" ? "PJ" : "PF" };
}
