-- CreateTable
CREATE TABLE "settlement_batches" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "request_id" TEXT,
    "request_hash" TEXT NOT NULL,
    "item_count" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "lease_token" TEXT,
    "lease_expires_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "settlement_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settlement_batch_items" (
    "batch_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "contract_id" TEXT,
    "status" TEXT NOT NULL,
    "settlement_id" TEXT,
    "error" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "settlement_batch_items_pkey" PRIMARY KEY ("batch_id","index")
);

-- CreateIndex
CREATE INDEX "settlement_batches_tenant_id_environment_created_at_id_idx" ON "settlement_batches"("tenant_id", "environment", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "settlement_batches_tenant_id_environment_request_id_key" ON "settlement_batches"("tenant_id", "environment", "request_id");

