-- The panel reads the history of one object, and both reads scanned every row of the tenant (400 ms at a million
-- events, growing with the history, which is never deleted):
-- 1. the contract timeline (lib/panel/contract-view.ts): the events whose object is the contract (contract events)
--    and those whose object names it (installments, charges, payments, settlements carry contract_id), newest first.
CREATE INDEX "outbox_events_contract_object" ON "outbox_events"("tenant_id", "environment", (("payload"->>'id')), "created_at") WHERE "type" LIKE 'contract.%';
CREATE INDEX "outbox_events_by_contract" ON "outbox_events"("tenant_id", "environment", (("payload"->>'contract_id')), "created_at") WHERE ("payload"->>'contract_id') IS NOT NULL;
-- 2. the audit trail of one object (the proposal review history, the audit log filtered by target).
CREATE INDEX "audit_logs_tenant_id_target_id_created_at_idx" ON "audit_logs"("tenant_id", "target_id", "created_at");
