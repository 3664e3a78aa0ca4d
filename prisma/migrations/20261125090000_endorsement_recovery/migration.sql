-- Averbação calls written ahead. The endorsement row (`submitted`) is committed before the authority is called, so a
-- request that dies after the authority endorsed (a timeout, a 5xx, the process killed, the database lost before the
-- commit) leaves a row the endorsement worker replays under the same idempotency key once its transaction must have
-- ended: it records what the authority did and, when nobody wants that averbação any more (the proposal closed
-- meanwhile), ends it there — a payroll deduction must never run for a contract that does not exist.
ALTER TABLE "endorsements" ADD COLUMN "recovery_attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "endorsements" ADD COLUMN "recovery_next_attempt_at" TIMESTAMPTZ(3);
ALTER TABLE "endorsements" ADD COLUMN "recovery_last_error" TEXT;
CREATE INDEX "endorsements_submitted_due" ON "endorsements"("recovery_next_attempt_at") WHERE "status" = 'submitted';
