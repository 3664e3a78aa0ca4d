-- CreateTable
CREATE TABLE "collection_accounts" (
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "bank_code" TEXT NOT NULL,
    "agreement" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "beneficiary_name" TEXT NOT NULL,
    "beneficiary_document" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "pix_location_base" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "collection_accounts_pkey" PRIMARY KEY ("tenant_id","environment")
);

-- AlterTable
ALTER TABLE "charges" ADD COLUMN "beneficiary" JSONB;

-- CreateIndex
CREATE UNIQUE INDEX "collection_accounts_environment_bank_code_agreement_key" ON "collection_accounts"("environment", "bank_code", "agreement");


-- The shared sandbox account's boleto sequence spans tenants, so that its nosso número (agreement 1234567 +
-- sequence) names one charge. It starts above any per-tenant counter used before it existed.
CREATE SEQUENCE "boleto_sandbox_shared_seq" START WITH 1000000001 MAXVALUE 9999999999;
