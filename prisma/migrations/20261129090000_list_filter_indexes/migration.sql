-- Lists filtered by a selective column (a customer, a contract, an endpoint, a queue status) read in their keyset
-- order (newest first on created_at, id) only when an index leads with tenant_id, environment, the filter column,
-- then created_at, id. Without one, PostgreSQL walked the tenant list index newest first until it found a page of
-- matches (every row of the environment for a customer with few or old rows), or read all the parent rows and
-- sorted them for every page. tests/platform/list-filter-indexes.test.ts checks the plans.

-- GET /v1/simulations?customer_id=
CREATE INDEX "simulations_tenant_env_customer_id_created_at_id_idx" ON "simulations"("tenant_id", "environment", "customer_id", "created_at", "id");

-- GET /v1/proposals?customer_id= and the panel customer file (supersedes the index without the keyset)
DROP INDEX "proposals_tenant_id_environment_customer_id_idx";
CREATE INDEX "proposals_tenant_env_customer_id_created_at_id_idx" ON "proposals"("tenant_id", "environment", "customer_id", "created_at", "id");

-- GET /v1/proposals?status= and the panel review queue (pending_review, newest or oldest first)
CREATE INDEX "proposals_tenant_env_status_created_at_id_idx" ON "proposals"("tenant_id", "environment", "status", "created_at", "id");

-- GET /v1/contracts?customer_id= and the panel customer file
CREATE INDEX "contracts_tenant_env_customer_id_created_at_id_idx" ON "contracts"("tenant_id", "environment", "customer_id", "created_at", "id");

-- GET /v1/charges?contract_id= (supersedes the index without the keyset)
DROP INDEX "charges_tenant_id_environment_contract_id_idx";
CREATE INDEX "charges_tenant_env_contract_id_created_at_id_idx" ON "charges"("tenant_id", "environment", "contract_id", "created_at", "id");

-- GET /v1/payments?contract_id= (supersedes the index without the keyset)
DROP INDEX "payments_tenant_id_environment_contract_id_idx";
CREATE INDEX "payments_tenant_env_contract_id_created_at_id_idx" ON "payments"("tenant_id", "environment", "contract_id", "created_at", "id");

-- GET /v1/risk-assessments?customer_id= (no index on customer_id before)
CREATE INDEX "risk_assessments_tenant_env_customer_id_created_at_id_idx" ON "risk_assessments"("tenant_id", "environment", "customer_id", "created_at", "id");

-- GET /v1/payroll/margin-queries?customer_id= (supersedes the index without the keyset)
DROP INDEX "margin_queries_tenant_id_environment_customer_id_idx";
CREATE INDEX "margin_queries_tenant_env_customer_id_created_at_id_idx" ON "margin_queries"("tenant_id", "environment", "customer_id", "created_at", "id");

-- GET /v1/payroll/margin-reservations?customer_id= (no index on customer_id before)
CREATE INDEX "margin_reservations_tenant_env_customer_id_created_at_id_idx" ON "margin_reservations"("tenant_id", "environment", "customer_id", "created_at", "id");

-- GET /v1/webhook-deliveries?endpoint_id= and the panel delivery log of an endpoint
CREATE INDEX "webhook_deliveries_tenant_env_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("tenant_id", "environment", "endpoint_id", "created_at", "id");
