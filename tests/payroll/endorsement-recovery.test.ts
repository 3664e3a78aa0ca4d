import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { GET as listEndorsements, POST as createEndorsement } from "@/app/v1/payroll/endorsements/route";
import { POST as approve } from "@/app/v1/proposals/[id]/approve/route";
import { POST as cancelProposal } from "@/app/v1/proposals/[id]/cancel/route";
import { POST as sign } from "@/app/v1/proposals/[id]/sign/route";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { GET as getProposal } from "@/app/v1/proposals/[id]/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addMonths } from "@/lib/finance";
import { runEndorsementRecoveries } from "@/lib/payroll/endorsement-recovery";
import { runEndorsementTerminations } from "@/lib/payroll/endorsement-termination";
import { authorityKey } from "@/lib/payroll/reservations";
import { freePort } from "@/scripts/lib/database";
import { killHard, startRouteServer } from "../helpers/route-server-process";
import { productionAuthority, VALID_MARGIN_ANSWER, type FakeAuthority, type FakeReply, type FakeRequest } from "../helpers/fake-authority";
import { call } from "../helpers/http";
import { creditTenant, newProposal, type CreditTenant } from "../credit/flow-helpers";

// An averbação whose answer is lost (a 5xx or timeout after the authority endorsed, a crash before the commit) must not
// leave a contract registered at the authority that nobody issues: the `submitted` row is committed before the call;
// a retry asks again under the same idempotency key and records the answer, and so does the worker once the request
// must have ended — ending the averbação when the proposal closed meanwhile.

let fake: FakeAuthority;
let t: CreditTenant;
/** What the fake answers to POST /v1/endorsements; everything else it answers as a healthy authority. */
let endorseReply: (request: FakeRequest) => FakeReply;

beforeAll(async () => {
  fake = await productionAuthority();
  fake.handler = (req, n) => {
    if (req.path === "/v1/margin-queries") return { status: 200, json: VALID_MARGIN_ANSWER };
    if (req.path === "/v1/reservations") return { status: 201, json: { reservation_id: `R-${n}`, status: "reserved", expires_at: "2030-01-01T00:00:00Z" } };
    if (req.path === "/v1/endorsements") return endorseReply(req);
    if (/^\/v1\/(endorsements|reservations)\/[^/]+\/(terminate|release)$/.test(req.path)) return { status: 200, json: {} };
    return { status: 404, json: {} };
  };
  t = await creditTenant("production");
  // The worker serves every tenant: only this file leaves written-ahead averbações (the sandbox never does); an
  // earlier run's, against its own fake, must not be replayed against this one.
  await db().endorsement.updateMany({ where: { status: "submitted", recoveryNextAttemptAt: { not: null } }, data: { recoveryNextAttemptAt: null } });
});
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill("SIGKILL");
  await fake.close();
});

const ENDORSED = (id: string) => ({ status: 201, json: { endorsement_id: id, status: "endorsed", endorsed_at: "2026-11-24T12:00:00.000Z" } }) as const;
/** The worker, as if its fence (the request's transaction timeout plus a minute) had passed. */
const later = () => new Date(Date.now() + 60 * 60_000);

async function signedPayrollProposal() {
  const made = await newProposal(t, { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) });
  for (const handler of [submit, approve, sign]) {
    const res = await call(handler, { base: t.base, path: `/v1/proposals/${made.proposal.id}/x`, headers: t.headers, params: { id: made.proposal.id } });
    expect(res.status).toBe(200);
  }
  return made.proposal.id;
}
const endorse = (proposalId: string, headers: Record<string, string> = {}) =>
  call(createEndorsement, { base: t.base, path: "/v1/payroll/endorsements", headers: { ...t.headers, ...headers }, json: { proposal_id: proposalId } });
const endorsementsOf = async (proposalId: string) =>
  (await call(listEndorsements, { base: t.base, path: `/v1/payroll/endorsements?proposal_id=${proposalId}`, headers: t.headers })).body.data as Record<string, unknown>[];
const proposalStatus = async (id: string) => (await call(getProposal, { base: t.base, path: `/v1/proposals/${id}`, headers: t.headers, params: { id } })).body.status;
const reservationOf = async (proposalId: string) => db().marginReservation.findFirstOrThrow({ where: { proposalId }, orderBy: { createdAt: "desc" } });

