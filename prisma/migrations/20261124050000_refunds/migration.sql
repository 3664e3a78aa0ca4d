-- Refunds: money paid back to the borrower from a contract's credit (an overpayment, a boleto paid twice, money
-- received after the contract closed), sent outside the platform and recorded with POST /v1/refunds.
CREATE TABLE "refunds" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "contract_id" TEXT NOT NULL,
    "assignment_id" TEXT,
    "amount" BIGINT NOT NULL,
    "method" TEXT NOT NULL,
    "reference" TEXT,
    "credit_after" BIGINT NOT NULL,
    "refunded_on" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "refunds_amount_positive" CHECK ("amount" > 0),
    CONSTRAINT "refunds_credit_after_not_negative" CHECK ("credit_after" >= 0)
);
CREATE INDEX "refunds_tenant_id_environment_created_at_id_idx" ON "refunds"("tenant_id", "environment", "created_at", "id");
CREATE INDEX "refunds_tenant_id_environment_contract_id_idx" ON "refunds"("tenant_id", "environment", "contract_id");
