-- AlterTable
ALTER TABLE "charges" ADD COLUMN     "settlement_id" TEXT;

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "settlement_id" TEXT;

-- CreateTable
CREATE TABLE "settlements" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "contract_id" TEXT NOT NULL,
    "batch_id" TEXT,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "settlement_date" DATE NOT NULL,
    "amount" BIGINT NOT NULL,
    "reduce" TEXT,
    "payment_method" TEXT NOT NULL,
    "quote" JSONB NOT NULL,
    "reschedule" JSONB,
    "charge_id" TEXT,
    "payment_id" TEXT,
    "cancel_reason" TEXT,
    "completed_at" TIMESTAMPTZ(3),
    "canceled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "settlements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "settlements_tenant_id_environment_created_at_id_idx" ON "settlements"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "settlements_tenant_id_environment_contract_id_idx" ON "settlements"("tenant_id", "environment", "contract_id");

-- CreateIndex
CREATE INDEX "settlements_status_settlement_date_idx" ON "settlements"("status", "settlement_date");


-- At most one pending settlement per contract: two racing requests for the same contract cannot both hold one.
CREATE UNIQUE INDEX "settlements_one_pending_per_contract" ON "settlements"("contract_id") WHERE "status" = 'pending';
