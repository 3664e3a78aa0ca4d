import { db } from "@/lib/db/client";

// Signing out of the panel ends the session for good, not only in this browser: next-auth's sessions are JWTs in a
// cookie, valid until they expire (at most 12 h from the sign-in, ./auth-options.ts), and signing out only deleted the
// cookie — a copy of it (another tab's export, a stolen cookie) kept working. Each session carries an id; signing out
// records it here until the session would have ended anyway, and ./session.ts refuses a recorded one.

/** Records a session as ended (idempotent), until `endsAt`: its sign-in plus the longest a session lasts. */
export async function endPanelSession(sessionId: string, endsAt: Date): Promise<void> {
  // INSERT … ON CONFLICT DO NOTHING: two tabs signing out at once both succeed (an upsert may run as read-then-insert,
  // and the second insert would fail on the key).
  await db().endedPanelSession.createMany({ data: [{ sessionId, endsAt }], skipDuplicates: true });
}

export async function panelSessionEnded(sessionId: string): Promise<boolean> {
  return (await db().endedPanelSession.findUnique({ where: { sessionId }, select: { sessionId: true } })) !== null;
}

/** Forgets up to `limit` ended sessions that would have expired by now anyway; returns how many went. */
export async function purgeEndedPanelSessions(limit = 1000): Promise<number> {
  return db().$executeRaw`
    DELETE FROM ended_panel_sessions WHERE session_id IN (
      SELECT session_id FROM ended_panel_sessions WHERE ends_at <= now() LIMIT ${limit})`;
}
