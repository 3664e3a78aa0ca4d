import type { Simulation } from "@prisma/client";
import { db } from "@/lib/db/client";
import { seekPageSql } from "@/lib/db/seek-sql";
import { queryRows } from "@/lib/db/sql";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import type { ListSimulationsQuery, SimulationResponse } from "./schemas";
import type { SimulationResult } from "./compute";
import { fromRow, toSimulationSummary } from "./serialize";

// GET /v1/simulations/{id}: another tenant's or environment's id is simply not found (404).
export async function getSimulation(scope: Scope, id: string): Promise<SimulationResponse> {
  const row = await db().simulation.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Simulation");
  return fromRow(row);
}

// GET /v1/simulations: newest first, the standard limit + cursor pagination; items without schedule. Plain SQL
// (lib/db/seek-sql.ts) that leaves the schedule tables in the database: a page of 100 96-month simulations
// would otherwise carry ~1.4 MB of JSON to be thrown away: it reads `summary`, the result stored without them.
const LIST_COLUMNS = `id, customer_id AS "customerId", environment::text AS environment, created_at AS "createdAt", summary AS result`;
type ListRow = Pick<Simulation, "id" | "customerId" | "environment" | "createdAt"> & { result: SimulationResult };

export async function listSimulations(scope: Scope, query: ListSimulationsQuery) {
  const after = decodeCursor(scope, query.cursor, "simulation");
  const equals = query.customer_id ? { customer_id: query.customer_id } : {};
  const rows = await queryRows<ListRow>(seekPageSql({ table: "simulations", columns: LIST_COLUMNS, scope, equals, after, limit: query.limit }));
  const page = { items: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  return toListResponse(scope, page, (row) => toSimulationSummary(row, row.result));
}
