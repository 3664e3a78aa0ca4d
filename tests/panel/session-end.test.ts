import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { panelSessionEnded } from "@/lib/panel/ended-sessions";

// POST /api/panel/session/end, the sign-out button's first step: the session is recorded as ended on the server before
// the browser clears its cookie (a failure there — 503 — leaves both as they were: e2e/navigation.spec.ts shows the
// button saying so). From a page of any tenant; refused cross-site; nobody signed in is a 401.

const session = vi.hoisted(() => ({ id: null as string | null, endsAt: new Date(), signedIn: true }));
vi.mock("@/lib/panel/session", () => ({
  currentPanelUser: async () =>
    session.signedIn ? { userId: "usr_x", email: "owner@panel.test", tenantId: "ten_active", role: "viewer", memberships: [], session: { id: session.id, endsAt: session.endsAt } } : null,
}));

const end = async (headers: Record<string, string> = {}) => {
  const { POST } = await import("@/app/api/panel/session/end/route");
  const request = new Request("http://localhost:3000/api/panel/session/end", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-panel-tenant": "ten_shown_before_a_switch", ...headers },
    body: "{}",
  });
  return POST(request, { params: Promise.resolve({}) });
};

describe("ending the panel session from the sign-out button", () => {
  it("records this session as ended until it would have expired, whatever tenant the page shows and whatever the role", async () => {
    session.id = randomBytes(18).toString("base64url");
    session.endsAt = new Date(Date.now() + 3_600_000);
    const res = await end();
    expect([res.status, await res.json()]).toEqual([200, { ended: true }]);
    expect(await panelSessionEnded(session.id)).toBe(true);
    expect((await db().endedPanelSession.findUniqueOrThrow({ where: { sessionId: session.id } })).endsAt).toEqual(session.endsAt);
    expect((await end()).status).toBe(200); // twice (two tabs): still one row
    expect(await db().endedPanelSession.count({ where: { sessionId: session.id } })).toBe(1);
  });

  it("a session from before ids were given: nothing to record, answered all the same (it ends with its lifetime)", async () => {
    session.id = null;
    const before = await db().endedPanelSession.count();
    expect((await end()).status).toBe(200);
    expect(await db().endedPanelSession.count()).toBe(before);
  });

  it("refuses a cross-site request and one with nobody signed in, recording nothing", async () => {
    session.id = randomBytes(18).toString("base64url");
    const foreign = await end({ origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(foreign.status).toBe(403);
    expect(await panelSessionEnded(session.id)).toBe(false);
    session.signedIn = false;
    expect((await end()).status).toBe(401);
    session.signedIn = true;
  });
});
