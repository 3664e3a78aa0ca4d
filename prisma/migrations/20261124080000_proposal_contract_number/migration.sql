-- Payroll proposals: the CCB number the averbação is requested under, taken once in a short transaction of its own
-- before the authority is called (stable across retries, and no sequence lock held while the authority answers).
ALTER TABLE "proposals" ADD COLUMN "contract_number" TEXT;
