import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as cancelAssignment } from "@/app/v1/assignments/[id]/cancel/route";
import { GET as getAssignment } from "@/app/v1/assignments/[id]/route";
import { POST as settleAssignment } from "@/app/v1/assignments/[id]/settle/route";
import { POST as createAssignment } from "@/app/v1/assignments/route";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as writeOff } from "@/app/v1/contracts/[id]/write-off/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as batch } from "@/app/v1/settlements/batch/route";
import { POST as cancelSettlement } from "@/app/v1/settlements/[id]/cancel/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addDays, addMonths } from "@/lib/finance";
import { call } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";

// The borrower's settlement wins over a pending portfolio offer (CDC art. 52 §2): a contract on offer that gets a
// settlement (full or partial, single or in a batch) or is paid off by a charge leaves the offer in that transaction —
// its row not live, the totals the remaining contracts', an audit row and `assignment.contract_removed`; the last one
// leaving cancels the offer. A settled assignment's contracts are sold: their payoff is the assignee's money. Racing a
// settle of the assignment against a settlement (or a payment paying the contract off) ends in one consistent outcome.

const ASSIGNEE = { name: "Fundo Alfa FIDC", document: "11.222.333/0001-81" };
type Member = { contract_id: string; face_value: number; price: number };

const offer = async (t: CreditTenant, contractIds: string[], pricing: { discount_rate: string } | { price: number }) => {
  const res = await call(createAssignment, { base: t.base, path: "/v1/assignments", headers: t.headers, json: { assignee: ASSIGNEE, contract_ids: contractIds, ...pricing } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; contracts: Member[]; face_value: number; price: number };
};
const act = (t: CreditTenant, handler: typeof settleAssignment, id: string, json?: unknown) => call(handler, { base: t.base, path: `/v1/assignments/${id}/x`, headers: t.headers, params: { id }, json });
const fetchAssignment = async (t: CreditTenant, id: string) => (await call(getAssignment, { base: t.base, path: `/v1/assignments/${id}`, headers: t.headers, params: { id } })).body;
const settle = (t: CreditTenant, json: Record<string, unknown>) => call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json });

/** The assignment as GET shows it once `removed` left: only `kept` listed, the totals theirs. */
function shrunkTo(kept: Member[]) {
  const face = kept.reduce((s, c) => s + c.face_value, 0);
  const price = kept.reduce((s, c) => s + c.price, 0);
  return { status: "pending", contract_count: kept.length, face_value: face, price, discount: face - price, contracts: kept };
}

/** The removal's event, audit row and the row kept (not live, removed_at set). */
async function expectRemoved(t: CreditTenant, assignmentId: string, removed: Member, reason: "settlement" | "paid_off", kept: Member[]) {
  const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "assignment.contract_removed" } });
  const event = events.find((e) => (e.payload as { removed_contract_id: string }).removed_contract_id === removed.contract_id);
  expect(event?.payload).toMatchObject({ id: assignmentId, object: "assignment", removed_contract_id: removed.contract_id, reason, ...shrunkTo(kept), status: expect.any(String) });
  const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "assignment.contract_removed", targetId: assignmentId, metadata: { path: ["contract_id"], equals: removed.contract_id } } });
  expect(audit).toMatchObject({ targetType: "assignment", metadata: { contract_id: removed.contract_id, reason, face_value: removed.face_value, price: removed.price } });
  const row = await db().assignmentContract.findUniqueOrThrow({ where: { assignmentId_contractId: { assignmentId, contractId: removed.contract_id } } });
  expect(row).toMatchObject({ live: false, removedAt: expect.any(Date), faceValue: BigInt(removed.face_value), price: BigInt(removed.price) });
}

/** A contract past its withdrawal period with no installment due yet (a partial settlement needs every one due paid).
 *  12 days back: the 7 days end at the latest 4 days later (a Saturday, then Carnival Monday and Tuesday). */
