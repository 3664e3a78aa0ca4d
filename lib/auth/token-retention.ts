import { rootDb } from "@/lib/db/client";
import { ACCESS_TOKEN_TTL_SECONDS } from "./access-tokens";

// Refresh tokens are kept while their grant can still be used — every rotation adds a row, and a spent one must stay
// to be recognised if presented again (reuse revokes the grant) — but not for ever: a grant ends 30 days after its
// client_credentials (lib/auth/tokens.ts; its successors inherit that end), and a day after it, when the last access
// token it minted has long expired too, its rows tell nothing more. A revoked grant's marker goes once its tokens have
// gone (while they exist it is what keeps the grant revoked).

const AFTER_END_SECONDS = Math.max(24 * 3600, ACCESS_TOKEN_TTL_SECONDS);

/** Deletes up to `limit` refresh tokens of grants that ended more than a day ago, then the revocation markers of
 *  grants with no token left; returns how many rows went. */
export async function purgeEndedGrants(limit = 1000): Promise<number> {
  const tokens = await rootDb().$executeRaw`
    DELETE FROM refresh_tokens WHERE id IN (
      SELECT id FROM refresh_tokens WHERE expires_at < now() - make_interval(secs => ${AFTER_END_SECONDS}) LIMIT ${limit})`;
  const markers = await rootDb().$executeRaw`
    DELETE FROM revoked_token_families WHERE family_id IN (
      SELECT r.family_id FROM revoked_token_families r
       WHERE r.revoked_at < now() - make_interval(secs => ${AFTER_END_SECONDS})
         AND NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.family_id = r.family_id)
       LIMIT ${limit})`;
  return tokens + markers;
}
