-- The contract credit a payment used beside its own money, integer centavos: a full settlement nets the contract
-- credit from its payoff, and a partial one counts what its charge received before, held as credit. Without it a
-- settlement payment allocations added up to more than its amount and nothing on the payment said why.
-- allocations total = amount + credit_applied - credit.
ALTER TABLE "payments" ADD COLUMN "credit_applied" BIGINT NOT NULL DEFAULT 0;

-- Payments already made: a full settlement from its allocations (their total less the money kept), a partial one
-- from the settlement amount (what it needed less what this payment brought beyond the credit it left).
UPDATE "payments" AS p
SET "credit_applied" = GREATEST(0, x.total - p."amount" + p."credit")
FROM (
  SELECT p2."id", COALESCE(SUM((a ->> 'total')::bigint), 0) AS total
  FROM "payments" AS p2
  JOIN "settlements" AS s ON s."id" = p2."settlement_id" AND s."type" = 'full' AND s."payment_id" = p2."id"
  LEFT JOIN LATERAL jsonb_array_elements(p2."allocations") AS a ON TRUE
  GROUP BY p2."id"
) AS x
WHERE x."id" = p."id";

UPDATE "payments" AS p
SET "credit_applied" = GREATEST(0, s."amount" - p."amount" + p."credit")
FROM "settlements" AS s
WHERE s."id" = p."settlement_id" AND s."type" = 'partial' AND s."payment_id" = p."id";
