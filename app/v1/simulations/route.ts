import { createSimulationOperation, listSimulationsOperation, TAX_RATE_DEPRECATION_HEADERS } from "@/lib/api/operations/simulations";
import { apiRoute } from "@/lib/api/route";
import { createSimulation } from "@/lib/simulations/create-simulation";
import { listSimulations } from "@/lib/simulations/queries";

// POST /v1/simulations — compute and store a simulation (schedule, IOF, CET).
export const POST = apiRoute(createSimulationOperation, async ({ ctx, body }) => {
  const { simulation, usedDeprecatedTaxRate } = await createSimulation(ctx, body);
  return { status: 201, body: simulation, headers: usedDeprecatedTaxRate ? TAX_RATE_DEPRECATION_HEADERS : undefined };
});

// GET /v1/simulations — list simulations, newest first.
export const GET = apiRoute(listSimulationsOperation, async ({ ctx, query }) => ({
  body: await listSimulations(ctx, query),
}));
