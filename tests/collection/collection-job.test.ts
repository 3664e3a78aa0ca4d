import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { GET as getPayment } from "@/app/v1/payments/[id]/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { amountsDue } from "@/lib/collection/allocation";
import { allocatable } from "@/lib/collection/allocation";
import { todayInBrazil } from "@/lib/clock";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { db } from "@/lib/db/client";
import { isoDate } from "@/lib/serialize";
import { call } from "../helpers/http";
import { creditTenant, lateContractDates, signedProposal } from "../credit/flow-helpers";

// The collection job: Pix cob past its expiry → expired; charges past their due date → overdue; each
// installment unpaid after its due date → one installment.overdue event, however often the job runs.

describe("collection job", () => {
  it("expires, marks overdue, and announces each overdue installment once", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, lateContractDates());
    const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body;
    const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
    const pastDue = installments.filter((i) => i.dueDate.toISOString().slice(0, 10) < todayInBrazil());
    expect(pastDue.length).toBeGreaterThan(0);

    const charge = (json: unknown) => call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json }).then((r) => r.body as { id: string });
    const cob = await charge({ contract_id: contract.id, method: "pix", pix: { kind: "cob", expires_in: 60 } });
    const boleto = await charge({ contract_id: contract.id, method: "boleto", installment_ids: [installments[1]!.id] });
    await db().charge.update({ where: { id: cob.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await db().charge.update({ where: { id: boleto.id }, data: { dueDate: new Date("2026-05-01T00:00:00Z") } });

    await runCollectionJob();
    const statuses = await db().charge.findMany({ where: { id: { in: [cob.id, boleto.id] } }, orderBy: { createdAt: "asc" } });
    expect(statuses.map((c) => c.status)).toEqual(["expired", "overdue"]);
    const events = async (type: string) => db().outboxEvent.count({ where: { tenantId: t.tenant.id, type } });
    expect({ expired: await events("charge.expired"), overdue: await events("charge.overdue"), installments: await events("installment.overdue") }).toEqual({
      expired: 1,
      overdue: 1,
      installments: pastDue.length,
    });
    const marked = await db().installment.findMany({ where: { contractId: contract.id, overdueAt: { not: null } } });
    expect(marked.map((i) => i.id).sort()).toEqual(pastDue.map((i) => i.id).sort());

    await runCollectionJob();
    expect({ expired: await events("charge.expired"), overdue: await events("charge.overdue"), installments: await events("installment.overdue") }).toEqual({
      expired: 1,
      overdue: 1,
      installments: pastDue.length,
    });
  });
});

