import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { endPanelSession, panelSessionEnded, purgeEndedPanelSessions } from "@/lib/panel/ended-sessions";

// Signed-out panel sessions (lib/panel/ended-sessions.ts): recorded once however often signed out, refused while their
// lifetime lasts, forgotten by the worker's purge once it has passed (e2e/navigation.spec.ts signs out in Chromium).

describe("ended panel sessions", () => {
  it("are recorded once, known as ended, and purged only once they would have expired anyway", async () => {
    const [live, past] = [randomBytes(18).toString("base64url"), randomBytes(18).toString("base64url")];
    expect(await panelSessionEnded(live)).toBe(false);
    await endPanelSession(live, new Date(Date.now() + 3_600_000));
    await endPanelSession(live, new Date(Date.now() + 7_200_000)); // signed out twice (two tabs): one row, the first end
    await endPanelSession(past, new Date(Date.now() - 1000));
    expect([await panelSessionEnded(live), await panelSessionEnded(past)]).toEqual([true, true]);
    expect(await db().endedPanelSession.count({ where: { sessionId: live } })).toBe(1);

    // Two tabs at the same moment: both succeed, one row.
    const both = randomBytes(18).toString("base64url");
    await Promise.all(Array.from({ length: 8 }, () => endPanelSession(both, new Date(Date.now() + 3_600_000))));
    expect(await db().endedPanelSession.count({ where: { sessionId: both } })).toBe(1);

    while ((await purgeEndedPanelSessions(1000)) > 0); // other files' rows may be due too
    expect([await panelSessionEnded(live), await panelSessionEnded(past)]).toEqual([true, false]);
  });
});
