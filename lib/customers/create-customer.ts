import { Prisma } from "@prisma/client";
import { writeAudit, type Actor } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { columnData, customerFields } from "./customer-fields";
import { parseDocument } from "./document";
import type { CreateCustomerBody, CustomerView } from "./schemas";
import { toCustomerView } from "./serialize";

export type CustomerContext = Scope & { actor: Actor };

/** Registers a person (CPF) or company (CNPJ); the audit row and `customer.created` event commit with it. */
export async function createCustomer(ctx: CustomerContext, input: CreateCustomerBody): Promise<CustomerView> {
  const { kind, document } = parseDocument(input.document);
  const fields = customerFields(kind, input);
  try {
    return await db().$transaction(async (tx) => {
      const row = await tx.customer.create({
        data: { ...columnData(fields), id: newId("customer"), ...where(ctx), kind, document, name: input.name },
      });
      const customer = toCustomerView(row);
      await writeAudit(tx, {
        ...where(ctx),
        actor: ctx.actor,
        action: "customer.created",
        target: { type: "customer", id: row.id },
        metadata: { kind },
      });
      await writeOutboxEvent(tx, { ...where(ctx), type: "customer.created", payload: customer as unknown as Prisma.InputJsonObject });
      return customer;
    });
  } catch (err) {
    // The unique index (tenant, environment, document) decides, so two concurrent creations cannot both win.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new DomainError("duplicate_document", "A customer with this document already exists in this environment");
    }
    throw err;
  }
}
