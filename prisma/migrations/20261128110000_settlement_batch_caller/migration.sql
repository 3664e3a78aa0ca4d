-- A settlement batch is idempotent per caller, as every other idempotent request is (lib/api/route.ts): the
-- credential and its permission set. Keyed by tenant and X-Request-Id alone, another key of the tenant sending the
-- same id replayed this batch results, or took over its lapsed lease and made the rest of its settlements under its
-- own name. Batches made before keep an empty caller: only a retry of theirs from no credential could match, and none
-- does, so a retry of one of them after this migration starts a new batch (its items already done are 409 there).
ALTER TABLE "settlement_batches" ADD COLUMN "caller" TEXT NOT NULL DEFAULT '';
DROP INDEX "settlement_batches_tenant_id_environment_request_id_key";
CREATE UNIQUE INDEX "settlement_batches_tenant_id_environment_caller_request_id_key" ON "settlement_batches"("tenant_id", "environment", "caller", "request_id");
