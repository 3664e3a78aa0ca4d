-- Risk assessments (1.1.0) and the payroll-loan authority's margin queries, reservations and endorsements (1.3.0/1.4.0).

-- CreateTable
CREATE TABLE "risk_assessments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "proposal_id" TEXT,
    "scorecard_version" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "band" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "reasons" JSONB NOT NULL,
    "inputs" JSONB NOT NULL,
    "max_affordable_installment" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_assessments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "margin_queries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "source_kind" TEXT NOT NULL,
    "source" JSONB NOT NULL,
    "authority" TEXT NOT NULL,
    "authority_query_id" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "available_loan_margin" BIGINT NOT NULL,
    "valid_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "margin_queries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "margin_reservations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "margin_query_id" TEXT NOT NULL,
    "proposal_id" TEXT,
    "kind" TEXT NOT NULL,
    "installment_amount" BIGINT NOT NULL,
    "term" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "authority_reservation_id" TEXT,
    "refusal" JSONB,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "margin_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endorsements" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "proposal_id" TEXT NOT NULL,
    "reservation_id" TEXT NOT NULL,
    "contract_number" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "authority_endorsement_id" TEXT,
    "refusal" JSONB,
    "endorsed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "endorsements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "risk_assessments_tenant_id_environment_created_at_id_idx" ON "risk_assessments"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "risk_assessments_tenant_id_environment_proposal_id_idx" ON "risk_assessments"("tenant_id", "environment", "proposal_id");

-- CreateIndex
CREATE INDEX "margin_queries_tenant_id_environment_created_at_id_idx" ON "margin_queries"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "margin_queries_tenant_id_environment_customer_id_idx" ON "margin_queries"("tenant_id", "environment", "customer_id");

-- CreateIndex
CREATE INDEX "margin_reservations_tenant_id_environment_created_at_id_idx" ON "margin_reservations"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "margin_reservations_tenant_id_environment_margin_query_id_idx" ON "margin_reservations"("tenant_id", "environment", "margin_query_id");

-- CreateIndex
CREATE INDEX "margin_reservations_tenant_id_environment_proposal_id_idx" ON "margin_reservations"("tenant_id", "environment", "proposal_id");

-- CreateIndex
CREATE INDEX "margin_reservations_status_expires_at_idx" ON "margin_reservations"("status", "expires_at");

-- CreateIndex
CREATE INDEX "endorsements_tenant_id_environment_created_at_id_idx" ON "endorsements"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "endorsements_tenant_id_environment_proposal_id_idx" ON "endorsements"("tenant_id", "environment", "proposal_id");


-- AlterTable
ALTER TABLE "proposals" ADD COLUMN     "margin_query_id" TEXT,
ADD COLUMN     "risk_assessment_id" TEXT;

