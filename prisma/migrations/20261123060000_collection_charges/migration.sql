-- Collection (release 1.2.0): charges (boleto, Pix), payments with their allocation and the provider's event id,
-- late charges received per installment, and each contract's credit (overpayments).

-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "credit_balance" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "installments" ADD COLUMN     "fine_paid" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "late_interest_paid" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "allocations" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "charge_id" TEXT,
ADD COLUMN     "credit" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "provider_event_id" TEXT,
ALTER COLUMN "installment_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "charges" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "contract_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "installment_ids" TEXT[],
    "due_date" DATE NOT NULL,
    "amount" BIGINT NOT NULL,
    "amount_paid" BIGINT NOT NULL DEFAULT 0,
    "breakdown" JSONB NOT NULL,
    "boleto" JSONB,
    "pix" JSONB,
    "expires_at" TIMESTAMPTZ(3),
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "charges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "charges_tenant_id_environment_created_at_id_idx" ON "charges"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "charges_tenant_id_environment_contract_id_idx" ON "charges"("tenant_id", "environment", "contract_id");

-- CreateIndex
CREATE INDEX "charges_status_expires_at_idx" ON "charges"("status", "expires_at");

-- CreateIndex
CREATE INDEX "payments_tenant_id_environment_charge_id_idx" ON "payments"("tenant_id", "environment", "charge_id");

-- CreateIndex
CREATE UNIQUE INDEX "payments_tenant_id_environment_provider_event_id_key" ON "payments"("tenant_id", "environment", "provider_event_id");


-- Repasse payments made before this migration paid one installment each: record that as their allocation.
UPDATE "payments" SET "allocations" = jsonb_build_array(jsonb_build_object('installment_id', "installment_id", 'total', "amount"))
WHERE "installment_id" IS NOT NULL AND "allocations" = '[]'::jsonb;
