import { runCollectionJob } from "@/lib/collection/collection-job";
import { expireReservations } from "@/lib/payroll/reservations";
import { expireProposals } from "@/lib/proposals/expire-proposals";
import { output, parse, runCli, UsageError } from "./common";

const USAGE = `Usage:
  npm run jobs -- expire-proposals [--json]
  npm run jobs -- expire-reservations [--json]
  npm run jobs -- collection [--json]

Scheduled work (run it from cron or the platform's scheduler; each job is idempotent):
  expire-proposals     closes open proposals past their expires_at as "expired" (audit + outbox per proposal)
  expire-reservations  marks payroll margin reservations past their expires_at as "expired" (audit + outbox each)
  collection           cancels pending settlements past their date (with their charges), expires Pix cob charges
                       past their expiry, marks charges past their due date overdue, and writes
                       installment.overdue once for each installment unpaid after its due date`;

await runCli(USAGE, async (argv) => {
  const [command, ...rest] = argv;
  const { values } = parse(rest, {});
  if (command === "expire-proposals") {
    const result = await expireProposals();
    output(values.json, result, `${result.expired} proposal(s) expired.`);
  } else if (command === "expire-reservations") {
    const result = await expireReservations();
    output(values.json, result, `${result.expired} reservation(s) expired.`);
  } else if (command === "collection") {
    const result = await runCollectionJob();
    output(
      values.json,
      result,
      `${result.lapsedSettlements} settlement(s) lapsed, ${result.creditsApplied} contract credit(s) applied, ${result.expired} charge(s) expired, ${result.overdueCharges} charge(s) and ${result.overdueInstallments} installment(s) overdue.`,
    );
  } else {
    throw new UsageError(`unknown job "${command}"`);
  }
});
