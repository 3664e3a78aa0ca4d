-- CreateTable
CREATE TABLE "customers" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "kind" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "birth_date" DATE,
    "foundation_date" DATE,
    "email" TEXT,
    "phone" TEXT,
    "address" JSONB,
    "monthly_income" BIGINT,
    "payroll" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "customer_id" TEXT,
    "product" TEXT NOT NULL,
    "amortization" TEXT NOT NULL,
    "monthly_rate" TEXT NOT NULL,
    "term" INTEGER NOT NULL,
    "principal" BIGINT NOT NULL,
    "released_amount" BIGINT NOT NULL,
    "disbursement_date" DATE NOT NULL,
    "first_due_date" DATE NOT NULL,
    "input" JSONB NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "proposals" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "customer_id" TEXT NOT NULL,
    "simulation_id" TEXT,
    "status" TEXT NOT NULL,
    "terms" JSONB NOT NULL,
    "reason" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "proposals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contracts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "number" TEXT NOT NULL,
    "proposal_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "principal" BIGINT NOT NULL,
    "monthly_rate" TEXT NOT NULL,
    "term" INTEGER NOT NULL,
    "disbursement_date" DATE NOT NULL,
    "terms" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contracts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "installments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "contract_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "due_date" DATE NOT NULL,
    "principal" BIGINT NOT NULL,
    "interest" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,
    "paid_amount" BIGINT NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "installments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sequences" (
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL,

    CONSTRAINT "sequences_pkey" PRIMARY KEY ("tenant_id","environment","name")
);

-- CreateIndex
CREATE INDEX "customers_tenant_id_environment_created_at_id_idx" ON "customers"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "customers_tenant_id_environment_document_key" ON "customers"("tenant_id", "environment", "document");

-- CreateIndex
CREATE INDEX "simulations_tenant_id_environment_created_at_id_idx" ON "simulations"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "proposals_tenant_id_environment_created_at_id_idx" ON "proposals"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "proposals_tenant_id_environment_customer_id_idx" ON "proposals"("tenant_id", "environment", "customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "contracts_proposal_id_key" ON "contracts"("proposal_id");

-- CreateIndex
CREATE INDEX "contracts_tenant_id_environment_created_at_id_idx" ON "contracts"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "contracts_tenant_id_environment_number_key" ON "contracts"("tenant_id", "environment", "number");

-- CreateIndex
CREATE INDEX "installments_tenant_id_environment_created_at_id_idx" ON "installments"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "installments_tenant_id_environment_due_date_idx" ON "installments"("tenant_id", "environment", "due_date");

-- CreateIndex
CREATE UNIQUE INDEX "installments_contract_id_number_key" ON "installments"("contract_id", "number");

-- AddForeignKey
ALTER TABLE "installments" ADD CONSTRAINT "installments_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

