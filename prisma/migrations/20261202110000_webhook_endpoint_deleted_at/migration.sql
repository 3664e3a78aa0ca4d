-- Deleting a webhook endpoint marks it (deleted_at) in the request: from then on it is disabled and hidden from every
-- read, claim and fan-out. Its deliveries and their attempts, up to WEBHOOK_RETENTION_DAYS of them, are removed in
-- batches by the retention purger, and then the endpoint row (lib/webhooks/retention.ts). One statement cascading to
-- all of them outlasted the statement timeout for a busy endpoint, which then could never be deleted.
ALTER TABLE "webhook_endpoints" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);

-- The deleted endpoints, few at any time: for the purger, and for the delivery lists that leave their logs out.
CREATE INDEX "webhook_endpoints_deleted" ON "webhook_endpoints"("tenant_id", "environment") WHERE "deleted_at" IS NOT NULL;