describe("collection job: the contract's credit pays what falls due", () => {
  const LATE = { fineRate: "0.02", monthlyLateInterestRate: "0.01" }; // inss_payroll's late rules (lib/products.ts)

  async function contractWithCredit() {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, lateContractDates());
    const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body as { id: string };
    const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
    const charge = (json: unknown) => call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json }).then((r) => r.body as { id: string; amount: number });
    return { t, contract, installments, charge };
  }

  it("before anything is marked overdue: oldest first with its late charges, one contract_credit payment, a charge it covered canceled; once", async () => {
    const { t, contract, installments, charge } = await contractWithCredit();
    const today = todayInBrazil();
    const [first, second, third] = installments;
    expect(isoDate(third!.dueDate) < today).toBe(true);
    const secondsCharge = await charge({ contract_id: contract.id, method: "boleto", installment_ids: [second!.id] });
    const firstsCharge = await charge({ contract_id: contract.id, method: "pix", installment_ids: [first!.id], due_date: today });
    // The first installment's charge is paid with the second's whole amount due today and R$ 5,00 more.
    const dueSecond = amountsDue(allocatable(second!), LATE, today);
    const extra = dueSecond.total + 500;
    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${firstsCharge.id}/pay`, headers: t.headers, json: { amount: firstsCharge.amount + extra }, params: { id: firstsCharge.id } });
    expect(paid.body.payment.credit).toBe(extra);
    const before = (await call(getContract, { base: t.base, path: `/v1/contracts/${contract.id}`, headers: t.headers, params: { id: contract.id } })).body;
    expect(before.credit_balance).toBe(extra);
    const thirdsCharge = await charge({ contract_id: contract.id, method: "pix", installment_ids: [third!.id] }); // the credit will pay part of it

    const result = await runCollectionJob();
    expect(result.creditsApplied).toBeGreaterThanOrEqual(1); // other tests' contracts may have credits too
    const payments = await db().payment.findMany({ where: { contractId: contract.id, source: "contract_credit" } });
    expect(payments).toHaveLength(1);
    const dueThird = amountsDue(allocatable(third!), LATE, today);
    const take = (owed: number, left: { n: number }) => { const part = Math.min(owed, left.n); left.n -= part; return part; };
    const rest = { n: 500 };
    const thirdLine = { fine: take(dueThird.fine, rest), late_interest: take(dueThird.late_interest, rest), interest: take(dueThird.interest, rest), principal: take(dueThird.principal, rest) };
    const payment = (await call(getPayment, { base: t.base, path: `/v1/payments/${payments[0]!.id}`, headers: t.headers, params: { id: payments[0]!.id } })).body;
    expect(payment).toMatchObject({
      object: "payment",
      contract_id: contract.id,
      charge_id: null,
      source: "contract_credit",
      amount: extra,
      credit: 0,
      credit_applied: 0,
      allocations: [
        { installment_id: second!.id, number: 2, ...dueSecond, settles: true },
        { installment_id: third!.id, number: 3, ...thirdLine, total: 500, settles: false },
      ],
    });
    const event = await db().outboxEvent.findFirstOrThrow({ where: { tenantId: t.tenant.id, type: "contract.credit_applied" } });
    expect(event.payload).toEqual(payment);
    const after = (await call(getContract, { base: t.base, path: `/v1/contracts/${contract.id}`, headers: t.headers, params: { id: contract.id } })).body;
    expect(after).toMatchObject({
      status: "active",
      credit_balance: 0,
      amount_paid: before.amount_paid + extra,
      outstanding_balance: before.outstanding_balance - (dueSecond.interest + dueSecond.principal) - (thirdLine.interest + thirdLine.principal),
    });
    const rows = await db().installment.findMany({ where: { id: { in: [second!.id, third!.id] } }, orderBy: { number: "asc" } });
    expect(rows.map((r) => [r.status, r.overdueAt === null])).toEqual([["paid", true], ["partially_paid", false]]); // the third is still late: announced
    // The second's charge (installment paid) is canceled; the third's (paid only in part by the credit) stays payable: the
    // job applies credit on its own, and canceling a charge the borrower may be paying today would make that payment late.
    const charges = await db().charge.findMany({ where: { id: { in: [secondsCharge.id, thirdsCharge.id] } }, select: { id: true, status: true } });
    expect(Object.fromEntries(charges.map((c) => [c.id, c.status]))).toEqual({ [secondsCharge.id]: "canceled", [thirdsCharge.id]: "pending" });
    const cancelAudits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, action: "charge.canceled" } });
    expect(Object.fromEntries(cancelAudits.map((a) => [a.targetId, [a.actorLabel, a.metadata]]))).toEqual({
      [secondsCharge.id]: ["collection job", { from: "pending", to: "canceled", reason: `its installments were paid with the contract's credit (payment ${payment.id})` }],
    });
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "contract.credit_applied" } });
    expect(audit).toMatchObject({ actorType: "system", actorLabel: "collection job", metadata: { payment_id: payment.id, amount: extra, credit_before: extra, credit_after: 0 } });

    await runCollectionJob();
    expect(await db().payment.count({ where: { contractId: contract.id, source: "contract_credit" } })).toBe(1);
  });

  it("leaves installments not yet due alone: the credit waits for them", async () => {
    const { t, contract, installments, charge } = await contractWithCredit();
    const today = todayInBrazil();
    // What the job's credit would pay: every installment due by today (due today included), all paid here.
    const dueByToday = installments.filter((i) => isoDate(i.dueDate) <= today);
    expect(dueByToday.length).toBeGreaterThan(0);
    expect(installments.length).toBeGreaterThan(dueByToday.length); // and some not yet due, for the credit to wait for
    const all = await charge({ contract_id: contract.id, method: "pix", due_date: today, installment_ids: dueByToday.map((i) => i.id) });
    await call(pay, { base: t.base, path: `/v1/sandbox/charges/${all.id}/pay`, headers: t.headers, json: { amount: all.amount + 1000 }, params: { id: all.id } });
    await runCollectionJob();
    expect(await db().payment.count({ where: { contractId: contract.id, source: "contract_credit" } })).toBe(0);
    expect((await db().contract.findUniqueOrThrow({ where: { id: contract.id } })).creditBalance).toBe(1000n);
  });
});

