import type { OutboxEvent, Prisma } from "@prisma/client";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import type { EventResponse, ListEventsQuery } from "./schemas";

// GET /v1/events: the outbox as integrators see it — every event of the credential's environment, the same
// id, type and data its webhooks carry (for reconciling after downtime, or without webhooks at all).

export async function listEvents(scope: Scope, query: ListEventsQuery) {
  const after = decodeCursor(scope, query.cursor);
  const filters: Prisma.OutboxEventWhereInput = { ...where(scope), ...(query.type ? { type: query.type } : {}) };
  const page = await paginate(query.limit, (args) => db().outboxEvent.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toEventResponse);
}

export async function getEvent(scope: Scope, id: string): Promise<EventResponse> {
  const row = await db().outboxEvent.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Event");
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
