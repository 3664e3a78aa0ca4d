import { describe, expect, it } from "vitest";
import { POST as repasse } from "@/app/v1/sandbox/repasse/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { db } from "@/lib/db/client";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// The sandbox repasse simulator: a competence month's transfer applied as payments, once.

async function payrollContract(t: CreditTenant) {
  const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; outstanding_balance: number; amount_paid: number };
}

const run = (t: CreditTenant, json: unknown) => call(repasse, { base: t.base, path: "/v1/sandbox/repasse", headers: t.headers, json });

async function state(t: CreditTenant, contractId: string) {
  const contract = (await call(getContract, { base: t.base, path: `/v1/contracts/${contractId}`, headers: t.headers, params: { id: contractId } })).body;
  const installments = await db().installment.findMany({ where: { contractId }, orderBy: { number: "asc" } });
  return {
    amount_paid: contract.amount_paid as number,
    outstanding_balance: contract.outstanding_balance as number,
    installments: installments.slice(0, 4).map((i) => ({ number: i.number, paid: Number(i.paidAmount), status: i.status })),
    payments: await db().payment.count({ where: { contractId } }),
    events: await db().outboxEvent.count({ where: { tenantId: t.tenant.id } }),
  };
}

describe("POST /v1/sandbox/repasse", () => {
  it("full, partial and none months; running a month again changes nothing", async () => {
    const t = await creditTenant();
    const contract = await payrollContract(t);
    const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
    const amount = (n: number) => Number(installments[n - 1]!.amount);
    const total = installments.reduce((s, i) => s + Number(i.amount), 0);
    expect({ paid: contract.amount_paid, outstanding: contract.outstanding_balance }).toEqual({ paid: 0, outstanding: total });

    const april = await run(t, { competence: "2026-04", scenario: "full" });
    expect(april.status).toBe(200);
    expect(april.body).toEqual({
      object: "repasse",
      competence: "2026-04",
      scenario: "full",
      partial_percent: null,
      contracts: [
        {
          contract_id: contract.id,
          status: "processed",
          reason: null,
          amount_due: amount(1),
          amount_paid: amount(1),
          installments: [{ id: installments[0]!.id, number: 1, due_date: "2026-04-02", amount_paid: amount(1), status: "paid" }],
        },
      ],
      totals: { processed: 1, skipped: 0, amount_due: amount(1), amount_paid: amount(1) },
    });
    const payment = await db().payment.findFirstOrThrow({ where: { contractId: contract.id } });
    expect({ amount: Number(payment.amount), source: payment.source, competence: payment.competence, installment: payment.installmentId }).toEqual({
      amount: amount(1),
      source: "inss_repasse",
      competence: "2026-04",
      installment: installments[0]!.id,
    });

    const half = Math.floor(amount(2) / 2);
    const may = await run(t, { competence: "2026-05", scenario: "partial", partial_percent: 50 });
    expect(may.body.contracts[0]).toMatchObject({ amount_due: amount(2), amount_paid: half, installments: [{ number: 2, amount_paid: half, status: "overdue" }] });
    const june = await run(t, { competence: "2026-06", scenario: "none" });
    expect(june.body.contracts[0]).toMatchObject({ status: "processed", amount_due: amount(3), amount_paid: 0, installments: [{ number: 3, amount_paid: 0, status: "overdue" }] });

    const after = await state(t, contract.id);
    expect(after).toMatchObject({
      amount_paid: amount(1) + half,
      outstanding_balance: total - amount(1) - half,
      installments: [
        { number: 1, paid: amount(1), status: "paid" },
        { number: 2, paid: half, status: "partially_paid" },
        { number: 3, paid: 0, status: "open" },
        { number: 4, paid: 0, status: "open" },
      ],
      payments: 2,
    });
    const types = (await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { in: ["installment.paid", "installment.partially_paid", "payment.received", "repasse.processed"] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => e.type);
    expect(types).toEqual(["payment.received", "installment.paid", "repasse.processed", "payment.received", "installment.partially_paid", "repasse.processed", "repasse.processed"]);
    const audits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, action: "repasse.processed" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(audits.map((a) => [a.targetId, (a.metadata as { competence: string; amount_paid: number }).competence, (a.metadata as { amount_paid: number }).amount_paid])).toEqual([
      [contract.id, "2026-04", amount(1)],
      [contract.id, "2026-05", half],
      [contract.id, "2026-06", 0],
    ]);

    // The same months again, any scenario: skipped, with the amounts of the first run; nothing changes.
    const again = await run(t, { competence: "2026-05", scenario: "full" });
    expect(again.body.contracts).toEqual([{ contract_id: contract.id, status: "skipped", reason: "already_processed", amount_due: amount(2), amount_paid: half, installments: [] }]);
    expect(again.body.totals).toEqual({ processed: 0, skipped: 1, amount_due: 0, amount_paid: 0 });
    await run(t, { competence: "2026-04", scenario: "full" });
    expect(await state(t, contract.id)).toEqual(after);

    // A month with nothing due is skipped without a ledger row: it may be run once something falls due.
    const empty = await run(t, { competence: "2030-01", scenario: "full" });
    expect(empty.body.contracts[0]).toMatchObject({ status: "skipped", reason: "no_installment_due" });
  });

  it("selects contracts: only payroll ones, 404 for unknown or another tenant's; canceled contracts are skipped", async () => {
    const t = await creditTenant();
    const contract = await payrollContract(t);
    const other = await creditTenant();
    const theirs = await payrollContract(other);
    const unknown = await run(t, { competence: "2026-04", scenario: "full", contract_ids: [contract.id, theirs.id] });
    expect(unknown.status).toBe(404);
    expect(await db().payment.count({ where: { contractId: { in: [contract.id, theirs.id] } } })).toBe(0);
    const dup = await run(t, { competence: "2026-04", scenario: "full", contract_ids: [contract.id, contract.id] });
    expect(dup.status).toBe(400);
    const badMonth = await run(t, { competence: "2026-13", scenario: "full" });
    expect(badMonth.body.errors).toEqual([{ param: "competence", in: "body", message: "Must be a competence month YYYY-MM" }]);

    await db().contract.update({ where: { id: contract.id }, data: { status: "canceled" } });
    const skipped = await run(t, { competence: "2026-04", scenario: "full", contract_ids: [contract.id] });
    expect(skipped.body.contracts).toEqual([{ contract_id: contract.id, status: "skipped", reason: "contract_not_active", amount_due: 0, amount_paid: 0, installments: [] }]);
    // Without contract_ids: only this tenant's active payroll contracts (none now).
    expect((await run(t, { competence: "2026-04", scenario: "full" })).body.contracts).toEqual([]);
  });

  it("does not exist on the production address (404 before authentication), and needs payroll:write", async () => {
    const t = await creditTenant();
    const anonymous = await call(repasse, { base: PRODUCTION, path: "/v1/sandbox/repasse", json: { competence: "2026-04", scenario: "full" } });
    expect(anonymous.status).toBe(404);
    expect(anonymous.body.code).toBe("not_found");
    const production = await newKey(t.tenant.id, "production", ["read", "write"]);
    const authenticated = await call(repasse, { base: PRODUCTION, path: "/v1/sandbox/repasse", headers: bearer(production.key, t.tenant.id), json: { competence: "2026-04", scenario: "full" } });
    expect(authenticated.status).toBe(404);
    const reader = await newKey(t.tenant.id, "sandbox", ["read"]);
    const denied = await call(repasse, { base: t.base, path: "/v1/sandbox/repasse", headers: bearer(reader.key, t.tenant.id), json: { competence: "2026-04", scenario: "full" } });
    expect(denied.status).toBe(403);
  });
});
