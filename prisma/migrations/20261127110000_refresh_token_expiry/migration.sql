-- The retention purger deletes the refresh tokens of grants that ended (lib/auth/token-retention.ts): found by their end.
CREATE INDEX "refresh_tokens_expires_at_idx" ON "refresh_tokens"("expires_at");
