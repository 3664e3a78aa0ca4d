-- The installments list pages by (due_date, id): the index carries id too, so a cursor inside a day on which
-- many installments fall due seeks instead of filtering that day's rows.
DROP INDEX "installments_tenant_id_environment_due_date_idx";
CREATE INDEX "installments_tenant_id_environment_due_date_id_idx" ON "installments"("tenant_id", "environment", "due_date", "id");
