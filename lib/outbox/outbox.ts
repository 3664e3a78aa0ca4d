import type { Environment, Prisma } from "@prisma/client";
import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import type { EventType } from "@/lib/webhooks/event-catalog";

// Transactional outbox: an event is a row written in the same transaction as the change that caused it,
// so a committed change always has its event and a rolled-back one never does. Webhook delivery reads
// unpublished rows from here.
export type OutboxInput = {
  tenantId: string;
  environment: Environment;
  /** A catalogued type (lib/webhooks/event-catalog.ts): what webhooks deliver and the OpenAPI document lists. */
  type: EventType;
  payload: Prisma.InputJsonObject;
};

export async function writeOutboxEvent(tx: Tx, event: OutboxInput): Promise<string> {
  const id = newId("event");
  await tx.outboxEvent.create({ data: { id, ...event } });
  return id;
}
