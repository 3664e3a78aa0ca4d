import { describe, expect, it } from "vitest";
import { POST as buyback } from "@/app/v1/assignments/[id]/buyback/route";
import { POST as cancelAssignment } from "@/app/v1/assignments/[id]/cancel/route";
import { POST as decline } from "@/app/v1/assignments/[id]/decline/route";
import { GET as getAssignment } from "@/app/v1/assignments/[id]/route";
import { POST as settleAssignment } from "@/app/v1/assignments/[id]/settle/route";
import { POST as createAssignment } from "@/app/v1/assignments/route";
import { POST as createCharge } from "@/app/v1/charges/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { payoffLines, shareProportionally } from "@/lib/finance";
import { centavos, isoDate } from "@/lib/serialize";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { problem } from "../helpers/problem";
import { creditTenant, type CreditTenant } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";

// The assignee declines a pending offer (pending → declined, its contracts free again), and the originator buys
// contracts of a settled one back (recompra: assigned → active, assignment_id cleared, later payments the
// originator's; settled → bought_back once every contract is bought back): whole bodies, events, audit, every refusal
// changing nothing, isolation, permissions, replays by X-Request-Id, and two buybacks racing.

const ASSIGNEE = { name: "Fundo Alfa FIDC", document: "11.222.333/0001-81" };
type Route = typeof settleAssignment;
const act = (t: CreditTenant, handler: Route, name: string, id: string, json?: unknown, headers: Record<string, string> = t.headers) =>
  call(handler, { base: t.base, path: `/v1/assignments/${id}/${name}`, headers, params: { id }, json });
