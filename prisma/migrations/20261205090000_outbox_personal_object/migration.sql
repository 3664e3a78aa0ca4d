-- Erasing a customer (DELETE /v1/customers/{id}, lib/customers/erase-customer.ts) finds the events whose data is the
-- customer or one of its simulations, risk assessments or margin queries by their id, among every event of the tenant
-- (never deleted): without this index each erasure read them all. Partial: only the event types that carry personal
-- data (PERSONAL_EVENT_TYPES, which the query names in the same words).
CREATE INDEX "outbox_events_personal_object" ON "outbox_events"("tenant_id", "environment", (("payload"->>'id')))
  WHERE "type" IN ('customer.created', 'customer.updated', 'simulation.created', 'risk_assessment.created', 'margin_query.completed');