async function contractNothingDue(t: CreditTenant): Promise<string> {
  const disbursed = addDays(todayInBrazil(), -12);
  const { proposal } = await signedProposal(t, { disbursement_date: disbursed, first_due_date: addMonths(disbursed, 1) });
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const byId = (made: { contracts: Member[] }, id: string) => made.contracts.find((c) => c.contract_id === id)!;

describe("a contract on a pending offer: the borrower's settlement wins", () => {
  it("a full settlement (funds received) is made; the contract leaves the offer, the rest is settled without it", async () => {
    const t = await creditTenant();
    const [a, b] = await contractsOf(t, 2);
    const made = await offer(t, [a!, b!], { discount_rate: "0.0150" });
    const res = await settle(t, { contract_id: a, type: "full", payment_method: "received" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: "completed", contract_id: a });
    expect((await db().payment.findUniqueOrThrow({ where: { id: res.body.payment_id } })).assignmentId).toBeNull(); // the seller's money

    const kept = [byId(made, b!)];
    expect(await fetchAssignment(t, made.id)).toMatchObject(shrunkTo(kept));
    await expectRemoved(t, made.id, byId(made, a!), "settlement", kept);
    const row = await db().assignment.findUniqueOrThrow({ where: { id: made.id } });
    expect({ face: Number(row.faceValue), price: Number(row.price), count: row.contractCount }).toEqual({ face: kept[0]!.face_value, price: kept[0]!.price, count: 1 });

    // Settled with the contract left: only it is sold.
    const sold = await act(t, settleAssignment, made.id);
    expect(sold.status, sold.text).toBe(200);
    expect(sold.body).toMatchObject({ ...shrunkTo(kept), status: "settled" });
    expect(await db().contract.findUniqueOrThrow({ where: { id: b } })).toMatchObject({ status: "assigned", assignmentId: made.id });
    expect(await db().contract.findUniqueOrThrow({ where: { id: a } })).toMatchObject({ status: "settled", assignmentId: null });
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.assigned" } })).toBe(1);

    // The sold contract's payoff is still the borrower's right, and the assignee's money: the sale stands.
    const payoff = await settle(t, { contract_id: b, type: "full", payment_method: "received" });
    expect(payoff.status, payoff.text).toBe(201);
    expect(await db().payment.findUniqueOrThrow({ where: { id: payoff.body.payment_id } })).toMatchObject({ assignmentId: made.id, settlementId: payoff.body.id });
    expect(await fetchAssignment(t, made.id)).toMatchObject({ ...shrunkTo(kept), status: "settled" });
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "assignment.contract_removed" } })).toBe(1);
  });

  it("a partial settlement too; at a total price the assignee's total drops by the contract's share, and the contract does not come back", async () => {
    const t = await creditTenant();
    const a = await contractNothingDue(t);
    const b = await contractNothingDue(t);
    const made = await offer(t, [a, b], { price: 1_500_001 });
    const res = await settle(t, { contract_id: a, type: "partial", amount: 200_000, reduce: "installment_amount", payment_method: "boleto" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: "pending", type: "partial", charge_id: expect.any(String) });
    const kept = [byId(made, b)];
    expect(await fetchAssignment(t, made.id)).toMatchObject(shrunkTo(kept));
    expect(made.price - byId(made, a).price).toBe(kept[0]!.price); // the removed share, exactly
    await expectRemoved(t, made.id, byId(made, a), "settlement", kept);
    expect((await db().contract.findUniqueOrThrow({ where: { id: a } })).status).toBe("active");

    // The settlement canceled: the contract is free (not back in the offer), to be offered anew.
    expect((await call(cancelSettlement, { base: t.base, path: `/v1/settlements/${res.body.id}/cancel`, headers: t.headers, params: { id: res.body.id }, json: {} })).status).toBe(200);
    expect(await fetchAssignment(t, made.id)).toMatchObject(shrunkTo(kept));
    const again = await offer(t, [a], { discount_rate: "0.02" });
    expect(again.contracts.map((c) => c.contract_id)).toEqual([a]);
  });

  it("a batch item on an offered contract is created (through the services' path) and the offer shrinks", async () => {
    const t = await creditTenant();
    const [a, b, c] = await contractsOf(t, 3);
    const made = await offer(t, [a!, b!], { discount_rate: "0.02" });
    const items = [
      { contract_id: a, type: "full", payment_method: "received" },
      { contract_id: c, type: "full", payment_method: "received" },
    ];
    const res = await call(batch, { base: t.base, path: "/v1/settlements/batch", headers: { ...t.headers, "x-request-id": randomUUID() }, json: { items } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ created: 2, failed: 0 });
    expect(await db().contract.findMany({ where: { id: { in: [a!, c!] } }, select: { status: true } })).toEqual([{ status: "settled" }, { status: "settled" }]);
    const kept = [byId(made, b!)];
    expect(await fetchAssignment(t, made.id)).toMatchObject(shrunkTo(kept));
    await expectRemoved(t, made.id, byId(made, a!), "settlement", kept);
  });

  it("the last contract leaving cancels the offer (every contract left the offer)", async () => {
    const t = await creditTenant();
    const [a] = await contractsOf(t, 1);
    const made = await offer(t, [a!], { price: 500_000 });
    const res = await settle(t, { contract_id: a, type: "full", payment_method: "boleto" });
    expect(res.status, res.text).toBe(201);
    const after = await fetchAssignment(t, made.id);
    expect(after).toMatchObject({ status: "canceled", cancel_reason: "every contract left the offer", canceled_at: expect.any(String), contract_count: 0, face_value: 0, price: 0, discount: 0, contracts: [] });
    await expectRemoved(t, made.id, byId(made, a!), "settlement", []);
    const changed = await db().outboxEvent.findFirstOrThrow({ where: { tenantId: t.tenant.id, type: "assignment.status_changed" } });
    expect(changed.payload).toMatchObject({ id: made.id, status: "canceled", previous_status: "pending", cancel_reason: "every contract left the offer" });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { startsWith: "assignment." } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(events.map((e) => e.type)).toEqual(["assignment.created", "assignment.contract_removed", "assignment.status_changed"]);
    expect(await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "assignment.canceled", targetId: made.id } })).toMatchObject({ metadata: { from: "pending", to: "canceled", reason: "every contract left the offer" } });
    expect((await act(t, settleAssignment, made.id)).body).toMatchObject({ status: 409, code: "invalid_transition" });
    expect((await act(t, cancelAssignment, made.id, {})).body).toMatchObject({ status: 409, code: "invalid_transition" });
  });

  it("paying off an offered contract's last installments by a charge takes it out of the offer (paid_off)", async () => {
    const t = await creditTenant();
    const [a, b] = await contractsOf(t, 2);
    const made = await offer(t, [a!, b!], { discount_rate: "0.02" });
    const open = await db().installment.findMany({ where: { contractId: a, status: "open" }, select: { id: true } });
    const charge = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: a, method: "pix", installment_ids: open.map((i) => i.id) } });
    expect(charge.status, charge.text).toBe(201);
    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.body.id}/pay`, headers: t.headers, params: { id: charge.body.id }, json: {} });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.payment.assignment_id).toBeNull();
    expect((await db().contract.findUniqueOrThrow({ where: { id: a } })).status).toBe("settled");
    const kept = [byId(made, b!)];
    expect(await fetchAssignment(t, made.id)).toMatchObject(shrunkTo(kept));
    await expectRemoved(t, made.id, byId(made, a!), "paid_off", kept);
    // The rest can be settled (before, one paid-off contract made the whole offer 409).
    expect((await act(t, settleAssignment, made.id)).body).toMatchObject({ status: "settled", contract_count: 1 });
  });

  it("write-off still refuses a contract on offer (the lender's own decision: cancel the offer first)", async () => {
    const t = await creditTenant();
    const [a] = await contractsOf(t, 1);
    const made = await offer(t, [a!], { discount_rate: "0.02" });
    const res = await call(writeOff, { base: t.base, path: `/v1/contracts/${a}/write-off`, headers: t.headers, params: { id: a! }, json: { reason: "no payment" } });
    expect(res.body).toMatchObject({ status: 409, code: "conflict", assignment_id: made.id });
    expect(await fetchAssignment(t, made.id)).toMatchObject({ status: "pending", contract_count: 1 });
  });
});

describe("racing a settle of the assignment", () => {
  /** Either outcome, never a failure: the assignment settled first (the contract sold, then paid off as the
   *  assignee's money) or the contract left first (the assignment settled with the other one). */
  async function expectConsistent(t: CreditTenant, made: { id: string; contracts: Member[] }, a: string, b: string) {
    const assignment = await db().assignment.findUniqueOrThrow({ where: { id: made.id } });
    expect(assignment.status).toBe("settled");
    const rowA = await db().assignmentContract.findUniqueOrThrow({ where: { assignmentId_contractId: { assignmentId: made.id, contractId: a } } });
    const contractA = await db().contract.findUniqueOrThrow({ where: { id: a } });
    const paymentsA = await db().payment.findMany({ where: { contractId: a } });
    expect(contractA.status).toBe("settled");
    expect(paymentsA.length).toBeGreaterThan(0);
    expect(await db().contract.findUniqueOrThrow({ where: { id: b } })).toMatchObject({ status: "assigned", assignmentId: made.id });
    const sold = rowA.live;
    const kept = sold ? made.contracts : [byId(made, b)];
    expect({ face: Number(assignment.faceValue), price: Number(assignment.price), count: assignment.contractCount }).toEqual({
      face: kept.reduce((s, c) => s + c.face_value, 0),
      price: kept.reduce((s, c) => s + c.price, 0),
      count: kept.length,
    });
    // Sold first: the payoff is the assignee's money. Left first: the seller's, and the contract was never assigned.
    expect(contractA.assignmentId).toBe(sold ? made.id : null);
    for (const p of paymentsA) expect(p.assignmentId).toBe(sold ? made.id : null);
    expect(rowA.removedAt === null).toBe(sold);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "assignment.contract_removed", payload: { path: ["id"], equals: made.id } } })).toBe(sold ? 0 : 1);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.assigned", payload: { path: ["id"], equals: a } } })).toBe(sold ? 1 : 0);
    return sold ? "sold first" : "left first";
  }

  it("settle vs a settlement of one of its contracts, several times: each ends consistent, nothing fails", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const t = await creditTenant(); // a tenant per round: its requests stay under the per-minute rate limit
      const [a, b] = await contractsOf(t, 2);
      const made = await offer(t, [a!, b!], { discount_rate: "0.02" });
      // Started in either order: whichever takes the contract's lock first wins, the other then goes on.
      const settling = () => act(t, settleAssignment, made.id);
      const paying = () => settle(t, { contract_id: a, type: "full", payment_method: "received" });
      const [sold, settled] = round % 2 === 0 ? await Promise.all([settling(), paying()]) : (await Promise.all([paying(), settling()])).reverse();
      expect(sold!.status, sold!.text).toBe(200);
      expect(settled!.status, settled!.text).toBe(201);
      outcomes.push(await expectConsistent(t, made, a!, b!));
    }
    expect(outcomes).toHaveLength(6);
  });

  it("settle vs a payment paying one of its contracts off, several times: each ends consistent, nothing fails", async () => {
    for (let round = 0; round < 4; round++) {
      const t = await creditTenant();
      const [a, b] = await contractsOf(t, 2);
      const made = await offer(t, [a!, b!], { discount_rate: "0.02" });
      const open = await db().installment.findMany({ where: { contractId: a, status: "open" }, select: { id: true } });
      const charge = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: a, method: "pix", installment_ids: open.map((i) => i.id) } })).body;
      const settling = () => act(t, settleAssignment, made.id);
      const paying = () => call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.id}/pay`, headers: t.headers, params: { id: charge.id }, json: {} });
      const [sold, paid] = round % 2 === 0 ? await Promise.all([settling(), paying()]) : (await Promise.all([paying(), settling()])).reverse();
      expect(paid!.status, paid!.text).toBe(200);
      // Paid first, the contract left; settled first, the sale stands and the payment is the assignee's — either way
      // the settle succeeds: nothing it sells changed after it was priced.
      expect(sold!.status, sold!.text).toBe(200);
      await expectConsistent(t, made, a!, b!);
    }
  });
});