const offer = async (t: CreditTenant, contract_ids: string[], pricing: Record<string, unknown> = { discount_rate: "0.02" }) => {
  const res = await call(createAssignment, { base: t.base, path: "/v1/assignments", headers: t.headers, json: { assignee: ASSIGNEE, contract_ids, ...pricing } });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const sold = async (t: CreditTenant, contract_ids: string[], pricing?: Record<string, unknown>) => {
  const made = await offer(t, contract_ids, pricing);
  const settled = await act(t, settleAssignment, "settle", made.id);
  expect(settled.status, settled.text).toBe(200);
  return settled.body;
};
const contractOf = async (t: CreditTenant, id: string) => (await call(getContract, { base: t.base, path: `/v1/contracts/${id}`, headers: t.headers, params: { id } })).body;
const assignmentOf = async (t: CreditTenant, id: string) => (await call(getAssignment, { base: t.base, path: `/v1/assignments/${id}`, headers: t.headers, params: { id } })).body;
const payCharge = async (t: CreditTenant, contractId: string) => {
  const charge = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contractId, method: "pix" } });
  expect(charge.status, charge.text).toBe(201);
  const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.body.id}/pay`, headers: t.headers, params: { id: charge.body.id }, json: {} });
  expect(paid.status, paid.text).toBe(200);
  return paid.body.payment;
};

/** The present value today of a contract's open installments at `rate` (what the buyback pays by default). */
async function presentValue(contractId: string, rate: string): Promise<number> {
  const rows = await db().installment.findMany({ where: { contractId, status: { in: ["open", "partially_paid"] } }, orderBy: [{ dueDate: "asc" }, { number: "asc" }] });
  const open = rows.map((r) => ({ number: r.number, due_date: isoDate(r.dueDate), payment: centavos(r.amount) - centavos(r.paidAmount) }));
  return payoffLines(rate, todayInBrazil(), open).reduce((s, l) => s + l.present_value, 0);
}

async function openFace(contractId: string): Promise<number> {
  const rows = await db().installment.findMany({ where: { contractId, status: { in: ["open", "partially_paid"] } } });
  return rows.reduce((s, r) => s + centavos(r.amount) - centavos(r.paidAmount), 0);
}

/** Everything a buyback or decline could change, to check a refusal changed nothing. */
async function snapshot(t: CreditTenant, assignmentId: string) {
  return {
    assignment: await db().assignment.findUniqueOrThrow({ where: { id: assignmentId } }),
    members: await db().assignmentContract.findMany({ where: { assignmentId }, orderBy: { contractId: "asc" } }),
    contracts: await db().contract.findMany({ where: { tenantId: t.tenant.id }, orderBy: { id: "asc" }, select: { id: true, status: true, assignmentId: true, updatedAt: true } }),
    events: await db().outboxEvent.count({ where: { tenantId: t.tenant.id } }),
    audit: await db().auditLog.count({ where: { tenantId: t.tenant.id } }),
  };
}

describe("POST /v1/assignments/{id}/decline", () => {
  it("pending → declined with the reason: its contracts free again, event and audit; then 409 invalid_transition", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 2);
    const made = await offer(t, ids);
    const res = await act(t, decline, "decline", made.id, { reason: "  The assignee's committee said no  " });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...made,
      status: "declined",
      decline_reason: "The assignee's committee said no",
      declined_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await assignmentOf(t, made.id)).toEqual(res.body);
    // Free again, exactly as a cancel frees them: no live row, offered anew.
    expect(await db().assignmentContract.count({ where: { assignmentId: made.id, live: true } })).toBe(0);
    for (const id of ids) expect(await contractOf(t, id)).toMatchObject({ status: "active", assignment_id: null });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { startsWith: "assignment." } }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["assignment.created", "assignment.status_changed"]);
    expect(events[1]!.payload).toEqual({ ...res.body, previous_status: "pending" });
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "assignment.declined", targetId: made.id } });
    expect(audit).toMatchObject({ targetType: "assignment", metadata: { from: "pending", to: "declined", reason: "The assignee's committee said no" } });

    const again = await act(t, decline, "decline", made.id, { reason: "once more" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(
      problem("invalid_transition", 409, "The action is not allowed in the resource's current state", "Cannot decline a assignment that is declined", { current_status: "declined", action: "decline", allowed_actions: [] }),
    );
    expect((await act(t, cancelAssignment, "cancel", made.id, {})).body).toMatchObject({ status: 409, code: "invalid_transition", current_status: "declined" });
    expect((await act(t, settleAssignment, "settle", made.id)).body).toMatchObject({ status: 409, code: "invalid_transition", current_status: "declined" });
    expect((await offer(t, ids)).status).toBe("pending");
  });

  it("a settled or canceled assignment is 409 invalid_transition, as cancel answers; a reason is required (3–500)", async () => {
    const t = await creditTenant();
    const [a, b] = await contractsOf(t, 2);
    const settled = await sold(t, [a!]);
    const before = await snapshot(t, settled.id);
    const res = await act(t, decline, "decline", settled.id, { reason: "too late" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(
      problem("invalid_transition", 409, "The action is not allowed in the resource's current state", "Cannot decline a assignment that is settled", { current_status: "settled", action: "decline", allowed_actions: ["buyback"] }),
    );
    expect(await snapshot(t, settled.id)).toEqual(before);

    const canceled = await offer(t, [b!]);
    await act(t, cancelAssignment, "cancel", canceled.id, {});
    expect((await act(t, decline, "decline", canceled.id, { reason: "too late" })).body).toMatchObject({ status: 409, code: "invalid_transition", current_status: "canceled" });

    const pending = await offer(t, [b!]);
    for (const json of [{}, { reason: "  no  " }, { reason: "x".repeat(501) }, { reason: "fine", other: 1 }]) {
      const bad = await act(t, decline, "decline", pending.id, json);
      expect(bad.status, JSON.stringify(json)).toBe(400);
    }
    expect((await db().assignment.findUniqueOrThrow({ where: { id: pending.id } })).status).toBe("pending");
    expect((await act(t, decline, "decline", pending.id, { reason: "x".repeat(500) })).body.status).toBe("declined");
  });
});

describe("POST /v1/assignments/{id}/buyback", () => {
  it("buys contracts back: active, no assignment_id, later payments the originator's; totals, events, audit; the last one → bought_back", async () => {
    const t = await creditTenant();
    const [a, b] = (await contractsOf(t, 2)).sort();
    const settled = await sold(t, [a!, b!], { discount_rate: "0.02" });
    // A payment before the buyback is the assignee's.
    expect(await payCharge(t, a!)).toMatchObject({ assignment_id: settled.id });

    const expectedA = await presentValue(a!, "0.02"); // the assignment's discount rate, today, on what is open now
    const res = await act(t, buyback, "buyback", settled.id, { contract_ids: [a], reason: " Fraud found in the borrower's documents " });
    expect(res.status, res.text).toBe(200);
    const reason = "Fraud found in the borrower's documents";
    expect(res.body).toEqual({
      ...settled,
      status: "settled",
      bought_back: { count: 1, amount: expectedA },
      contracts: settled.contracts.map((c: { contract_id: string }) =>
        c.contract_id === a ? { ...c, bought_back_at: expect.any(String), buyback_price: expectedA, buyback_reason: reason } : c,
      ),
      updated_at: expect.any(String),
    });
    expect(expectedA).toBeGreaterThan(0);
    expect(await assignmentOf(t, settled.id)).toEqual(res.body);

    const contract = await contractOf(t, a!);
    expect(contract).toMatchObject({ status: "active", assignment_id: null });
    expect(await contractOf(t, b!)).toMatchObject({ status: "assigned", assignment_id: settled.id });
    // The row stays listed, no longer live: the contract is the originator's, free to be offered again.
    expect(await db().assignmentContract.findUniqueOrThrow({ where: { assignmentId_contractId: { assignmentId: settled.id, contractId: a! } } })).toMatchObject({
      live: false,
      removedAt: null,
      boughtBackAt: expect.any(Date),
      buybackPrice: BigInt(expectedA),
      buybackReason: reason,
    });

    const boughtBack = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "contract.bought_back" } });
    expect(boughtBack.map((e) => e.payload)).toEqual([{ ...contract, previous_assignment_id: settled.id, buyback_price: expectedA, reason }]);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "assignment.status_changed" } })).toBe(1); // the settle's only
    expect(await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "contract.bought_back", targetId: a } })).toMatchObject({
      targetType: "contract",
      metadata: { from: "assigned", to: "active", assignment_id: settled.id, price: expectedA, reason },
    });
    expect(await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "assignment.contracts_bought_back", targetId: settled.id } })).toMatchObject({
      targetType: "assignment",
      metadata: { from: "settled", to: "settled", contract_ids: [a], amount: expectedA, reason },
    });

    // Later payments: the bought-back contract's are the originator's, the other's still the assignee's.
    expect(await payCharge(t, a!)).toMatchObject({ assignment_id: null });
    expect(await payCharge(t, b!)).toMatchObject({ assignment_id: settled.id });
    const payoff = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: a, type: "full", payment_method: "received" } });
    expect(payoff.status, payoff.text).toBe(201);
    expect(await db().payment.findUniqueOrThrow({ where: { id: payoff.body.payment_id } })).toMatchObject({ assignmentId: null });

    // The last one, at a price: the assignment is bought back.
    const last = await act(t, buyback, "buyback", settled.id, { contract_ids: [b], reason: "Coobrigação: borrower in default", price: 12345 });
    expect(last.status, last.text).toBe(200);
    expect(last.body).toMatchObject({ status: "bought_back", bought_back: { count: 2, amount: expectedA + 12345 }, bought_back_at: expect.any(String) });
    expect(last.body.contracts.find((c: { contract_id: string }) => c.contract_id === b)).toMatchObject({ buyback_price: 12345, buyback_reason: "Coobrigação: borrower in default" });
    expect(last.body).toMatchObject({ contract_count: settled.contract_count, face_value: settled.face_value, price: settled.price });
    const changed = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "assignment.status_changed" }, orderBy: { createdAt: "asc" } });
    expect(changed.map((e) => (e.payload as { status: string; previous_status: string }).status)).toEqual(["settled", "bought_back"]);
    expect(changed[1]!.payload).toEqual({ ...last.body, previous_status: "settled" });
    expect(await contractOf(t, b!)).toMatchObject({ status: "active", assignment_id: null });
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.bought_back" } })).toBe(2);

    // Final: another buyback is 409 invalid_transition; the contract still open may be offered again.
    expect((await act(t, buyback, "buyback", settled.id, { contract_ids: [b], reason: "again" })).body).toMatchObject({ status: 409, code: "invalid_transition", current_status: "bought_back", allowed_actions: [] });
    expect((await offer(t, [b!])).status).toBe("pending");
  });

  it("by default, an assignment sold at a price is bought back at each contract's own monthly rate; a total price is shared by open face value", async () => {
    const t = await creditTenant();
    const [a, b, c] = (await contractsOf(t, 3)).sort();
    const settled = await sold(t, [a!, b!, c!], { price: 500_000 });
    const rate = (await contractOf(t, a!)).monthly_rate as string;
    const expectedA = await presentValue(a!, rate);
    const one = await act(t, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Defect in the CCB" });
    expect(one.body.bought_back).toEqual({ count: 1, amount: expectedA });
    // Shared in contract id order (whatever the request's order: the same contracts get the same shares).
    const shares = shareProportionally(1001, [await openFace(b!), await openFace(c!)]);
    const two = await act(t, buyback, "buyback", settled.id, { contract_ids: [c, b], reason: "Defect in the CCB", price: 1001 });
    expect(two.status, two.text).toBe(200);
    const priceOf = (id: string) => two.body.contracts.find((x: { contract_id: string }) => x.contract_id === id).buyback_price;
    expect([priceOf(b!), priceOf(c!)]).toEqual(shares);
    expect(two.body).toMatchObject({ status: "bought_back", bought_back: { count: 3, amount: expectedA + 1001 } });
    // A price of 0 is taken (a buyback the assignee waives).
    const [d] = await contractsOf(t, 1);
    const other = await sold(t, [d!]);
    expect((await act(t, buyback, "buyback", other.id, { contract_ids: [d], reason: "waived", price: 0 })).body).toMatchObject({ status: "bought_back", bought_back: { count: 1, amount: 0 } });
  });

  it("refuses — changing nothing — a contract not in it, repeated, of another tenant, closed, written off or already bought back; a pending one; bad bodies", async () => {
    const t = await creditTenant();
    const [a, b, c, d] = (await contractsOf(t, 4)).sort();
    const settled = await sold(t, [a!, b!, c!]);
    const pending = await offer(t, [d!]);
    const other = await creditTenant();
    const [foreign] = await contractsOf(other, 1);
    // c closed by its borrower after the sale (its payoff the assignee's money).
    const payoff = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: c, type: "full", payment_method: "received" } });
    expect(payoff.status, payoff.text).toBe(201);
    const before = await snapshot(t, settled.id);
    const pendingBefore = await snapshot(t, pending.id);
    const refused = async (json: Record<string, unknown>, status: number, expected: Record<string, unknown>, id = settled.id) => {
      const res = await act(t, buyback, "buyback", id, { reason: "Fraud found", ...json });
      expect(res.status, res.text).toBe(status);
      expect(res.body).toMatchObject(expected);
      expect(await snapshot(t, settled.id)).toEqual(before);
      expect(await snapshot(t, pending.id)).toEqual(pendingBefore);
      return res.body;
    };

    expect(await refused({ contract_ids: [a, d] }, 409, { code: "contract_not_assigned" })).toEqual(
      problem("contract_not_assigned", 409, "The contract is not assigned to this assignment", `Contract ${d} is not in assignment ${settled.id}`, { contract_id: d, current_status: "active", assignment_id: null }),
    );
    expect(await refused({ contract_ids: [a, c] }, 409, { code: "contract_not_assigned" })).toEqual(
      problem("contract_not_assigned", 409, "The contract is not assigned to this assignment", `Contract ${c} is settled: only contracts still assigned to assignment ${settled.id} are bought back`, {
        contract_id: c,
        current_status: "settled",
        assignment_id: settled.id,
      }),
    );
    expect((await refused({ contract_ids: [a, a] }, 400, { code: "validation_error" })).errors).toEqual([{ param: "contract_ids", in: "body", message: "Must not repeat a contract" }]);
    expect((await refused({ contract_ids: [a, foreign] }, 400, { code: "validation_error" })).errors).toEqual([{ param: "contract_ids.1", in: "body", message: "Not a contract of this environment" }]);
    await refused({ contract_ids: [] }, 400, { code: "validation_error" });
    await refused({ contract_ids: [a], price: -1 }, 400, { code: "validation_error" });
    await refused({ contract_ids: [a], price: 10.5 }, 400, { code: "validation_error" });
    await refused({ contract_ids: [a], reason: " " }, 400, { code: "validation_error" });
    expect((await act(t, buyback, "buyback", settled.id, { contract_ids: [a] })).status).toBe(400); // no reason
    await refused({ contract_ids: [d] }, 409, { code: "invalid_transition", current_status: "pending", action: "buyback", allowed_actions: ["settle", "cancel", "decline"] }, pending.id);

    // Written off while assigned (not through the API, which refuses it: the data of an older release).
    await db().contract.update({ where: { id: b }, data: { status: "written_off" } });
    const writtenOff = await snapshot(t, settled.id);
    const res = await act(t, buyback, "buyback", settled.id, { contract_ids: [a, b], reason: "Fraud found" });
    expect(res.body).toMatchObject({ status: 409, code: "contract_not_assigned", contract_id: b, current_status: "written_off" });
    expect(await snapshot(t, settled.id)).toEqual(writtenOff);
    await db().contract.update({ where: { id: b }, data: { status: "assigned" } });

    // Bought back already: 409, and the assignment — c closed, the assignee's to the end — stays settled.
    expect((await act(t, buyback, "buyback", settled.id, { contract_ids: [a, b], reason: "Fraud found" })).body).toMatchObject({ status: "settled", bought_back: { count: 2 } });
    const done = await snapshot(t, settled.id);
    const again = await act(t, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Fraud found" });
    expect(again.body).toMatchObject({ status: 409, code: "contract_not_assigned", contract_id: a, current_status: "active" });
    expect(await snapshot(t, settled.id)).toEqual(done);
  });

  it("another tenant's assignment and the other environment's are 404; without assignments:write 403; nothing changes", async () => {
    const t = await creditTenant();
    const [a, b] = await contractsOf(t, 2);
    const settled = await sold(t, [a!]);
    const pending = await offer(t, [b!]);
    // The keys first: making one is audited.
    const live = { ...t, base: PRODUCTION, headers: bearer((await newKey(t.tenant.id, "production", ["read", "write"])).key, t.tenant.id) };
    const reader = bearer((await newKey(t.tenant.id, "sandbox", ["assignments:read", "contracts:read"])).key, t.tenant.id);
    const writer = bearer((await newKey(t.tenant.id, "sandbox", ["assignments:write"])).key, t.tenant.id);
    const before = [await snapshot(t, settled.id), await snapshot(t, pending.id)];
    const other = await creditTenant();
    expect((await act(other, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Fraud found" })).body).toEqual(problem("not_found", 404, "The resource was not found", "Assignment not found"));
    expect((await act(other, decline, "decline", pending.id, { reason: "not ours" })).body).toMatchObject({ status: 404, code: "not_found" });
    expect((await act(live, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Fraud found" })).status).toBe(404);
    expect((await act(live, decline, "decline", pending.id, { reason: "not here" })).status).toBe(404);
    expect((await act(t, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Fraud found" }, reader)).body).toMatchObject({ status: 403, code: "insufficient_permissions" });
    expect((await act(t, decline, "decline", pending.id, { reason: "no way" }, reader)).body).toMatchObject({ status: 403, code: "insufficient_permissions" });
    expect([await snapshot(t, settled.id), await snapshot(t, pending.id)]).toEqual(before);
    expect((await act(t, decline, "decline", pending.id, { reason: "declined" }, writer)).body.status).toBe("declined");
  });

  it("a replay with the same X-Request-Id answers the same and applies once (buyback and decline)", async () => {
    const t = await creditTenant();
    const [a, b, c] = await contractsOf(t, 3);
    const settled = await sold(t, [a!, b!]);
    const headers = { ...t.headers, "x-request-id": crypto.randomUUID() };
    const first = await act(t, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Fraud found" }, headers);
    const second = await act(t, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Fraud found" }, headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.bought_back" } })).toBe(1);
    expect(await db().auditLog.count({ where: { tenantId: t.tenant.id, action: "contract.bought_back" } })).toBe(1);
    expect(await db().auditLog.count({ where: { tenantId: t.tenant.id, action: "assignment.contracts_bought_back" } })).toBe(1);
    // The same key with another body is 422; a new key runs again (and is refused: bought back already).
    expect((await act(t, buyback, "buyback", settled.id, { contract_ids: [b], reason: "Fraud found" }, headers)).body).toMatchObject({ status: 422, code: "idempotency_key_reused" });
    expect((await act(t, buyback, "buyback", settled.id, { contract_ids: [a], reason: "Fraud found" })).body).toMatchObject({ status: 409, code: "contract_not_assigned" });

    const pending = await offer(t, [c!]);
    const key = { ...t.headers, "x-request-id": crypto.randomUUID() };
    const d1 = await act(t, decline, "decline", pending.id, { reason: "declined" }, key);
    const d2 = await act(t, decline, "decline", pending.id, { reason: "declined" }, key);
    expect(d2.body).toEqual(d1.body);
    expect(d2.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().auditLog.count({ where: { tenantId: t.tenant.id, action: "assignment.declined" } })).toBe(1);
  });

  it("two buybacks racing for the last contracts: both apply, the assignment ends bought_back once, with one status change", async () => {
    const t = await creditTenant();
    const ids = (await contractsOf(t, 3)).sort();
    const settled = await sold(t, ids);
    const results = await Promise.all([[ids[0]], [ids[1], ids[2]]].map((contract_ids) => act(t, buyback, "buyback", settled.id, { contract_ids, reason: "Fraud found" })));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.status).sort()).toEqual(["bought_back", "settled"]);
    expect(await assignmentOf(t, settled.id)).toMatchObject({ status: "bought_back", bought_back: { count: 3 } });
    const changed = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "assignment.status_changed" } });
    expect(changed.map((e) => (e.payload as { status: string }).status).sort()).toEqual(["bought_back", "settled"]);
    // The same contract in two racing buybacks: exactly one buys it.
    const [x] = await contractsOf(t, 1);
    const again = await sold(t, [x!]);
    const racing = await Promise.all([1, 2, 3].map(() => act(t, buyback, "buyback", again.id, { contract_ids: [x], reason: "Fraud found" })));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.bought_back", payload: { path: ["id"], equals: x } } })).toBe(1);
  });
});
