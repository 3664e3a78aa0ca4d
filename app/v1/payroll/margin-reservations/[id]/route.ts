import { getReservationOperation } from "@/lib/api/operations/payroll";
import { apiRoute } from "@/lib/api/route";
import { getReservation } from "@/lib/payroll/reservations";

// GET /v1/payroll/margin-reservations/{id}
export const GET = apiRoute(getReservationOperation, async ({ ctx, params }) => ({ body: await getReservation(ctx, params.id) }));
