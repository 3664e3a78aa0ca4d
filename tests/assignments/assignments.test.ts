import { describe, expect, it } from "vitest";
import { POST as cancelAssignment } from "@/app/v1/assignments/[id]/cancel/route";
import { GET as getAssignment } from "@/app/v1/assignments/[id]/route";
import { POST as settleAssignment } from "@/app/v1/assignments/[id]/settle/route";
import { POST as createAssignment, GET as listAssignments } from "@/app/v1/assignments/route";
import { POST as createCharge } from "@/app/v1/charges/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as cancelContract } from "@/app/v1/contracts/[id]/cancel/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { todayInBrazil } from "@/lib/clock";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { withdrawalEndsOn } from "@/lib/contracts/withdrawal";
import { db } from "@/lib/db/client";
import { addDays, addMonths, formatReais, payoffLines, shareProportionally } from "@/lib/finance";
import { centavos, isoDate } from "@/lib/serialize";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";

// Portfolio assignment through /v1 on the sandbox: pricing at a discount rate (against the finance library)
// and at a price, every forbidden case, settle (contracts assigned, receipts the assignee's), cancel, races,
// isolation and permissions.

const ASSIGNEE = { name: "Fundo Alfa FIDC", document: "11.222.333/0001-81" };
const post = (t: CreditTenant, json: unknown, headers = t.headers) => call(createAssignment, { base: t.base, path: "/v1/assignments", headers, json });
const act = (t: CreditTenant, handler: typeof settleAssignment, id: string, json?: unknown) => call(handler, { base: t.base, path: `/v1/assignments/${id}/x`, headers: t.headers, params: { id }, json });

async function openRows(contractId: string) {
  const rows = await db().installment.findMany({ where: { contractId, status: { in: ["open", "partially_paid"] } }, orderBy: [{ dueDate: "asc" }, { number: "asc" }] });
  return rows.map((r) => ({ number: r.number, due_date: isoDate(r.dueDate), payment: centavos(r.amount) - centavos(r.paidAmount) }));
}

