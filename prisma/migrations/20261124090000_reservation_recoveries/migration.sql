-- Reservation calls whose outcome the payroll authority never told us (a timeout, an unreadable or 5xx answer).
-- Written on their own, outside the request's transaction that rolled back, so the worker can replay the call under
-- the same idempotency key to learn what the authority did and release any margin held for nobody.
-- A key written here is never used again for a new reservation (the next attempt derives the next key).
CREATE TABLE "reservation_recoveries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "base_key" TEXT NOT NULL,
    "authority_key" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "last_error" TEXT,
    "authority_reservation_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "reservation_recoveries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "reservation_recoveries_tenant_id_environment_authority_key_key" ON "reservation_recoveries"("tenant_id", "environment", "authority_key");
CREATE INDEX "reservation_recoveries_tenant_id_environment_base_key_idx" ON "reservation_recoveries"("tenant_id", "environment", "base_key");
CREATE INDEX "reservation_recoveries_status_next_attempt_at_idx" ON "reservation_recoveries"("status", "next_attempt_at");
