-- Panel sessions ended by signing out before their lifetime ran out: a copy of the session cookie no longer works.
-- Kept until the session would have ended anyway (ends_at), then purged by the worker.
CREATE TABLE "ended_panel_sessions" (
    "session_id" TEXT NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ended_panel_sessions_pkey" PRIMARY KEY ("session_id")
);

CREATE INDEX "ended_panel_sessions_ends_at_idx" ON "ended_panel_sessions"("ends_at");
