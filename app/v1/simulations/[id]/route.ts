import { getSimulationOperation } from "@/lib/api/operations/simulations";
import { apiRoute } from "@/lib/api/route";
import { getSimulation } from "@/lib/simulations/queries";

// GET /v1/simulations/{id} — one simulation with its schedule.
export const GET = apiRoute(getSimulationOperation, async ({ ctx, params }) => ({
  body: await getSimulation(ctx, params.id),
}));
