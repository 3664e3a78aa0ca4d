import { purgeExpiredIdempotencyRecords } from "@/lib/api/idempotency";
import { purgeEndedGrants } from "@/lib/auth/token-retention";
import { purgeDeletedEndpoints, purgeFinishedDeliveries } from "@/lib/webhooks/retention";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { runEndorsementRecoveries } from "@/lib/payroll/endorsement-recovery";
import { runEndorsementTerminations } from "@/lib/payroll/endorsement-termination";
import { expireReservations } from "@/lib/payroll/reservations";
import { expireProposals } from "@/lib/proposals/expire-proposals";
import { runReservationRecoveries } from "@/lib/payroll/reservation-recovery";
import { output, parse, runCli, UsageError } from "./common";

const USAGE = `Usage:
  npm run jobs -- expire-proposals [--json]
  npm run jobs -- expire-reservations [--json]
  npm run jobs -- collection [--json]
  npm run jobs -- endorsement-terminations [--json]
  npm run jobs -- endorsement-recoveries [--json]
  npm run jobs -- reservation-recoveries [--json]
  npm run jobs -- purge-idempotency [--json]
  npm run jobs -- purge-webhook-deliveries [--json]
  npm run jobs -- purge-refresh-tokens [--json]

Scheduled work (run it from cron or the platform's scheduler; each job is idempotent):
  expire-proposals     closes open proposals past their expires_at as "expired" (audit + outbox per proposal)
  expire-reservations  marks payroll margin reservations past their expires_at as "expired" (audit + outbox each)
  collection           cancels pending settlements past their date (with their charges), expires Pix cob charges
                       past their expiry, marks charges past their due date overdue, and writes
                       installment.overdue once for each installment unpaid after its due date
  endorsement-terminations  asks the payroll authority to end the averbação of payroll contracts that closed or
                       were withdrawn (the worker does this continuously; failures are retried with backoff)
  endorsement-recoveries  replays averbação calls whose request died before recording the answer (timeout, 5xx,
                       crash) under their idempotency key and records what the authority did, ending averbações of
                       proposals that closed meanwhile (the worker does this continuously)
  reservation-recoveries  replays margin reservation calls the authority never answered (timeout, 5xx) under their
                       idempotency key and releases what they reserved (the worker does this continuously)
  purge-idempotency    deletes idempotency records past their 24 hours (the worker does this every 10 minutes)
  purge-webhook-deliveries  deletes webhook deliveries (and their attempts) finished more than WEBHOOK_RETENTION_DAYS ago, and the logs of deleted endpoints with the endpoints (the worker too)
  purge-refresh-tokens  deletes the refresh tokens of OAuth grants that ended more than a day ago, and the revocation
                       markers of grants with none left (the worker too)`;

await runCli(USAGE, async (argv) => {
  const [command, ...rest] = argv;
  const { values } = parse(rest, {});
  if (command === "expire-proposals") {
    const result = await expireProposals();
    output(values.json, result, `${result.expired} proposal(s) expired.`);
  } else if (command === "expire-reservations") {
    const result = await expireReservations();
    output(values.json, result, `${result.expired} reservation(s) expired${failedText(result.failed)}.`);
    if (result.failed > 0) process.exitCode = 1; // a scheduler sees it: some were left for the next run
  } else if (command === "collection") {
    const result = await runCollectionJob();
    output(
      values.json,
      result,
      `${result.lapsedSettlements} settlement(s) and ${result.lapsedAssignments} assignment(s) lapsed, ${result.creditsApplied} contract credit(s) applied, ${result.expired} charge(s) expired, ${result.overdueCharges} charge(s) and ${result.overdueInstallments} installment(s) overdue${failedText(result.failed)}.`,
    );
    if (result.failed > 0) process.exitCode = 1; // a scheduler sees it: some rows were left for the next run
  } else if (command === "endorsement-terminations") {
    // Until none is due (a failed call is not due again until its backoff has passed).
    const total = { attempted: 0, terminated: 0 };
    for (let round = await runEndorsementTerminations(); round.attempted > 0; round = await runEndorsementTerminations()) {
      total.attempted += round.attempted;
      total.terminated += round.terminated;
    }
    output(values.json, total, `${total.terminated} endorsement(s) terminated at the payroll authority (${total.attempted} attempted).`);
  } else if (command === "endorsement-recoveries") {
    const total = { attempted: 0, resolved: 0 };
    for (let round = await runEndorsementRecoveries(); round.attempted > 0; round = await runEndorsementRecoveries()) {
      total.attempted += round.attempted;
      total.resolved += round.resolved;
    }
    output(values.json, total, `${total.resolved} averbação call(s) recovered (${total.attempted} attempted).`);
  } else if (command === "reservation-recoveries") {
    const total = { attempted: 0, resolved: 0 };
    for (let round = await runReservationRecoveries(); round.attempted > 0; round = await runReservationRecoveries()) {
      total.attempted += round.attempted;
      total.resolved += round.resolved;
    }
    output(values.json, total, `${total.resolved} reservation call(s) recovered (${total.attempted} attempted).`);
  } else if (command === "purge-idempotency") {
    let deleted = 0;
    for (let round = await purgeExpiredIdempotencyRecords(); round > 0; round = await purgeExpiredIdempotencyRecords()) deleted += round;
    output(values.json, { deleted }, `${deleted} expired idempotency record(s) deleted.`);
  } else if (command === "purge-webhook-deliveries") {
    let deleted = 0;
    for (let round = await purgeFinishedDeliveries(); round > 0; round = await purgeFinishedDeliveries()) deleted += round;
    // And the logs of deleted endpoints, then the endpoints themselves (a deletion only marks them).
    const ofDeleted = { deliveries: 0, endpoints: 0 };
    for (let round = await purgeDeletedEndpoints(); round.deliveries + round.endpoints > 0; round = await purgeDeletedEndpoints()) {
      ofDeleted.deliveries += round.deliveries;
      ofDeleted.endpoints += round.endpoints;
    }
    output(
      values.json,
      { deleted, deleted_endpoint_deliveries: ofDeleted.deliveries, deleted_endpoints: ofDeleted.endpoints },
      `${deleted} webhook deliveries finished past the retention period deleted; ${ofDeleted.deliveries} deliveries and ${ofDeleted.endpoints} endpoint(s) of deleted endpoints purged.`,
    );
  } else if (command === "purge-refresh-tokens") {
    let deleted = 0;
    for (let round = await purgeEndedGrants(); round > 0; round = await purgeEndedGrants()) deleted += round;
    output(values.json, { deleted }, `${deleted} refresh token(s) and revocation marker(s) of ended grants deleted.`);
  } else {
    throw new UsageError(`unknown job "${command}"`);
  }
});

/** ", 2 failed (logged by id; retried next run)" when some rows failed. */
function failedText(failed: number): string {
  return failed > 0 ? `, ${failed} failed (logged by id; retried next run)` : "";
}
