import { getEnv } from "@/lib/env";
import { runPollLoop, sleep } from "@/lib/jobs/poll-loop";
import { attemptOrHandBack, claimDeliveries, dispatchEvents, recordSafely, type Claimed, type Result, type WorkerOptions } from "./worker";

// `npm run worker`'s delivery loop: a pool of up to `concurrency` attempts in flight, refilled as attempts end — not
// rounds that wait for their slowest attempt, where one receiver hanging for its whole timeout held every tenant's
// next attempts behind it. The claim caps each endpoint's attempts in flight (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT), so a
// hanging receiver keeps only its own slots. Finished attempts are recorded in small batches. Each attempt is the
// same claim → send → record as a round's (./worker.ts): leases, fencing and crash recovery are unchanged.

/** Claim again once this share of the slots is free (or nothing is in flight): fewer, larger claims — but never more
 *  than the slots an endpoint at its cap leaves (./worker.ts WorkerOptions.perEndpoint): with the defaults (50 slots,
 *  40 per endpoint) a hanging receiver left 10 free, below a quarter, and the pool claimed nothing more until its
 *  attempts timed out. */
const REFILL_SHARE = 4;
/** After the first attempt of a burst ends, wait this long for others before recording them together. */
const GATHER_MS = 5;

export class DeliveryPool {
  private readonly inFlight = new Set<Promise<void>>();
  private finished: Result[] = [];
  private progress: (() => void) | null = null;
  private readonly concurrency: number;
  private readonly refillAt: number;

  constructor(private readonly options: WorkerOptions = {}) {
    this.concurrency = options.concurrency ?? getEnv().WEBHOOK_WORKER_CONCURRENCY;
    const perEndpoint = options.perEndpoint ?? getEnv().WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT;
    const share = Math.ceil(this.concurrency / REFILL_SHARE);
    // A cap at or above the pool's size leaves no slot free while one endpoint hangs: refill by the share then.
    this.refillAt = perEndpoint >= this.concurrency ? share : Math.max(1, Math.min(share, this.concurrency - perEndpoint));
  }

  get busy(): number {
    return this.inFlight.size;
  }

  /** When enough slots are free: dispatches events and claims what the free slots allow, starting those attempts.
   *  Always records what finished. True when it did something. */
  async turn(): Promise<boolean> {
    const free = this.concurrency - this.inFlight.size;
    const refill = free > 0 && (this.inFlight.size === 0 || free >= this.refillAt);
    // Dispatching makes deliveries to claim: not while the slots are full (other workers, or the next refill, do it).
    const dispatched = refill ? await dispatchEvents() : 0;
    const claimed = refill ? await claimDeliveries(free, this.options.perEndpoint) : [];
    for (const c of claimed) this.start(c);
    const recorded = await this.record();
    return dispatched > 0 || claimed.length > 0 || recorded > 0;
  }

  /** Waits until an attempt in flight ends (then briefly for others), at most `ms`. */
  async waitForProgress(ms: number, signal: AbortSignal): Promise<void> {
    if (this.finished.length === 0) {
      await Promise.race([new Promise<void>((resolve) => (this.progress = resolve)), sleep(ms, signal)]);
      this.progress = null;
    }
    if (this.finished.length > 0 && this.inFlight.size > 0) await sleep(GATHER_MS, signal);
  }

  /** Lets every attempt in flight end and records them (a stop finishes what it started). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    await this.record();
  }

  private start(claimed: Claimed): void {
    const now = this.options.now ?? (() => new Date());
    const running: Promise<void> = attemptOrHandBack(claimed, this.options, now()).then((result) => {
      this.inFlight.delete(running);
      this.finished.push(result);
      this.progress?.();
    });
    this.inFlight.add(running);
  }

  private async record(): Promise<number> {
    const batch = this.finished;
    if (batch.length === 0) return 0;
    this.finished = [];
    await recordSafely(batch, (this.options.now ?? (() => new Date()))());
    return batch.length;
  }
}

/** Runs the pool until `signal` aborts, then lets the attempts in flight end and records them. Nothing to do: polls
 *  every `idleMs`; a failed turn backs off (lib/jobs/poll-loop.ts). */
export async function runWorker(signal: AbortSignal, options: WorkerOptions & { idleMs?: number } = {}): Promise<void> {
  const pool = new DeliveryPool(options);
  const idleMs = options.idleMs ?? 250;
  await runPollLoop(signal, {
    name: "webhook worker",
    waiting: "webhook deliveries wait",
    idleMs,
    round: async () => {
      if (await pool.turn()) return true;
      if (pool.busy === 0) return false;
      await pool.waitForProgress(idleMs, signal);
      return true;
    },
  });
  await pool.drain();
}
