import { afterAll, describe, expect, it } from "vitest";
import { isListening, listenerEpoch, onInvalidation, startListener, stopListener } from "@/lib/db/notifications";

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
});
