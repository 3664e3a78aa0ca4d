import { cancelReservationOperation } from "@/lib/api/operations/payroll";
import { apiRoute } from "@/lib/api/route";
import { cancelReservation } from "@/lib/payroll/reservations";

// POST /v1/payroll/margin-reservations/{id}/cancel — release the margin (409 when not reserved).
export const POST = apiRoute(cancelReservationOperation, async ({ ctx, params }) => ({ body: await cancelReservation(ctx, ctx.actor, params.id) }));
