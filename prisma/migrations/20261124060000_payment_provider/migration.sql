-- A provider's event id is unique for that provider, not across providers: two providers may both send event "1".
-- Payments now record the provider that notified them, and the uniqueness is (tenant, environment, provider, event id).
ALTER TABLE "payments" ADD COLUMN "provider" TEXT;

-- Earlier notified payments: the provider is in their audit row's actor ("provider:<name>").
UPDATE "payments" p
   SET "provider" = substring(a."actor_label" from 10)
  FROM "audit_logs" a
 WHERE p."provider_event_id" IS NOT NULL
   AND a."tenant_id" = p."tenant_id"
   AND a."actor_label" LIKE 'provider:%'
   AND (a."metadata"->>'payment_id' = p."id" OR (a."target_type" = 'payment' AND a."target_id" = p."id"));

DROP INDEX "payments_tenant_id_environment_provider_event_id_key";
CREATE UNIQUE INDEX "payments_tenant_id_environment_provider_provider_event_id_key" ON "payments"("tenant_id", "environment", "provider", "provider_event_id");
