import { runPollLoop } from "@/lib/jobs/poll-loop";
import { runEndorsementRecoveries } from "./endorsement-recovery";
import { runEndorsementTerminations } from "./endorsement-termination";

/**
 * The endorsement worker (inside `npm run worker`) until `signal` aborts: recovers averbação calls whose request died
 * (./endorsement-recovery.ts) and ends the averbações of contracts that closed (./endorsement-termination.ts);
 * straight on while some are due, else every 5 s.
 */
export async function runEndorsementWorker(signal: AbortSignal, options: { idleMs?: number } = {}): Promise<void> {
  await runPollLoop(signal, {
    name: "endorsement worker",
    waiting: "endorsement recoveries and terminations wait",
    idleMs: options.idleMs ?? 5000,
    // Recoveries first: one that finds its proposal closed leaves an averbação `terminating` for the same round.
    round: async () => {
      const recovered = await runEndorsementRecoveries();
      const ended = await runEndorsementTerminations();
      return recovered.attempted + ended.attempted > 0;
    },
  });
}
