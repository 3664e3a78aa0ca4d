import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import type { ListSimulationsQuery, SimulationResponse } from "./schemas";
import { fromRow, summaryFromRow } from "./serialize";

// GET /v1/simulations/{id}: another tenant's or environment's id is simply not found (404).
export async function getSimulation(scope: Scope, id: string): Promise<SimulationResponse> {
  const row = await db().simulation.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Simulation");
  return fromRow(row);
}

// GET /v1/simulations: newest first, the standard limit + cursor pagination; items without schedule.
export async function listSimulations(scope: Scope, query: ListSimulationsQuery) {
  const after = decodeCursor(scope, query.cursor);
  const filters = { ...where(scope), ...(query.customer_id ? { customerId: query.customer_id } : {}) };
  const page = await paginate(query.limit, (args) => db().simulation.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, summaryFromRow);
}
