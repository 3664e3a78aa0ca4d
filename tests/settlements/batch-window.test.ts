import { describe, expect, it } from "vitest";
import { inWindow } from "@/lib/settlements/batch";

// The batch's item runner (lib/settlements/batch.ts inWindow): request order, a bounded number at once, never two
// items of one contract together, and a failure that starts nothing more.

type Item = { id: number; key: string | null; ms: number; fail?: boolean };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function trace(items: Item[], limit: number) {
  const log: string[] = [];
  let running = 0;
  let most = 0;
  const active = new Set<string>();
  let overlap = false;
  const outcome = await inWindow(items, limit, (i) => i.key, async (i) => {
    running += 1;
    most = Math.max(most, running);
    if (i.key !== null && active.has(i.key)) overlap = true;
    if (i.key !== null) active.add(i.key);
    log.push(`start ${i.id}`);
    await sleep(i.ms);
    if (i.key !== null) active.delete(i.key);
    running -= 1;
    log.push(`end ${i.id}`);
    if (i.fail) throw new Error(`item ${i.id} failed`);
  }).then(
    () => "ok",
    (err: Error) => err.message,
  );
  return { log, most, overlap, outcome, started: log.filter((l) => l.startsWith("start")).map((l) => Number(l.slice(6))) };
}

describe("inWindow", () => {
  it("starts items in order, at most `limit` at once", async () => {
    const items = Array.from({ length: 10 }, (_, id) => ({ id, key: `c${id}`, ms: (id * 7) % 5 }));
    const run = await trace(items, 3);
    expect(run.outcome).toBe("ok");
    expect(run.started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(run.most).toBe(3);
    expect(run.log.filter((l) => l.startsWith("end"))).toHaveLength(10);
  });

  it("runs one at a time with a limit of 1", async () => {
    const run = await trace([{ id: 0, key: "a", ms: 3 }, { id: 1, key: "b", ms: 0 }, { id: 2, key: null, ms: 1 }], 1);
    expect(run.log).toEqual(["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]);
  });

  it("never runs two items of one key together: the later starts after the earlier ended, and items behind it wait their turn", async () => {
    const run = await trace(
      [
        { id: 0, key: "a", ms: 20 },
        { id: 1, key: "a", ms: 0 },
        { id: 2, key: "b", ms: 0 },
        { id: 3, key: null, ms: 0 },
        { id: 4, key: null, ms: 0 },
      ],
      3,
    );
    expect(run.overlap).toBe(false);
    expect(run.started).toEqual([0, 1, 2, 3, 4]);
    expect(run.log.indexOf("start 1")).toBeGreaterThan(run.log.indexOf("end 0"));
    // Items keep request order when they start: 2 did not overtake 1 while 1 waited for 0.
    expect(run.log.indexOf("start 2")).toBeGreaterThan(run.log.indexOf("start 1"));
  });

  it("after a failure starts nothing more, lets the started items finish, then throws the first failure", async () => {
    const run = await trace(
      [
        { id: 0, key: "a", ms: 0 },
        { id: 1, key: "b", ms: 2, fail: true },
        { id: 2, key: "c", ms: 15 },
        { id: 3, key: "d", ms: 5, fail: true },
        { id: 4, key: "e", ms: 0 },
        { id: 5, key: "f", ms: 0 },
      ],
      3,
    );
    expect(run.outcome).toBe("item 1 failed");
    // 0, 1, 2 start at once; 3 takes 0's place; 1 fails while 2 and 3 run: nothing after 3 starts, and both end.
    expect(run.started).toEqual([0, 1, 2, 3]);
    expect(run.log.filter((l) => l.startsWith("end")).sort()).toEqual(["end 0", "end 1", "end 2", "end 3"]);
  });
});