describe("averbação calls whose answer was lost", () => {
  it("stay submitted; a retry asks again under the same key and records the authority's answer on the same endorsement", async () => {
    const proposalId = await signedPayrollProposal();
    endorseReply = () => ({ status: 500, json: {} }); // the authority endorsed; its answer is lost on the way back
    // An idempotent request: its transaction rolls back with the 503 — the contract number it sent stays taken.
    const lost = await endorse(proposalId, { "x-request-id": `endorse-${proposalId}` });
    expect(lost.status).toBe(503); // authority_unavailable, retryable
    const [pending] = await endorsementsOf(proposalId);
    expect(pending).toMatchObject({ status: "submitted", proposal_id: proposalId, authority_endorsement_id: null, refusal: null });
    expect(await proposalStatus(proposalId)).toBe("signed");
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposalId } })).contractNumber).toBe(pending!.contract_number);
    expect(fake.calls("/v1/endorsements").at(-1)!.body).toMatchObject({ contract_number: pending!.contract_number });

    endorseReply = () => ENDORSED("AUTH-E-RETRY");
    const retried = await endorse(proposalId, { "x-request-id": `endorse-${proposalId}` });
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ id: pending!.id, status: "endorsed", authority_endorsement_id: "AUTH-E-RETRY", contract_number: pending!.contract_number });
    const key = authorityKey({ tenantId: t.tenant.id, environment: "production" }, "endorse", proposalId);
    expect(fake.calls("/v1/endorsements").slice(-2).map((r) => r.headers["idempotency-key"])).toEqual([key, key]);
    expect(await endorsementsOf(proposalId)).toHaveLength(1);
    expect((await reservationOf(proposalId)).status).toBe("consumed");
    // Nothing is left for the worker.
    expect(await db().endorsement.findUniqueOrThrow({ where: { id: pending!.id as string } })).toMatchObject({ recoveryNextAttemptAt: null, recoveryAttempts: 0 });
    expect(await runEndorsementRecoveries(50, later)).toEqual({ attempted: 0, resolved: 0 });
  });

  it("without a retry, the worker records it once the request must have ended: the contract can be issued", async () => {
    const proposalId = await signedPayrollProposal();
    endorseReply = () => "reset"; // the connection drops after the authority registered the contract
    expect((await endorse(proposalId)).status).toBeGreaterThanOrEqual(502);
    const [pending] = await endorsementsOf(proposalId);

    // Not before the request's transaction must have ended.
    expect(await runEndorsementRecoveries(50)).toEqual({ attempted: 0, resolved: 0 });
    endorseReply = () => ENDORSED("AUTH-E-WORKER");
    expect(await runEndorsementRecoveries(50, later)).toEqual({ attempted: 1, resolved: 1 });
    const [recorded] = await endorsementsOf(proposalId);
    expect(recorded).toMatchObject({ id: pending!.id, status: "endorsed", authority_endorsement_id: "AUTH-E-WORKER", termination: null });
    expect((await reservationOf(proposalId)).status).toBe("consumed");
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, targetId: pending!.id as string, action: "endorsement.endorsed" } });
    expect(audit.actorLabel).toBe("endorsement worker");
    const issued = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposalId } });
    expect(issued.status, issued.text).toBe(201);
    expect(issued.body.number).toBe(pending!.contract_number);
  });

  it("the proposal canceled meanwhile: the averbação found is recorded and ended at the authority", async () => {
    const proposalId = await signedPayrollProposal();
    endorseReply = () => ({ status: 504, json: {} });
    expect((await endorse(proposalId)).status).toBeGreaterThanOrEqual(502);
    const [pending] = await endorsementsOf(proposalId);
    const canceled = await call(cancelProposal, { base: t.base, path: `/v1/proposals/${proposalId}/cancel`, headers: t.headers, json: { reason: "borrower gave up" }, params: { id: proposalId } });
    expect(canceled.body.status).toBe("canceled");

    endorseReply = () => ENDORSED("AUTH-E-ORPHAN");
    expect(await runEndorsementRecoveries(50, later)).toEqual({ attempted: 1, resolved: 1 });
    const [ending] = await endorsementsOf(proposalId);
    expect(ending).toMatchObject({ id: pending!.id, status: "terminating", authority_endorsement_id: "AUTH-E-ORPHAN", termination: { reason: "canceled", attempts: 0 } });
    expect(await proposalStatus(proposalId)).toBe("canceled");
    const changes = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "endorsement.status_changed" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const mine = changes.map((e) => e.payload as { id: string; previous_status: string; status: string }).filter((p) => p.id === pending!.id);
    expect(mine.map((p) => `${p.previous_status}→${p.status}`)).toEqual(["submitted→endorsed", "endorsed→terminating"]);

    while ((await runEndorsementTerminations(50)).attempted > 0);
    expect((await endorsementsOf(proposalId))[0]).toMatchObject({ status: "terminated", termination: { reason: "canceled", attempts: 1, last_error: null } });
    expect(fake.calls("/v1/endorsements/AUTH-E-ORPHAN/terminate")).toHaveLength(1);
  });

  it("refused on replay for a closed proposal: refused, the proposal left as it is", async () => {
    const proposalId = await signedPayrollProposal();
    endorseReply = () => ({ status: 500, json: {} });
    await endorse(proposalId);
    await call(cancelProposal, { base: t.base, path: `/v1/proposals/${proposalId}/cancel`, headers: t.headers, json: {}, params: { id: proposalId } });
    endorseReply = () => ({ status: 422, json: { error: { code: "reservation_released", message: "The reservation was released" } } });
    expect(await runEndorsementRecoveries(50, later)).toEqual({ attempted: 1, resolved: 1 });
    expect((await endorsementsOf(proposalId))[0]).toMatchObject({ status: "refused", refusal: { code: "reservation_released" } });
    expect(await proposalStatus(proposalId)).toBe("canceled");
  });

  it("a failing replay is retried with backoff, its error kept; a call that never left (429) leaves no row", async () => {
    const proposalId = await signedPayrollProposal();
    endorseReply = () => ({ status: 500, json: {} });
    await endorse(proposalId);
    const [pending] = await endorsementsOf(proposalId);
    endorseReply = () => ({ status: 503, json: {} });
    const at = later();
    expect(await runEndorsementRecoveries(50, () => at)).toEqual({ attempted: 1, resolved: 0 });
    const row = await db().endorsement.findUniqueOrThrow({ where: { id: pending!.id as string } });
    expect(row).toMatchObject({ status: "submitted", recoveryAttempts: 1, recoveryLastError: expect.stringContaining("unavailable") });
    expect(row.recoveryNextAttemptAt!.getTime()).toBe(at.getTime() + 60_000);
    // Then the authority answers: the client's retry records it (the worker would, a minute later).
    endorseReply = () => ENDORSED("AUTH-E-LATE");
    expect((await endorse(proposalId)).body).toMatchObject({ id: pending!.id, status: "endorsed" });

    const other = await signedPayrollProposal();
    endorseReply = () => ({ status: 429, headers: { "retry-after": "1" }, json: {} });
    expect((await endorse(other)).status).toBe(503);
    expect(await endorsementsOf(other)).toEqual([]);
    expect(await proposalStatus(other)).toBe("signed");
  });

  it("the server killed (SIGKILL) while the authority registers the contract: the worker finds the averbação and records it", async () => {
    const proposalId = await signedPayrollProposal();
    const port = await freePort();
    const server = await startRouteServer(port, 2, "route-server.ts", "production");
    child = server;
    let killed: Promise<void> | undefined;
    endorseReply = () => {
      killed = killHard(server); // the authority has the request; the platform dies before any answer
      return "hang";
    };
    const sent = fetch(`http://127.0.0.1:${port}/v1/payroll/endorsements`, {
      method: "POST",
      headers: { ...t.headers, "content-type": "application/json" },
      body: JSON.stringify({ proposal_id: proposalId }),
    });
    await expect(sent).rejects.toThrow();
    await killed;
    const [pending] = await endorsementsOf(proposalId);
    expect(pending).toMatchObject({ status: "submitted", authority_endorsement_id: null });
    expect(await proposalStatus(proposalId)).toBe("signed");

    endorseReply = () => ENDORSED("AUTH-E-CRASH");
    expect(await runEndorsementRecoveries(50, later)).toEqual({ attempted: 1, resolved: 1 });
    expect((await endorsementsOf(proposalId))[0]).toMatchObject({ id: pending!.id, status: "endorsed", authority_endorsement_id: "AUTH-E-CRASH" });
    expect((await reservationOf(proposalId)).status).toBe("consumed");
    const key = authorityKey({ tenantId: t.tenant.id, environment: "production" }, "endorse", proposalId);
    expect(fake.calls("/v1/endorsements").slice(-2).map((r) => r.headers["idempotency-key"])).toEqual([key, key]);
  });
});
