import pg from "pg";
import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { todayInBrazil } from "@/lib/clock";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { payCharge } from "@/lib/collection/pay-charge";
import { db } from "@/lib/db/client";
import { addDays, addMonths } from "@/lib/finance";
import { call } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";
import { backendPid, untilBlockedBy } from "../helpers/lock-waits";

// What a charge's payment refuses, and what it records anyway when the money has already arrived (the provider's
// notification): an immediate Pix past its expiry before the job marked it, a payment dated before the charge
// existed, a charge with nothing left open on it.

async function chargeOf(t: CreditTenant, json: Record<string, unknown> = {}) {
  const { proposal } = await signedProposal(t, { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) });
  const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body;
  const res = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method: "pix", ...json } });
  expect(res.status).toBe(201);
  return { contract: contract as { id: string }, charge: res.body as { id: string; amount: number; installment_ids: string[] } };
}
const sandboxPay = (t: CreditTenant, id: string, json: unknown = {}) => call(pay, { base: t.base, path: `/v1/sandbox/charges/${id}/pay`, headers: t.headers, json, params: { id } });
const scopeOf = (t: CreditTenant) => ({ tenantId: t.tenant.id, environment: "sandbox" as const });
const PROVIDER = { type: "system" as const, label: "provider" };


describe("paying a charge", () => {
  it("an immediate Pix past its expiry is not paid from the sandbox, even before the job marks it; a provider's notification (paid in time) pays it", async () => {
    const t = await creditTenant();
    const { contract, charge } = await chargeOf(t, { pix: { kind: "cob", expires_in: 3600 } });
    await db().charge.update({ where: { id: charge.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await sandboxPay(t, charge.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "invalid_transition", detail: expect.stringMatching(/^The Pix charge expired at /) });
    // The PSP refuses an expired cob, so a notification is for money taken in time, delivered late: it pays the charge.
    const { charge: after, payment } = await payCharge(scopeOf(t), PROVIDER, charge.id, { amount: charge.amount, whenClosed: "credit" });
    expect(after.status).toBe("paid");
    expect(payment).toMatchObject({ amount: charge.amount, credit: 0 });
    expect((await db().contract.findUniqueOrThrow({ where: { id: contract.id } })).creditBalance).toBe(0n);
    expect((await db().installment.findUniqueOrThrow({ where: { id: charge.installment_ids[0]! } })).status).toBe("paid");
  });

  it("a cob the job already expired, paid by its expiry's day but notified later: the notice pays it; money taken after that day is credit", async () => {
    const t = await creditTenant();
    const { contract, charge } = await chargeOf(t, { pix: { kind: "cob", expires_in: 3600 } });
    await db().charge.update({ where: { id: charge.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await runCollectionJob();
    expect((await db().charge.findUniqueOrThrow({ where: { id: charge.id } })).status).toBe("expired");
    expect((await sandboxPay(t, charge.id)).status).toBe(409); // never from the sandbox
    const { charge: after, payment } = await payCharge(scopeOf(t), PROVIDER, charge.id, { amount: charge.amount, paidOn: todayInBrazil(), whenClosed: "credit" });
    expect(after.status).toBe("paid");
    expect(payment).toMatchObject({ amount: charge.amount, credit: 0, allocations: [expect.objectContaining({ installment_id: charge.installment_ids[0], settles: true })] });
    expect((await db().installment.findUniqueOrThrow({ where: { id: charge.installment_ids[0]! } })).status).toBe("paid");
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "charge.paid" } })).toBe(1);

    const other = await chargeOf(t, { pix: { kind: "cob", expires_in: 3600 } });
    await db().charge.update({ where: { id: other.charge.id }, data: { expiresAt: new Date(Date.now() - 2 * 86_400_000), status: "expired" } });
    const { charge: still, payment: credited } = await payCharge(scopeOf(t), PROVIDER, other.charge.id, { amount: other.charge.amount, paidOn: todayInBrazil(), whenClosed: "credit" });
    expect(still.status).toBe("expired");
    expect(credited).toMatchObject({ allocations: [], credit: other.charge.amount });
    expect((await db().contract.findUniqueOrThrow({ where: { id: contract.id } })).creditBalance).toBe(0n);
    expect((await db().contract.findUniqueOrThrow({ where: { id: other.contract.id } })).creditBalance).toBe(BigInt(other.charge.amount));

    // Paid in part by such a notice, it stays expired (never open again, so the job does not expire it twice).
    const third = await chargeOf(t, { pix: { kind: "cob", expires_in: 3600 } });
    await db().charge.update({ where: { id: third.charge.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await runCollectionJob();
    const part = await payCharge(scopeOf(t), PROVIDER, third.charge.id, { amount: 1000, paidOn: todayInBrazil(), whenClosed: "credit" });
    expect(part.charge.status).toBe("expired");
    expect(part.payment.allocations).toHaveLength(1);
    await runCollectionJob();
    const expiredEvents = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "charge.expired" } });
    expect(expiredEvents.filter((e) => (e.payload as { id: string }).id === third.charge.id)).toHaveLength(1);
  });

  it("a cob past its expiry: a provider's notice pays it when the money was taken by the expiry's day, else it is credit — whether or not the job has marked it", async () => {
    const t = await creditTenant();
    const today = todayInBrazil();
    const expiredOn = addDays(today, -2);
    for (const marked of [false, true]) {
      const outcomes = [];
      for (const paidOn of [expiredOn, today]) {
        const { contract, charge } = await chargeOf(t, { pix: { kind: "cob", expires_in: 3600 } });
        // Issued three days ago, expired two days ago at 10:00 in Brasília.
        await db().charge.update({ where: { id: charge.id }, data: { createdAt: new Date(`${addDays(today, -3)}T10:00:00-03:00`), expiresAt: new Date(`${expiredOn}T10:00:00-03:00`) } });
        if (marked) await db().charge.update({ where: { id: charge.id }, data: { status: "expired" } }); // as the job does
        const { charge: after, payment } = await payCharge(scopeOf(t), PROVIDER, charge.id, { amount: charge.amount, paidOn, whenClosed: "credit" });
        const installment = await db().installment.findUniqueOrThrow({ where: { id: charge.installment_ids[0]! } });
        const credit = (await db().contract.findUniqueOrThrow({ where: { id: contract.id } })).creditBalance;
        outcomes.push({ paidOn, charge: after.status, allocated: payment.allocations.length, credit: payment.credit, contractCredit: Number(credit), installment: installment.status, amount: charge.amount });
      }
      const [inTime, tooLate] = outcomes;
      const stays = marked ? "expired" : "pending";
      expect({ marked, inTime, tooLate }).toEqual({
        marked,
        inTime: { paidOn: expiredOn, charge: "paid", allocated: 1, credit: 0, contractCredit: 0, installment: "paid", amount: inTime!.amount },
        // Taken after its expiry's day: the PSP no longer took this cob, so the money is not its payment: credit.
        tooLate: { paidOn: today, charge: stays, allocated: 0, credit: tooLate!.amount, contractCredit: tooLate!.amount, installment: "open", amount: tooLate!.amount },
      });
    }
  });

  it("a payment dated before the charge existed: 400 from the sandbox; the provider's is moved to the issue day", async () => {
    const t = await creditTenant();
    const { charge } = await chargeOf(t);
    const res = await sandboxPay(t, charge.id, { paid_on: addDays(todayInBrazil(), -1) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ param: "paid_on", in: "body", message: `Must not be before the charge was issued (${todayInBrazil()})` }]);
    expect(await db().payment.count({ where: { chargeId: charge.id } })).toBe(0);
    const { payment } = await payCharge(scopeOf(t), PROVIDER, charge.id, { amount: charge.amount, paidOn: "2020-01-01", whenClosed: "credit" });
    expect(new Date(payment.paid_at) >= new Date(`${todayInBrazil()}T00:00:00-03:00`)).toBe(true);
  });

  it("a payment dated after today: 400 from the sandbox (late interest reckoned to a day to come), nothing changed; the provider's is recorded today", async () => {
    const t = await creditTenant();
    const { contract, charge } = await chargeOf(t);
    const res = await sandboxPay(t, charge.id, { amount: 1000, paid_on: "2199-12-31" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ param: "paid_on", in: "body", message: `Must not be after today (${todayInBrazil()}, Brasília)` }]);
    expect(await db().payment.count({ where: { chargeId: charge.id } })).toBe(0);
    expect(await db().installment.findMany({ where: { contractId: contract.id, lateInterestAccruedOn: { not: null } } })).toEqual([]);
    const { payment } = await payCharge(scopeOf(t), PROVIDER, charge.id, { amount: charge.amount, paidOn: "2199-12-31", whenClosed: "credit" });
    expect(payment.paid_at.slice(0, 10) <= addDays(todayInBrazil(), 1)).toBe(true);
  });

  it("a charge whose installments were all paid by other means, with no amount: 409, no payment of 0 recorded", async () => {
    const t = await creditTenant();
    const { charge } = await chargeOf(t);
    await db().installment.updateMany({ where: { id: { in: charge.installment_ids } }, data: { status: "paid" } }); // paid elsewhere, the charge left open
    const res = await sandboxPay(t, charge.id);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("Nothing is open on this charge: its installments are paid or canceled");
    expect(await db().payment.count({ where: { chargeId: charge.id } })).toBe(0);
  });

  it("a charge the job is marking overdue as the installment is paid by another is still canceled (read after the job's change)", async () => {
    const t = await creditTenant();
    const { contract, charge: pix } = await chargeOf(t);
    const boleto = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method: "boleto", installment_ids: pix.installment_ids } })).body as { id: string };
    // The job's transition of the Pix charge, in flight: its row is changed and locked, not yet committed.
    const job = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await job.connect();
    try {
      const jobPid = await backendPid(job);
      await job.query("BEGIN");
      await job.query("UPDATE charges SET status = 'overdue' WHERE id = $1 AND status = 'pending'", [pix.id]);
      const paying = sandboxPay(t, boleto.id); // pays the installment: the Pix charge covers nothing open any more
      await untilBlockedBy(jobPid, paying, "the payment"); // the payment waits on the Pix charge's row
      await job.query("COMMIT");
      expect((await paying).status).toBe(200);
    } finally {
      await job.end();
    }
    // Read after the job committed: overdue, and canceled from there (a cancel conditional on the `pending` read
    // before matched nothing, and the charge stayed open for a paid installment).
    expect((await db().charge.findUniqueOrThrow({ where: { id: pix.id } })).status).toBe("canceled");
    const audit = await db().auditLog.findFirstOrThrow({ where: { targetId: pix.id, action: "charge.canceled" } });
    expect(audit.metadata).toMatchObject({ from: "overdue", to: "canceled" });
  });

  it("a charge computed while a payment was reaching the contract is not issued: 409 to issue it again, with the amounts as they are now", async () => {
    const t = await creditTenant();
    const { contract, charge: first } = await chargeOf(t);
    // A payment in flight: it holds the contract's row, changed (every payment moves amount_paid), not yet committed.
    const payment = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await payment.connect();
    let issuing: ReturnType<typeof call>;
    try {
      const paymentPid = await backendPid(payment);
      await payment.query("BEGIN");
      await payment.query("UPDATE contracts SET amount_paid = amount_paid + 100, outstanding_balance = outstanding_balance - 100 WHERE id = $1", [contract.id]);
      issuing = call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method: "boleto", installment_ids: first.installment_ids } });
      await untilBlockedBy(paymentPid, issuing, "the charge"); // the charge, computed from the old amounts, waits on the row
      await payment.query("COMMIT");
    } finally {
      await payment.end();
    }
    const refused = await issuing!;
    // A race lost before anything changed: marked retryable, with a Retry-After (a stays-conflict carries neither).
    expect([refused.status, refused.body.code, refused.body.retryable, refused.headers.get("retry-after")]).toEqual([409, "conflict", true, "1"]);
    expect(await db().charge.count({ where: { contractId: contract.id } })).toBe(1); // only the first
    const again = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method: "boleto", installment_ids: first.installment_ids } });
    expect(again.status).toBe(201);
  });
});
