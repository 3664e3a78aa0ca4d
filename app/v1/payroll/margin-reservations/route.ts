import { createReservationOperation, listReservationsOperation } from "@/lib/api/operations/payroll";
import { apiRoute } from "@/lib/api/route";
import { createReservation, listReservations } from "@/lib/payroll/reservations";

// POST /v1/payroll/margin-reservations — reserve an installment (201 reserved or refused).
export const POST = apiRoute(createReservationOperation, async ({ ctx, body }) => ({
  status: 201,
  body: await createReservation(ctx, ctx.actor, ctx.requestId, body),
}));

// GET /v1/payroll/margin-reservations — newest first.
export const GET = apiRoute(listReservationsOperation, async ({ ctx, query }) => ({ body: await listReservations(ctx, query) }));
