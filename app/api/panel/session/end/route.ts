import { endPanelSession } from "@/lib/panel/ended-sessions";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/session/end — the sign-out button's first step: records this session as ended on the server (a copy
// of its cookie is refused from now on, lib/panel/ended-sessions.ts), then the browser clears its cookie through
// next-auth. A failure (the database down: 503) leaves the session as it was and the button says so, instead of a
// cookie cleared here while the session lives on elsewhere. From any page, whichever tenant it shows.
export const POST = panelRoute({ switchesTenant: true }, async ({ user }) => {
  if (user.session.id) await endPanelSession(user.session.id, user.session.endsAt);
  return { body: { ended: true } };
});
