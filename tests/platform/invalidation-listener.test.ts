import { afterAll, describe, expect, it } from "vitest";
import { heartbeatForTests, isListening, listenerEpoch, onInvalidation, queryListenerForTests, startListener, stopListener } from "@/lib/db/notifications";
import { captureLogsForTests } from "@/lib/log";

afterAll(() => stopListener());

// Every successful LISTEN is a new epoch and invalidates everything ("*"): a cache may not keep what a lookup read
// before it (lib/auth/credential-cache.ts; the caching rule itself is tested in credential-cache.test.ts).
describe("the credential invalidation listener", () => {
  it("reports no epoch until it listens, then a new one, announced to every handler as '*'", async () => {
    const heard: string[] = [];
    onInvalidation((key) => heard.push(key));
    expect([isListening(), listenerEpoch()]).toEqual([false, null]);
    await startListener();
    expect(isListening()).toBe(true);
    expect(listenerEpoch()).toEqual(expect.any(Number));
    expect(heard).toEqual(["*"]);
  });

  it("a connection that answers but hears no notifications (a pooler in transaction mode) is not trusted: caches off, logged once, back when it hears", async () => {
    await startListener();
    const before = listenerEpoch()!;
    const heard: string[] = [];
    onInvalidation((key) => heard.push(key));
    const lines: string[] = [];
    captureLogsForTests((line) => lines.push(line), "error");
    // Deaf as behind PgBouncer in transaction mode: the connection still answers SELECT 1, which was all the heartbeat asked.
    await queryListenerForTests("UNLISTEN credential_invalidation");
    await heartbeatForTests();
    expect([isListening(), listenerEpoch()]).toEqual([false, null]);
    expect(heard).toEqual(["*"]);
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual([expect.stringContaining("hears no notifications although its connection answers")]);
    // It reconnects with backoff (0.5 s at first) on a new connection, which hears itself before it is trusted.
    for (let i = 0; i < 100 && !isListening(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(listenerEpoch()).toBeGreaterThan(before);
    expect(heard).toEqual(["*", "*"]);
  });
});
