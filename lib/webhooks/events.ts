import type { OutboxEvent, Prisma } from "@prisma/client";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { checkEventReadable, readableEventTypes } from "./event-access";
import type { EventResponse, ListEventsQuery } from "./schemas";

// GET /v1/events: the outbox as integrators see it — every event of the credential's environment, the same
// id, type and data its webhooks carry (for reconciling after downtime, or without webhooks at all).

/** `permissions`: the caller's; events of resources they may not read are left out (lib/webhooks/event-access.ts). */
export async function listEvents(scope: Scope, query: ListEventsQuery, permissions: readonly string[]) {
  const after = decodeCursor(scope, query.cursor, "event");
  if (query.type !== undefined) checkEventReadable(permissions, query.type);
  const filters: Prisma.OutboxEventWhereInput = { ...where(scope), type: query.type ?? { in: readableEventTypes(permissions) } };
  const page = await paginate(query.limit, (args) => db().outboxEvent.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toEventResponse);
}

export async function getEvent(scope: Scope, id: string, permissions: readonly string[]): Promise<EventResponse> {
  const row = await db().outboxEvent.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Event");
  checkEventReadable(permissions, row.type);
  return toEventResponse(row);
}

export function toEventResponse(row: OutboxEvent): EventResponse {
  return {
    id: row.id,
    object: "event",
    type: row.type,
    created_at: row.createdAt.toISOString(),
    tenant_id: row.tenantId,
    environment: row.environment,
    data: row.payload as Record<string, unknown>,
  };
}
