import { isDatabaseUnavailable, reportDatabaseDown, reportDatabaseUp } from "@/lib/db/availability";
import { log } from "@/lib/log";

// The loop of a background worker (webhook deliveries, e-mails): run a round; when it found nothing to do, wait
// `idleMs`; when it failed, back off 1, 2, 4 … 10 s. A database outage is logged once (and its end once, both
// shared with the API's own reports), other failures with their stack. A round cut short by the stop itself is
// not an error: what it had claimed is taken again by the next worker once its lease lapses.

export type PollLoop = {
  /** The worker's name in the log ("webhook worker"). */
  name: string;
  /** What waits while the database is away ("webhook deliveries wait"). */
  waiting: string;
  idleMs: number;
  /** One round; true when it did something (then the next round starts at once). */
  round: () => Promise<boolean>;
};

export async function runPollLoop(signal: AbortSignal, loop: PollLoop): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    let busy = false;
    try {
      busy = await loop.round();
      failures = 0;
      reportDatabaseUp();
    } catch (err) {
      if (signal.aborted) {
        log().info({ err: (err as Error)?.message }, `${loop.name} stopping; the round in hand did not finish (its claims lapse and are attempted again)`);
        break;
      }
      failures += 1;
      if (isDatabaseUnavailable(err)) reportDatabaseDown(err, loop.waiting);
      else log().error({ err }, `${loop.name} round failed; retrying`);
      await sleep(Math.max(loop.idleMs, Math.min(10_000, 1000 * 2 ** (failures - 1))), signal);
      continue;
    }
    if (!busy) await sleep(loop.idleMs, signal);
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
