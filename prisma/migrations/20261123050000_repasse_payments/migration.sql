-- Payments on installments (the repasse simulator, release 1.4.0), the repasse ledger that makes a month run once,
-- and each contract's paid and outstanding amounts.

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "amount_paid" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "outstanding_balance" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "contract_id" TEXT NOT NULL,
    "installment_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "source" TEXT NOT NULL,
    "competence" TEXT,
    "paid_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "repasse_entries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "contract_id" TEXT NOT NULL,
    "competence" TEXT NOT NULL,
    "scenario" TEXT NOT NULL,
    "amount_due" BIGINT NOT NULL,
    "amount_paid" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "repasse_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payments_tenant_id_environment_created_at_id_idx" ON "payments"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "payments_tenant_id_environment_contract_id_idx" ON "payments"("tenant_id", "environment", "contract_id");

-- CreateIndex
CREATE UNIQUE INDEX "repasse_entries_tenant_id_environment_contract_id_competenc_key" ON "repasse_entries"("tenant_id", "environment", "contract_id", "competence");


-- Existing contracts: their balances from their installments.
UPDATE "contracts" c SET
  "amount_paid" = COALESCE((SELECT SUM(i."paid_amount") FROM "installments" i WHERE i."contract_id" = c."id"), 0),
  "outstanding_balance" = COALESCE((SELECT SUM(i."amount" - i."paid_amount") FROM "installments" i WHERE i."contract_id" = c."id" AND i."status" <> 'canceled'), 0);
