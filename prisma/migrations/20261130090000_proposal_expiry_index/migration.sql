-- The proposal-expiry job (lib/proposals/expire-proposals.ts) reads every tenant's open and signed proposals past
-- their expires_at, in (expires_at, id) pages: an index in that order, led by the status it filters on.
CREATE INDEX "proposals_status_expires_at_id_idx" ON "proposals"("status", "expires_at", "id");
