import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as cancelContract } from "@/app/v1/contracts/[id]/cancel/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as cancelProposal } from "@/app/v1/proposals/[id]/cancel/route";
import { GET as getEndorsement } from "@/app/v1/payroll/endorsements/[id]/route";
import { GET as getMarginQuery } from "@/app/v1/payroll/margin-queries/[id]/route";
import { POST as cancelReservationRoute } from "@/app/v1/payroll/margin-reservations/[id]/cancel/route";
import { POST as batch } from "@/app/v1/settlements/batch/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addMonths } from "@/lib/finance";
import { SandboxSimulator } from "@/lib/payroll/authority/sandbox-simulator";
import { AuthorityError } from "@/lib/payroll/authority/types";
import { runEndorsementTerminations } from "@/lib/payroll/endorsement-termination";
import { expireProposals } from "@/lib/proposals/expire-proposals";
import { call } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// Ending the averbação: a payroll contract withdrawn, settled or paid off marks its endorsement `terminating` in that
// transaction; the worker asks the authority and marks it `terminated`, releasing the reservation (the margin is free
// again); a failing authority is retried with backoff, never given up.

afterEach(() => vi.restoreAllMocks());

async function payrollContract(t: CreditTenant) {
  const made = await signedProposal(t, { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) });
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: made.proposal.id } });
  expect(res.status).toBe(201);
  return { ...made, contract: res.body as { id: string } };
}

const endorsementNow = async (t: CreditTenant, id: string) => (await call(getEndorsement, { base: t.base, path: `/v1/payroll/endorsements/${id}`, headers: t.headers, params: { id } })).body;
const marginNow = async (t: CreditTenant, id: string) => (await call(getMarginQuery, { base: t.base, path: `/v1/payroll/margin-queries/${id}`, headers: t.headers, params: { id } })).body;
/** Runs the worker's rounds until nothing is due (this file's terminations; other files' are done along). */
async function drain() {
  while ((await runEndorsementTerminations(50)).attempted > 0);
}

