-- A resent or recovered delivery gets the whole retry schedule again: its attempts are counted from retry_base (the
-- attempts it had made when it was resent) for the schedule, while attempt numbers stay unique per delivery.
ALTER TABLE "webhook_deliveries" ADD COLUMN "retry_base" INTEGER NOT NULL DEFAULT 0;