describe("assignments", () => {
  it("at a discount rate: each contract at the present value of its open installments on the settlement date", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 2);
    const res = await post(t, { assignee: ASSIGNEE, contract_ids: ids, discount_rate: "0.0150" });
    expect(res.status, res.text).toBe(201);
    const expected = await Promise.all(
      ids.map(async (id) => {
        const rows = await openRows(id);
        return { contract_id: id, face_value: rows.reduce((s, r) => s + r.payment, 0), price: payoffLines("0.0150", todayInBrazil(), rows).reduce((s, l) => s + l.present_value, 0), bought_back_at: null, buyback_price: null, buyback_reason: null };
      }),
    );
    const face = expected.reduce((s, c) => s + c.face_value, 0);
    const price = expected.reduce((s, c) => s + c.price, 0);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^asg_/),
      object: "assignment",
      status: "pending",
      assignee: { name: "Fundo Alfa FIDC", document: "11222333000181" },
      settlement_date: todayInBrazil(),
      pricing: { method: "discount_rate", discount_rate: "0.0150" },
      face_value: face,
      price,
      discount: face - price,
      contract_count: 2,
      bought_back: { count: 0, amount: 0 },
      contracts: [...expected].sort((a, b) => (a.contract_id < b.contract_id ? -1 : 1)),
      cancel_reason: null,
      settled_at: null,
      canceled_at: null,
      decline_reason: null,
      declined_at: null,
      bought_back_at: null,
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(price).toBeLessThan(face);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "assignment.created" } })).toBe(1);
  });

  it("at a price: shared in proportion to open face value, adding up exactly", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 3);
    const res = await post(t, { assignee: ASSIGNEE, contract_ids: ids, price: 1_000_001 });
    expect(res.status, res.text).toBe(201);
    const faces = await Promise.all(ids.map(async (id) => (await openRows(id)).reduce((s, r) => s + r.payment, 0)));
    const shares = shareProportionally(1_000_001, faces);
    const byId = new Map(res.body.contracts.map((c: { contract_id: string; price: number }) => [c.contract_id, c.price]));
    expect(ids.map((id) => byId.get(id))).toEqual(shares);
    expect(res.body).toMatchObject({ price: 1_000_001, pricing: { method: "price", discount_rate: null } });
  });

  it("settle: contracts assigned; still collected and paid off early, receipts marked for the assignee; cancel then 409", async () => {
    const t = await creditTenant();
    const [id] = await contractsOf(t, 1);
    const made = (await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate: "0.02" })).body;
    const settled = await act(t, settleAssignment, made.id);
    expect(settled.body).toMatchObject({ status: "settled", settled_at: expect.any(String) });
    const contract = (await call(getContract, { base: t.base, path: `/v1/contracts/${id}`, headers: t.headers, params: { id: id! } })).body;
    expect(contract).toMatchObject({ status: "assigned", assignment_id: made.id });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { in: ["contract.assigned", "assignment.status_changed"] } } });
    expect(events.map((e) => e.type).sort()).toEqual(["assignment.status_changed", "contract.assigned"]);
    const assignedAudit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "contract.assigned", targetId: id } });
    expect(assignedAudit).toMatchObject({ targetType: "contract", metadata: { from: "active", to: "assigned", assignment_id: made.id } });
    expect((events.find((e) => e.type === "assignment.status_changed")!.payload as { previous_status: string }).previous_status).toBe("pending");

    const charge = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: id, method: "pix" } });
    expect(charge.status, charge.text).toBe(201);
    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.body.id}/pay`, headers: t.headers, params: { id: charge.body.id }, json: {} });
    expect(paid.body.payment).toMatchObject({ assignment_id: made.id, amount: charge.body.amount });

    // The borrower's right to pay off early with the discount (CDC art. 52 §2) survives the sale: the payoff is the
    // assignee's money, marked so.
    const settle = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: id, type: "full", payment_method: "received" } });
    expect(settle.status, settle.text).toBe(201);
    expect(settle.body).toMatchObject({ status: "completed", payment_id: expect.any(String) });
    expect(await db().payment.findUniqueOrThrow({ where: { id: settle.body.payment_id } })).toMatchObject({ assignmentId: made.id, settlementId: settle.body.id });
    const closed = (await call(getContract, { base: t.base, path: `/v1/contracts/${id}`, headers: t.headers, params: { id: id! } })).body;
    expect(closed).toMatchObject({ status: "settled", assignment_id: made.id, outstanding_balance: 0 });
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "contract.closed", targetId: id } });
    expect(audit.metadata).toMatchObject({ from: "assigned", to: "settled" });
    expect((await act(t, cancelAssignment, made.id, {})).body).toMatchObject({ status: 409, code: "invalid_transition" });
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [id], price: 100 })).body).toMatchObject({ status: 409, code: "contract_not_active" });
  });

  it("refuses contracts in a live assignment, with a pending settlement, settled, or unknown", async () => {
    const t = await creditTenant();
    const [a, b, c] = await contractsOf(t, 3);
    const first = (await post(t, { assignee: ASSIGNEE, contract_ids: [a], price: 5000 })).body;
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [b, a], price: 5000 })).body).toMatchObject({ status: 409, code: "conflict", contract_id: a, assignment_id: first.id });
    // A contract on offer is still settled by its borrower: it leaves the offer (tests/assignments/leave-offer.test.ts).

    const pending = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: b, type: "full", payment_method: "boleto" } });
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [b], price: 5000 })).body).toMatchObject({ status: 409, code: "conflict", settlement_id: pending.body.id });
    await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: c, type: "full", payment_method: "received" } });
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [c], price: 5000 })).body).toMatchObject({ status: 409, code: "contract_not_active", current_status: "settled" });

    const other = await creditTenant();
    const [foreign] = await contractsOf(other, 1);
    const unknown = await post(t, { assignee: ASSIGNEE, contract_ids: [foreign], price: 5000 });
    expect(unknown.body.errors).toEqual([{ param: "contract_ids.0", in: "body", message: "Not a contract of this environment" }]);
    const badCnpj = await post(t, { assignee: { ...ASSIGNEE, document: "11.222.333/0001-82" }, contract_ids: [foreign], price: 5000 });
    expect(badCnpj.body).toMatchObject({ status: 400, code: "invalid_document" });
    const both = await post(t, { assignee: ASSIGNEE, contract_ids: [a], price: 5000, discount_rate: "0.01" });
    expect(both.body.errors).toEqual([{ param: "discount_rate", in: "body", message: "Send exactly one of discount_rate and price" }]);
    expect(await db().assignment.count({ where: { tenantId: t.tenant.id } })).toBe(1);

    // Canceled: its contract is free again.
    expect((await act(t, cancelAssignment, first.id, { reason: "assignee withdrew" })).body).toMatchObject({ status: "canceled", cancel_reason: "assignee withdrew" });
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [a], price: 5000 })).status).toBe(201);
  });

  it("settle refuses a contract paid since the assignment was priced (409): it is priced again, never sold for money already collected", async () => {
    const t = await creditTenant();
    const [id] = await contractsOf(t, 1);
    const made = (await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate: "0.02" })).body;
    const charge = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: id, method: "pix" } })).body;
    expect((await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.id}/pay`, headers: t.headers, params: { id: charge.id }, json: {} })).status).toBe(200);
    const res = await act(t, settleAssignment, made.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "conflict", contract_id: id, priced_face_value: made.face_value });
    expect(res.body.face_value).toBeLessThan(made.face_value);
    expect((await call(getAssignment, { base: t.base, path: `/v1/assignments/${made.id}`, headers: t.headers, params: { id: made.id } })).body.status).toBe("pending");
  });

  it("refuses a contract holding the borrower's credit, at offer and at settle (the payoff would net it: the assignee paid short)", async () => {
    const t = await creditTenant();
    const [held, later] = await contractsOf(t, 2);
    await db().contract.update({ where: { id: held }, data: { creditBalance: 500n } });
    const refused = await post(t, { assignee: ASSIGNEE, contract_ids: [held], discount_rate: "0.02" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "conflict", contract_id: held, credit_balance: 500 });
    const made = (await post(t, { assignee: ASSIGNEE, contract_ids: [later], discount_rate: "0.02" })).body;
    await db().contract.update({ where: { id: later }, data: { creditBalance: 700n } });
    const settle = await act(t, settleAssignment, made.id);
    expect(settle.body).toMatchObject({ status: 409, code: "conflict", contract_id: later, credit_balance: 700 });
    expect(await db().assignment.count({ where: { tenantId: t.tenant.id } })).toBe(1);
    expect((await db().contract.findUniqueOrThrow({ where: { id: later } })).status).toBe("active");
  });

  it("a price above the contracts' open face value is 400, nothing offered; the face value itself is taken", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 2);
    const face = (await Promise.all(ids.map(async (id) => (await openRows(id)).reduce((s, r) => s + r.payment, 0)))).reduce((a, b) => a + b, 0);
    const over = await post(t, { assignee: ASSIGNEE, contract_ids: ids, price: face + 1 });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([{ param: "price", in: "body", message: `Must not exceed the contracts' open face value (${formatReais(face)} BRL)` }]);
    expect(await db().assignment.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: ids, price: face })).status).toBe(201);
  });

  it("a discount rate above 1 (100% a month) is 400", async () => {
    const t = await creditTenant();
    const [id] = await contractsOf(t, 1);
    // The published pattern says so too (a client validating against the OpenAPI document refuses them first).
    for (const discount_rate of ["9.5", "1.0001", "1.5", "2"]) {
      const res = await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate });
      expect(res.body.errors, discount_rate).toEqual([{ param: "discount_rate", in: "body", message: 'Must be a rate from 0 to 1 with up to 8 decimals, e.g. "0.0150"' }]);
    }
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate: "1.00" })).status).toBe(201);
  });

  it("refuses a contract still in the borrower's 7-day withdrawal period (409, nothing offered): sold, it could no longer be withdrawn", async () => {
    const t = await creditTenant();
    const today = todayInBrazil();
    const { proposal } = await signedProposal(t, { disbursement_date: today, first_due_date: addMonths(today, 1) });
    const fresh = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body.id as string;
    const [old] = await contractsOf(t, 1);
    const res = await post(t, { assignee: ASSIGNEE, contract_ids: [old, fresh], discount_rate: "0.01" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: "conflict",
      contract_id: fresh,
      withdrawal_ends_on: withdrawalEndsOn(today), // 7 days, to the next business day (lib/contracts/withdrawal.test.ts)
      detail: `Contract ${fresh} is in the borrower's withdrawal period until ${withdrawalEndsOn(today)}: it can be assigned from the next day`,
    });
    expect(await db().assignment.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    // An offer made before this rule (written here in SQL) still stops the withdrawal: cancel the assignment first.
    const asg = `asg_${"0".repeat(20)}${fresh.slice(-6)}`;
    await db().$executeRaw`INSERT INTO assignments (id, tenant_id, environment, assignee_name, assignee_document, status, settlement_date, pricing_method, price, face_value, contract_count, created_at, updated_at)
      VALUES (${asg}, ${t.tenant.id}, 'sandbox', 'Fundo Alfa FIDC', '11222333000181', 'pending', ${new Date(`${today}T00:00:00Z`)}, 'price', 100, 100, 1, now(), now())`;
    await db().$executeRaw`INSERT INTO assignment_contracts (assignment_id, contract_id, tenant_id, environment, face_value, price, live) VALUES (${asg}, ${fresh}, ${t.tenant.id}, 'sandbox', 100, 100, true)`;
    const cancel = () => call(cancelContract, { base: t.base, path: `/v1/contracts/${fresh}/cancel`, headers: t.headers, params: { id: fresh }, json: { reason: "withdrawal" } });
    const blocked = await cancel();
    expect(blocked.body).toMatchObject({ status: 409, code: "conflict", assignment_id: asg });
    await db().$executeRaw`UPDATE assignment_contracts SET live = false WHERE assignment_id = ${asg}`;
    await db().$executeRaw`UPDATE assignments SET status = 'canceled' WHERE id = ${asg}`;
    // The borrower still withdraws it.
    expect((await cancel()).body).toMatchObject({ status: "canceled" });
  });

  it("an offer dated more than 30 days ahead is 400 (it would hold its contracts from early payoff until then), 30 days is taken", async () => {
    const t = await creditTenant();
    const [id] = await contractsOf(t, 1);
    const latest = addDays(todayInBrazil(), 30);
    const far = await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate: "0.015", settlement_date: "2199-12-31" });
    expect(far.status).toBe(400);
    expect(far.body.errors).toEqual([{ param: "settlement_date", in: "body", message: `Must be on or before ${latest} (30 days from today): the offer holds its contracts until then` }]);
    expect(await db().assignment.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate: "0.015", settlement_date: latest })).status).toBe(201);
  });

  it("lapses: settling past its date and clearing days is 409, and the collection job cancels it, freeing its contracts", async () => {
    const t = await creditTenant();
    const [id] = await contractsOf(t, 1);
    const made = (await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate: "0.02" })).body;
    await db().assignment.update({ where: { id: made.id }, data: { settlementDate: new Date("2026-11-02T00:00:00Z") } });
    const late = await act(t, settleAssignment, made.id);
    expect(late.body).toMatchObject({ status: 409, code: "invalid_transition", detail: "Its settlement date (2026-11-02) has passed: cancel it and make a new one" });
    const result = await runCollectionJob();
    expect(result.lapsedAssignments).toBeGreaterThanOrEqual(1);
    const after = (await call(getAssignment, { base: t.base, path: `/v1/assignments/${made.id}`, headers: t.headers, params: { id: made.id } })).body;
    expect(after).toMatchObject({ status: "canceled", cancel_reason: "lapsed: not settled by its date" });
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "assignment.canceled" } });
    expect(audit).toMatchObject({ actorType: "system", actorLabel: "collection job" });
    // Free again: offered anew.
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [id], discount_rate: "0.02" })).status).toBe(201);
  });

  it("two racing assignments of one contract: exactly one is made", async () => {
    const t = await creditTenant();
    const [a] = await contractsOf(t, 1);
    const results = await Promise.all([1, 2, 3].map(() => post(t, { assignee: ASSIGNEE, contract_ids: [a], price: 5000 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await db().assignmentContract.count({ where: { contractId: a, live: true } })).toBe(1);
  });

  it("a list page embeds at most 1,000 contracts in all: it ends early with has_more, the cursor going on from the last one shown", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 3);
    const made: string[] = [];
    for (const id of ids) made.push((await post(t, { assignee: ASSIGNEE, contract_ids: [id], price: 5000 })).body.id);
    const [oldest, middle, newest] = made;
    // Offers of 600, 401 and 1 contracts, as far as the budget reads them (their counts; each here holds one contract).
    for (const [id, count] of [[newest, 600], [middle, 401], [oldest, 1]] as const) await db().assignment.update({ where: { id }, data: { contractCount: count } });
    const list = (path: string) => call(listAssignments, { base: t.base, path, headers: t.headers });
    const first = await list("/v1/assignments?limit=3");
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([newest]);
    expect(first.body.data[0].contracts).toEqual([{ contract_id: ids[2], face_value: expect.any(Number), price: 5000, bought_back_at: null, buyback_price: null, buyback_reason: null }]);
    expect(first.body.has_more).toBe(true);
    const second = await list(`/v1/assignments?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((x: { id: string; contracts: { contract_id: string }[] }) => [x.id, x.contracts.map((c) => c.contract_id)])).toEqual([[middle, [ids[1]]], [oldest, [ids[0]]]]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    // 999 + 1 fill the 1,000 exactly: the oldest goes to the next page.
    await db().assignment.update({ where: { id: newest }, data: { contractCount: 999 } });
    await db().assignment.update({ where: { id: middle }, data: { contractCount: 1 } });
    expect((await list("/v1/assignments?limit=3")).body.data.map((x: { id: string }) => x.id)).toEqual([newest, middle]);
  });

  it("isolation and permissions", async () => {
    const t = await creditTenant();
    const [a] = await contractsOf(t, 1);
    const made = (await post(t, { assignee: ASSIGNEE, contract_ids: [a], price: 5000 })).body;
    const other = await creditTenant();
    expect((await call(getAssignment, { base: other.base, path: `/v1/assignments/${made.id}`, headers: other.headers, params: { id: made.id } })).status).toBe(404);
    expect((await act(other, settleAssignment, made.id)).status).toBe(404);
    expect((await act(other, cancelAssignment, made.id, {})).status).toBe(404);
    expect((await call(listAssignments, { base: other.base, path: "/v1/assignments", headers: other.headers })).body.data).toEqual([]);
    const live = { ...t, base: PRODUCTION, headers: bearer((await newKey(t.tenant.id, "production", ["read", "write"])).key, t.tenant.id) };
    expect((await call(getAssignment, { base: PRODUCTION, path: `/v1/assignments/${made.id}`, headers: live.headers, params: { id: made.id } })).status).toBe(404);
    expect((await act(live, settleAssignment, made.id)).status).toBe(404);
    expect((await call(listAssignments, { base: PRODUCTION, path: "/v1/assignments", headers: live.headers })).body.data).toEqual([]);
    const sandboxContract = await post(live, { assignee: ASSIGNEE, contract_ids: [a], price: 5000 });
    expect(sandboxContract.body.errors).toEqual([{ param: "contract_ids.0", in: "body", message: "Not a contract of this environment" }]);
    const reader = await newKey(t.tenant.id, "sandbox", ["assignments:read"]);
    expect((await post(t, { assignee: ASSIGNEE, contract_ids: [a], price: 5000 }, bearer(reader.key, t.tenant.id))).status).toBe(403);
    const listed = await call(listAssignments, { base: t.base, path: "/v1/assignments?status=pending", headers: bearer(reader.key, t.tenant.id) });
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([made.id]);
    expect((await db().assignment.findUniqueOrThrow({ where: { id: made.id } })).status).toBe("pending");
  });
});