describe("ending the averbação of a payroll contract", () => {
  it("withdrawn: terminating in the cancel's transaction, then terminated by the worker; the margin is free again", async () => {
    const t = await creditTenant();
    const { contract, endorsement, marginQuery } = await payrollContract(t);
    const held = await marginNow(t, marginQuery.id);
    expect(held.available_loan_margin).toBeLessThan(marginQuery.available_loan_margin);

    expect((await call(cancelContract, { base: t.base, path: `/v1/contracts/${contract.id}/cancel`, headers: t.headers, json: { reason: "withdrawal" }, params: { id: contract.id } })).status).toBe(200);
    expect(await endorsementNow(t, endorsement.id)).toMatchObject({ status: "terminating", termination: { reason: "canceled", attempts: 0, last_error: null, terminated_at: null } });
    // The reservation is the worker's to free: the cancel endpoint still refuses a consumed one.
    const cancelReservation = await call(cancelReservationRoute, { base: t.base, path: `/v1/payroll/margin-reservations/${endorsement.reservation_id}/cancel`, headers: t.headers, params: { id: endorsement.reservation_id } });
    expect(cancelReservation.body).toMatchObject({ status: 409, code: "invalid_transition", current_status: "consumed" });

    await drain();
    const ended = await endorsementNow(t, endorsement.id);
    expect(ended).toMatchObject({ status: "terminated", termination: { reason: "canceled", attempts: 1, last_error: null, terminated_at: expect.any(String) } });
    expect((await marginNow(t, marginQuery.id)).available_loan_margin).toBe(marginQuery.available_loan_margin);
    const changes = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { in: ["endorsement.status_changed", "margin_reservation.status_changed"] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(changes.map((e) => `${e.type}:${(e.payload as { previous_status: string }).previous_status}→${(e.payload as { status: string }).status}`).slice(-3)).toEqual([
      "endorsement.status_changed:endorsed→terminating",
      "endorsement.status_changed:terminating→terminated",
      "margin_reservation.status_changed:consumed→released",
    ]);
    const audits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, targetId: endorsement.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(audits.map((a) => [a.action, a.actorLabel]).slice(-2)).toEqual([
      ["endorsement.termination_requested", expect.any(String)],
      ["endorsement.terminated", "endorsement worker"],
    ]);
  });

  it("settled in full, by a single settlement or in a batch (the SQL path leaves the same endorsement)", async () => {
    const t = await creditTenant();
    const single = await payrollContract(t);
    const batched = await payrollContract(t);
    expect((await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: single.contract.id, type: "full", payment_method: "received" } })).status).toBe(201);
    const res = await call(batch, { base: t.base, path: "/v1/settlements/batch", headers: t.headers, json: { items: [{ contract_id: batched.contract.id, type: "full", payment_method: "received" }] } });
    expect(res.body.results[0].status).toBe("created");
    const OWN = ["id", "proposal_id", "reservation_id", "contract_number", "authority_endorsement_id", "endorsed_at", "created_at", "updated_at"];
    const strip = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([key]) => !OWN.includes(key)));
    const a = await endorsementNow(t, single.endorsement.id);
    const b = await endorsementNow(t, batched.endorsement.id);
    expect(a).toMatchObject({ status: "terminating", termination: { reason: "settled" } });
    expect(strip(b)).toEqual(strip(a));
    await drain();
    expect((await endorsementNow(t, batched.endorsement.id)).status).toBe("terminated");
  });

  it("a signed payroll proposal canceled before its contract (e.g. its disbursement date passed): the averbação ends", async () => {
    const t = await creditTenant();
    const made = await signedProposal(t, { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) });
    const res = await call(cancelProposal, { base: t.base, path: `/v1/proposals/${made.proposal.id}/cancel`, headers: t.headers, json: { reason: "borrower gave up" }, params: { id: made.proposal.id } });
    expect(res.body).toMatchObject({ status: "canceled" });
    expect(await endorsementNow(t, made.endorsement.id)).toMatchObject({ status: "terminating", termination: { reason: "canceled" } });
    await drain();
    expect(await endorsementNow(t, made.endorsement.id)).toMatchObject({ status: "terminated" });
    expect((await marginNow(t, made.marginQuery.id)).available_loan_margin).toBe(made.marginQuery.available_loan_margin);
    // Nothing to issue any more.
    expect((await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: made.proposal.id } })).status).toBe(409);
  });

  it("a signed payroll proposal past expires_at (its disbursement day over) is expired by the job: the averbação ends", async () => {
    const t = await creditTenant();
    const made = await signedProposal(t, { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) });
    // The end of its disbursement day has passed (production caps expires_at there), and no contract was issued.
    await db().proposal.update({ where: { id: made.proposal.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refused = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: made.proposal.id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "invalid_transition", current_status: "expired", action: "issue_contract", allowed_actions: [] });
    // The refusal closed it as the job would (no contract, the averbação ending), in a transaction of its own.
    const row = await db().proposal.findUniqueOrThrow({ where: { id: made.proposal.id } });
    expect([row.status, row.reason]).toEqual(["expired", "Expired before its contract was issued"]);
    expect(await db().contract.count({ where: { proposalId: made.proposal.id } })).toBe(0);
    expect(await endorsementNow(t, made.endorsement.id)).toMatchObject({ status: "terminating", termination: { reason: "canceled" } });
    await drain();
    expect(await endorsementNow(t, made.endorsement.id)).toMatchObject({ status: "terminated" });
    expect((await marginNow(t, made.marginQuery.id)).available_loan_margin).toBe(made.marginQuery.available_loan_margin);
    expect(await expireProposals()).toMatchObject({ failed: 0 });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: made.proposal.id } })).status).toBe("expired");
  });

  it("the expiry job closes a signed payroll proposal nobody tried to issue: the averbação ends", async () => {
    const t = await creditTenant();
    const made = await signedProposal(t, { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) });
    await db().proposal.update({ where: { id: made.proposal.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expireProposals();
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "proposal.status_changed" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(events.at(-1)!.payload).toMatchObject({ id: made.proposal.id, status: "expired", previous_status: "signed", reason: "Expired before its contract was issued" });
    expect(await endorsementNow(t, made.endorsement.id)).toMatchObject({ status: "terminating", termination: { reason: "canceled" } });
    await drain();
    expect(await endorsementNow(t, made.endorsement.id)).toMatchObject({ status: "terminated" });
  });

  it("a failing authority is retried later with the error shown, then the averbação ends", async () => {
    const t = await creditTenant();
    const { contract, endorsement } = await payrollContract(t);
    await call(cancelContract, { base: t.base, path: `/v1/contracts/${contract.id}/cancel`, headers: t.headers, json: { reason: "withdrawal" }, params: { id: contract.id } });
    await drain(); // other files' terminations out of the way
    vi.spyOn(SandboxSimulator.prototype, "terminateEndorsement").mockRejectedValueOnce(new AuthorityError("unavailable", "down for maintenance", 30));
    await db().endorsement.update({ where: { id: endorsement.id }, data: { status: "terminating", terminatedAt: null, terminationAttempts: 0, terminationNextAttemptAt: new Date() } });
    await runEndorsementTerminations(50);
    const failed = await db().endorsement.findUniqueOrThrow({ where: { id: endorsement.id } });
    expect(failed).toMatchObject({ status: "terminating", terminationAttempts: 1, terminationLastError: "unavailable: down for maintenance" });
    expect(failed.terminationNextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 50_000); // 1 minute later
    expect((await runEndorsementTerminations(50)).attempted).toBe(0); // not due yet

    await db().endorsement.update({ where: { id: endorsement.id }, data: { terminationNextAttemptAt: new Date() } });
    await drain();
    expect(await db().endorsement.findUniqueOrThrow({ where: { id: endorsement.id } })).toMatchObject({ status: "terminated", terminationAttempts: 2, terminationLastError: null });
  });
});
