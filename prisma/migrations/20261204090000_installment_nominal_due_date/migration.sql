-- The nominal due date of each installment: the end of the monthly period its interest was computed on, before the
-- due date rule (following, preceding) moved it to due_date. A payoff quote and a partial settlement discount each
-- open installment to it (lib/finance/early-payoff.ts), while due_date still says when it is due (CDC art. 52 par 2:
-- discounting to the moved date took interest for days never charged, or charged interest for no time).
ALTER TABLE "installments" ADD COLUMN "nominal_due_date" DATE;

-- Installments as issued (lib/finance/due-dates.ts scheduleNominalDates): monthly from the first due date of the
-- contract terms when the simulation named one, else counted from the disbursement date (the default first due date
-- is one month after it, and a loan of Jan 31 then falls due Feb 28, Mar 31, Apr 30, while a named first due date of
-- Feb 28 goes on Mar 28). A date plus an interval of n months adds them at once from the anchor and clamps to the
-- month end, as addMonths does. A contract without its simulation counts from the disbursement date when its first
-- due date is one month after it (the default), else from that first due date.
UPDATE "installments" AS i
   SET "nominal_due_date" = CASE
         WHEN c."terms" ->> 'first_due_date' IS NOT NULL
              AND (s."input" ? 'first_due_date' OR (c."terms" ->> 'first_due_date')::date <> (c."disbursement_date" + interval '1 month')::date)
           THEN ((c."terms" ->> 'first_due_date')::date + make_interval(months => i."number" - 1))::date
         ELSE (c."disbursement_date" + make_interval(months => i."number"))::date
       END
  FROM "contracts" AS c
  LEFT JOIN "proposals" AS p ON p."id" = c."proposal_id"
  LEFT JOIN "simulations" AS s ON s."id" = p."simulation_id"
 WHERE c."id" = i."contract_id";

-- Installments rescheduled by a completed partial settlement: their amounts were computed on monthly periods from the
-- first rescheduled due date (the actual one, before this change), the row at position k of the reschedule k months
-- after it. The latest completed settlement of each installment wins.
UPDATE "installments" AS i
   SET "nominal_due_date" = r."nominal"
  FROM (
    SELECT DISTINCT ON (e."line" ->> 'installment_id')
           e."line" ->> 'installment_id' AS "installment_id",
           ((st."reschedule" -> 'schedule' -> 0 ->> 'due_date')::date + make_interval(months => (e."k" - 1)::int))::date AS "nominal"
      FROM "settlements" AS st
     CROSS JOIN LATERAL jsonb_array_elements(st."reschedule" -> 'schedule') WITH ORDINALITY AS e("line", "k")
     WHERE st."type" = 'partial' AND st."status" = 'completed' AND jsonb_typeof(st."reschedule" -> 'schedule') = 'array'
     ORDER BY e."line" ->> 'installment_id', st."completed_at" DESC, st."id" DESC
  ) AS r
 WHERE i."id" = r."installment_id";

ALTER TABLE "installments" ALTER COLUMN "nominal_due_date" SET NOT NULL;
