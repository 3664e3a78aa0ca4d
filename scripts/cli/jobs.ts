import { expireReservations } from "@/lib/payroll/reservations";
import { expireProposals } from "@/lib/proposals/expire-proposals";
import { output, parse, runCli, UsageError } from "./common";

const USAGE = `Usage:
  npm run jobs -- expire-proposals [--json]
  npm run jobs -- expire-reservations [--json]

Scheduled work (run it from cron or the platform's scheduler; each job is idempotent):
  expire-proposals     closes open proposals past their expires_at as "expired" (audit + outbox per proposal)
  expire-reservations  marks payroll margin reservations past their expires_at as "expired" (audit + outbox each)`;

await runCli(USAGE, async (argv) => {
  const [command, ...rest] = argv;
  const { values } = parse(rest, {});
  if (command === "expire-proposals") {
    const result = await expireProposals();
    output(values.json, result, `${result.expired} proposal(s) expired.`);
  } else if (command === "expire-reservations") {
    const result = await expireReservations();
    output(values.json, result, `${result.expired} reservation(s) expired.`);
  } else {
    throw new UsageError(`unknown job "${command}"`);
  }
});
