import { prepareDatabase, scriptDatabase } from "./lib/dev-env";

// `npm run worker`: delivers webhooks from the outbox, ends the averbação of payroll contracts that closed at the
// payroll authority (lib/payroll/endorsement-termination.ts), finds out what became of averbação and reservation calls
// whose request died before recording the answer (lib/payroll/endorsement-recovery.ts, reservation-recovery.ts), deletes idempotency records past their 24 hours and webhook deliveries past their retention and, with
// SMTP_URL set, sends the platform's e-mails (invitation links), until SIGTERM / SIGINT (it lets the attempts in flight end and records them, then exits). Run as many as you
// like — on one machine or several, against the same DATABASE_URL: they share the work through FOR UPDATE SKIP
// LOCKED and never make the same attempt twice (lib/webhooks/worker.ts, lib/mail/mailer.ts).
// `npm run dev` starts one. Without DATABASE_URL it uses the embedded PostgreSQL of `npm run dev` — not with
// NODE_ENV=production, which checks the configuration first, as `npm start` does, and exits 1 naming what is wrong
// (./lib/dev-env.ts, scriptDatabase).

const database = await scriptDatabase();
await prepareDatabase(database);
const { runWorker } = await import("@/lib/webhooks/delivery-pool");
const { runMailer } = await import("@/lib/mail/mailer");
const { runEndorsementWorker } = await import("@/lib/payroll/endorsement-worker");
const { runReservationRecoveryWorker } = await import("@/lib/payroll/reservation-recovery");
const { runRetentionPurger } = await import("@/lib/jobs/retention-purge");
const { disconnectDb } = await import("@/lib/db/client");
const { getEnv } = await import("@/lib/env");
const { log } = await import("@/lib/log");

const stop = new AbortController();
process.on("SIGINT", () => stop.abort());
process.on("SIGTERM", () => stop.abort());
log().info({ pid: process.pid, concurrency: getEnv().WEBHOOK_WORKER_CONCURRENCY, email: getEnv().SMTP_URL !== undefined }, "worker started");
await Promise.all([runWorker(stop.signal), runMailer(stop.signal), runEndorsementWorker(stop.signal), runReservationRecoveryWorker(stop.signal), runRetentionPurger(stop.signal)]);
log().info({ pid: process.pid }, "worker stopped");
await disconnectDb();
await database.server?.stop();
process.exit(0);
