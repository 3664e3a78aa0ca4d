-- Ending an averbação: a payroll contract that closes (paid off, settled) or is withdrawn must be reported to the
-- payroll authority, or the benefit keeps being deducted and its margin stays taken. The closing transaction
-- marks the endorsement `terminating`, and a worker calls the authority (with retries) and marks it `terminated`.
ALTER TABLE "endorsements" ADD COLUMN "termination_reason" TEXT;
ALTER TABLE "endorsements" ADD COLUMN "termination_attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "endorsements" ADD COLUMN "termination_next_attempt_at" TIMESTAMPTZ(3);
ALTER TABLE "endorsements" ADD COLUMN "termination_last_error" TEXT;
ALTER TABLE "endorsements" ADD COLUMN "terminated_at" TIMESTAMPTZ(3);
CREATE INDEX "endorsements_terminating_due" ON "endorsements"("termination_next_attempt_at") WHERE "status" = 'terminating';
