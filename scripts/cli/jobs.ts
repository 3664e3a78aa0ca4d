import { expireProposals } from "@/lib/proposals/expire-proposals";
import { output, parse, runCli, UsageError } from "./common";

const USAGE = `Usage:
  npm run jobs -- expire-proposals [--json]

Scheduled work (run it from cron or the platform's scheduler; each job is idempotent):
  expire-proposals   closes open proposals past their expires_at as "expired" (audit + outbox per proposal)`;

await runCli(USAGE, async (argv) => {
  const [command, ...rest] = argv;
  if (command !== "expire-proposals") throw new UsageError(`unknown job "${command}"`);
  const { values } = parse(rest, {});
  const result = await expireProposals();
  output(values.json, result, `${result.expired} proposal(s) expired.`);
});