describe("collection job: what changed while it ran, and charges it has seen before", () => {
  async function lateContract() {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, lateContractDates());
    const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body as { id: string };
    const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
    const charge = (json: unknown) => call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json }).then((r) => r.body as { id: string; amount: number });
    const payCharge = (id: string, json: unknown) => call(pay, { base: t.base, path: `/v1/sandbox/charges/${id}/pay`, headers: t.headers, params: { id }, json });
    return { t, contract, installments, charge, payCharge };
  }

  it("does not announce as overdue an installment paid after the job read it", async () => {
    const { t, installments } = await lateContract();
    const first = installments[0]!;
    // A payment holds the installment's row, uncommitted, while the job reads the batch and reaches that row.
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const payment = db().$transaction(
      async (tx) => {
        await tx.installment.update({ where: { id: first.id }, data: { status: "paid", paidAmount: first.amount, paidAt: new Date() } });
        held();
        await committed;
      },
      { timeout: 60_000 },
    );
    await holding;
    const job = runCollectionJob();
    // Wait until the job's update waits on the payment's row lock, then let the payment commit.
    const waiting = async () =>
      (await db().$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%UPDATE%installments%'`)[0]!.n;
    while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    commit();
    await payment;
    await job;
    expect((await db().installment.findUniqueOrThrow({ where: { id: first.id } })).overdueAt).toBeNull();
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "installment.overdue" } });
    expect(events.map((e) => (e.payload as { id: string }).id)).not.toContain(first.id);
    expect(events.length).toBe(installments.filter((i) => i.id !== first.id && i.dueDate.toISOString().slice(0, 10) < todayInBrazil()).length);
  });

  it("an overdue charge paid in part stays overdue and is announced once", async () => {
    const { t, contract, installments, charge, payCharge } = await lateContract();
    const boleto = await charge({ contract_id: contract.id, method: "boleto", installment_ids: [installments[0]!.id] });
    await db().charge.update({ where: { id: boleto.id }, data: { dueDate: new Date("2026-05-01T00:00:00Z") } });
    await runCollectionJob();
    const paid = await payCharge(boleto.id, { amount: 1000 });
    expect(paid.status).toBe(200);
    expect(paid.body.charge).toMatchObject({ status: "overdue", amount_paid: 1000 });
    await runCollectionJob();
    expect((await db().charge.findUniqueOrThrow({ where: { id: boleto.id } })).status).toBe("overdue");
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "charge.overdue" } })).toBe(1);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "charge.partially_paid" } })).toBe(1);
  });

  it("expires a Pix cob paid in part once its expiry passes; paying it then is refused", async () => {
    const { t, contract, installments, charge, payCharge } = await lateContract();
    const cob = await charge({ contract_id: contract.id, method: "pix", installment_ids: [installments[0]!.id], pix: { kind: "cob", expires_in: 3600 } });
    expect((await payCharge(cob.id, { amount: 1000 })).body.charge.status).toBe("partially_paid");
    await db().charge.update({ where: { id: cob.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refused = await payCharge(cob.id, { amount: 1000 });
    expect([refused.status, refused.body.code]).toEqual([409, "invalid_transition"]);
    await runCollectionJob();
    expect((await db().charge.findUniqueOrThrow({ where: { id: cob.id } })).status).toBe("expired");
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "charge.expired" } })).toBe(1);
    expect((await payCharge(cob.id, { amount: 1000 })).status).toBe(409);
  });
});
