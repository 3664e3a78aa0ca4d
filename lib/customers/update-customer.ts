import type { Prisma } from "@prisma/client";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where } from "@/lib/scope";
import type { CustomerContext } from "./create-customer";
import { columnData, customerFields } from "./customer-fields";
import type { CustomerKind } from "./document";
import type { CustomerView, UpdateCustomerBody } from "./schemas";
import { toCustomerView } from "./serialize";

/**
 * Changes only the fields sent. When nothing actually changes, nothing is written (no audit row, no event);
 * otherwise the audit row (each changed field's value before and after) and the `customer.updated` event (naming the
 * changed fields, with their earlier values in `previous_attributes`, as Stripe's events carry them) commit with it.
 */
export async function updateCustomer(ctx: CustomerContext, id: string, input: UpdateCustomerBody): Promise<CustomerView> {
  return db().$transaction(async (tx) => {
    // Scoped read: another tenant's or environment's customer is "not found", like one that does not exist. Locked
    // first, so two PATCHes at once take turns: each compares (`changed_fields`, the event) against what the other
    // committed, not against a row already changed under it. FOR NO KEY UPDATE: it waits for an erasure (FOR UPDATE)
    // but not for what is being made for the customer (FOR KEY SHARE, ./hold-customer.ts — a proposal's submission
    // holds it across the payroll authority's call).
    await tx.$queryRaw`SELECT id FROM customers WHERE id = ${id} AND tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" FOR NO KEY UPDATE`;
    const existing = await tx.customer.findFirst({ where: { ...where(ctx), id } });
    if (!existing) throw notFound("Customer");
    const fields = customerFields(existing.kind as CustomerKind, input);
    const before = toCustomerView(existing);
    const after = toCustomerView({ ...existing, ...(fields as Partial<typeof existing>) });
    const changed = (Object.keys(input) as (keyof UpdateCustomerBody)[]).filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
    );
    if (changed.length === 0) return before;

    const row = await tx.customer.update({ where: { id: existing.id }, data: columnData(fields) });
    const customer = toCustomerView(row);
    const previous = Object.fromEntries(changed.map((key) => [key, before[key]]));
    const changes = Object.fromEntries(changed.map((key) => [key, { from: before[key], to: customer[key] }]));
    await writeAudit(tx, {
      ...where(ctx),
      actor: ctx.actor,
      action: "customer.updated",
      target: { type: "customer", id: row.id },
      metadata: { fields: changed, changes } as unknown as Prisma.InputJsonObject,
    });
    await writeOutboxEvent(tx, {
      ...where(ctx),
      type: "customer.updated",
      payload: { ...customer, changed_fields: changed, previous_attributes: previous } as unknown as Prisma.InputJsonObject,
    });
    return customer;
  });
}
