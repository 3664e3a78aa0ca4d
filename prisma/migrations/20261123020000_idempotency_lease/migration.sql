-- Idempotency records get a lease: an in-flight record whose lease has passed may be taken over by a retry
-- (its first request died before committing anything). Existing in-flight rows get no lease, i.e. are
-- free to take over at once.
ALTER TABLE "idempotency_records" ADD COLUMN "lease_token" TEXT,
ADD COLUMN "locked_until" TIMESTAMPTZ(3);
