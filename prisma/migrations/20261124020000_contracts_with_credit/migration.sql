-- The collection job looks for contracts whose credit can pay installments that fell due (lib/collection/collection-job.ts):
-- few contracts ever hold a credit, so a partial index finds them without reading every contract on every run.
CREATE INDEX "contracts_with_credit_idx" ON "contracts"("id") WHERE "credit_balance" > 0;
