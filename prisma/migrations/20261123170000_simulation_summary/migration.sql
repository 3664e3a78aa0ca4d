-- Lists read a simulation's summary — its result without the two schedules (~0.6 kB instead of 15–20 kB) — so
-- that `result`, stored as json text, is only ever read whole (GET /v1/simulations/{id}, proposals).
ALTER TABLE "simulations" ADD COLUMN "summary" JSONB;
UPDATE "simulations" SET "summary" = "result"::jsonb - 'schedule' - 'iof_schedule';
ALTER TABLE "simulations" ALTER COLUMN "summary" SET NOT NULL;
