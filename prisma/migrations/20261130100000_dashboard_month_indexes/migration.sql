-- The panel dashboard sums the last 12 months of a tenant's disbursements (contracts by disbursement_date) and
-- collections (payments by paid_at): without these it read every contract and payment the tenant ever had.
CREATE INDEX "contracts_tenant_id_environment_disbursement_date_idx" ON "contracts"("tenant_id", "environment", "disbursement_date");
CREATE INDEX "payments_tenant_id_environment_paid_at_idx" ON "payments"("tenant_id", "environment", "paid_at");
