-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "assignment_id" TEXT;

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "assignment_id" TEXT;

-- CreateTable
CREATE TABLE "assignments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "assignee_name" TEXT NOT NULL,
    "assignee_document" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "settlement_date" DATE NOT NULL,
    "pricing_method" TEXT NOT NULL,
    "discount_rate" TEXT,
    "face_value" BIGINT NOT NULL,
    "price" BIGINT NOT NULL,
    "contract_count" INTEGER NOT NULL,
    "cancel_reason" TEXT,
    "settled_at" TIMESTAMPTZ(3),
    "canceled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assignments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assignment_contracts" (
    "assignment_id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "face_value" BIGINT NOT NULL,
    "price" BIGINT NOT NULL,
    "live" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "assignment_contracts_pkey" PRIMARY KEY ("assignment_id","contract_id")
);

-- CreateIndex
CREATE INDEX "assignments_tenant_id_environment_created_at_id_idx" ON "assignments"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "assignment_contracts_tenant_id_environment_contract_id_idx" ON "assignment_contracts"("tenant_id", "environment", "contract_id");


-- A contract is in at most one live (pending or settled) assignment.
CREATE UNIQUE INDEX "assignment_contracts_one_live_per_contract" ON "assignment_contracts"("contract_id") WHERE "live";
