import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Contract, Installment } from "@prisma/client";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as createCustomerRoute } from "@/app/v1/customers/route";
import { GET as getQuote } from "@/app/v1/contracts/[id]/payoff-quote/route";
import { POST as createEndorsementRoute } from "@/app/v1/payroll/endorsements/route";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { POST as approve } from "@/app/v1/proposals/[id]/approve/route";
import { POST as sign } from "@/app/v1/proposals/[id]/sign/route";
import { POST as createProposalRoute } from "@/app/v1/proposals/route";
import { POST as createSimulationRoute } from "@/app/v1/simulations/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { db } from "@/lib/db/client";
import { addMonths, buildSchedule, decimal, pow, periodExponent, scheduleNominalDates, type AdjustRule, type AmortizationSystem, type Installment as Row } from "@/lib/finance";
import { computeQuote } from "@/lib/settlements/payoff-quote";
import { isoDate } from "@/lib/serialize";
import { call } from "../helpers/http";
import { creditTenant, newCustomer, newMarginQuery, uniqueCpf, type CreditTenant } from "../credit/flow-helpers";

// Payoff quotes discount each open installment to its NOMINAL due date — the end of the monthly period its interest was
// computed on — not to the date the due date rule moved it to (lib/finance/early-payoff.ts). The review's scenario:
// R$ 10.000,00 requested, disbursed 2026-01-15 (a Thursday; 2026-02-15 is a Sunday, so the first due date already
// moves). Discounting to the moved dates, the personal loan under `following` was quoted R$ 16,30 under its principal on
// the disbursement day (1,033,091 for 1,034,721) and R$ 12,66 under its balance right after installment 12; the INSS
// loan under `preceding` R$ 2,34 over its principal on day 0 — interest for no time (CDC art. 52 §2).
//
// The bound: the schedule rounds each row's interest (± ½ centavo), so its exact present value at the contract rate is
// the principal ± ½·Σ v^t (schedule-setup.ts); the quote rounds each line half-up (± ½ centavo more). So
// |quote − balance| ≤ ½·Σ v^t + n/2 over the n installments counted — computed below, and the figures pinned.

const DISBURSED = "2026-01-15";
type Case = { product: "personal_loan" | "inss_payroll"; term: number; rate: string; rule: AdjustRule; principal: number; day0: number };
const CASES: Case[] = [
  { product: "personal_loan", term: 60, rate: "0.08", rule: "following", principal: 1_034_721, day0: 1_034_720 },
  { product: "personal_loan", term: 60, rate: "0.08", rule: "preceding", principal: 1_034_721, day0: 1_034_720 },
  { product: "personal_loan", term: 60, rate: "0.08", rule: "keep", principal: 1_034_721, day0: 1_034_720 },
  { product: "inss_payroll", term: 96, rate: "0.0185", rule: "preceding", principal: 1_034_181, day0: 1_034_179 },
  { product: "inss_payroll", term: 96, rate: "0.0185", rule: "following", principal: 1_034_187, day0: 1_034_185 },
  { product: "inss_payroll", term: 96, rate: "0.0185", rule: "keep", principal: 1_034_185, day0: 1_034_182 },
];

/** A contract issued through the credit flow from a simulation of `body` (a payroll one with its margin query and
 *  endorsement). */
async function issued(t: CreditTenant, body: Record<string, unknown>): Promise<{ contract: Contract; installments: Installment[] }> {
  const payroll = body.product === "inss_payroll";
  // A personal loan's borrower declares an income the installment fits in (the scorecard declines the default one's).
  const customer = payroll ? await newCustomer(t) : await incomeCustomer(t);
  const simulation = await call(createSimulationRoute, { base: t.base, path: "/v1/simulations", headers: t.headers, json: { ...body, customer_id: customer.id } });
  expect(simulation.status, simulation.text).toBe(201);
  const marginQuery = payroll ? await newMarginQuery(t, customer.id) : undefined;
  const json = { customer_id: customer.id, simulation_id: simulation.body.id, ...(marginQuery ? { margin_query_id: marginQuery.id } : {}) };
  const proposal = await call(createProposalRoute, { base: t.base, path: "/v1/proposals", headers: t.headers, json });
  expect(proposal.status, proposal.text).toBe(201);
  const id = proposal.body.id as string;
  for (const handler of [submit, approve, sign]) {
    const res = await call(handler, { base: t.base, path: `/v1/proposals/${id}/x`, headers: t.headers, params: { id } });
    if (res.status !== 200 && !(handler === approve && res.status === 409)) throw new Error(`transition: ${res.status} ${res.text}`);
  }
  if (payroll) {
    const endorsed = await call(createEndorsementRoute, { base: t.base, path: "/v1/payroll/endorsements", headers: t.headers, json: { proposal_id: id } });
    expect(endorsed.body.status, endorsed.text).toBe("endorsed");
  }
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: id } });
  expect(res.status, res.text).toBe(201);
  const contract = await db().contract.findUniqueOrThrow({ where: { id: res.body.id } });
  const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
  return { contract, installments };
}

async function incomeCustomer(t: CreditTenant): Promise<{ id: string }> {
  const json = { document: uniqueCpf(), name: "João Pereira", birth_date: "1985-05-10", email: "joao@example.com", monthly_income: 2_000_000 };
  const res = await call(createCustomerRoute, { base: t.base, path: "/v1/customers", headers: t.headers, json });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

/** ½·Σ v^t over the rows (t from `date` to each nominal date) + ½ per row, in centavos. */
function bound(rate: string, date: string, nominal: string[]): number {
  const onePlus = decimal.add(decimal.ONE, decimal.parse(rate));
  const sum = nominal.reduce((s, to) => s + 1 / Number(decimal.toFixed(pow(onePlus, periodExponent(date, to)), 12)), 0);
  return sum / 2 + nominal.length / 2;
}

const quoted = (contract: Contract, open: Installment[], date: string) => computeQuote(contract, open, date).amount;
const nominalOf = (rows: Installment[]) => rows.map((i) => isoDate(i.nominalDueDate));

describe("payoff quotes discount to nominal due dates, whatever the due date rule", () => {
  it.each(CASES)("$product $term× $rate, $rule: the principal on day 0, the closing balance right after each installment", async (c) => {
    const t = await creditTenant();
    const { contract, installments } = await issued(t, { product: c.product, requested_amount: 1_000_000, term: c.term, monthly_rate: c.rate, disbursement_date: DISBURSED, due_date_rule: c.rule });
    expect(Number(contract.principal)).toBe(c.principal);
    // Written at issue: monthly from the disbursement date (no first due date was named), before the rule moved them.
    expect(nominalOf(installments)).toEqual(scheduleNominalDates(DISBURSED, c.term));
    if (c.rule !== "keep") expect(installments.some((i) => isoDate(i.dueDate) !== isoDate(i.nominalDueDate))).toBe(true);
    // The contract's schedule, rebuilt: the same amounts (they never depended on the rule), its closing balances.
    const schedule = buildSchedule("price", { principal: c.principal, monthlyRate: c.rate, installments: c.term, disbursementDate: DISBURSED, dueDateRule: "keep" });
    expect(installments.map((i) => Number(i.amount))).toEqual(schedule.map((r) => r.payment));

    const day0 = quoted(contract, installments, DISBURSED);
    expect(day0).toBe(c.day0);
    expect(Math.abs(day0 - c.principal)).toBeLessThanOrEqual(bound(c.rate, DISBURSED, nominalOf(installments)));
    for (let k = 1; k < c.term; k++) {
      // On installment k's nominal date, installments k+1 … n (it paid): the schedule's balance after it.
      const open = installments.slice(k);
      const on = isoDate(installments[k - 1]!.nominalDueDate);
      const value = quoted(contract, open, on);
      expect(Math.abs(value - schedule[k - 1]!.closing_balance), `after ${k}`).toBeLessThanOrEqual(bound(c.rate, on, nominalOf(open)));
    }
  });

  it("the same figures under every rule (the personal loan: one principal, one schedule)", async () => {
    const t = await creditTenant();
    const figures = [];
    for (const rule of ["following", "preceding", "keep"] as const) {
      const { contract, installments } = await issued(t, { product: "personal_loan", requested_amount: 1_000_000, term: 60, monthly_rate: "0.08", disbursement_date: DISBURSED, due_date_rule: rule });
      figures.push([0, 12, 30, 59].map((k) => quoted(contract, installments.slice(k), k === 0 ? DISBURSED : isoDate(installments[k - 1]!.nominalDueDate))));
    }
    // Right after installment 12: the schedule's closing balance 1,019,056 (it was quoted 1,017,790 under `following`).
    expect(figures[0]![1]).toBe(1_019_057);
    expect(figures[1]).toEqual(figures[0]);
    expect(figures[2]).toEqual(figures[0]);
  });
});

describe("a partial prepayment, then a payoff", () => {
  afterEach(() => vi.useRealTimers());

  // Prepaid (funds received) on `today`, before the first due date. Afterwards the quote that day is the balance left,
  // and right after each rescheduled installment the new schedule's closing balance.
  it.each([
    ["following", "2026-02-03"],
    ["preceding", "2026-02-03"],
    ["following", "2026-02-14"],
  ] as const)("%s, prepaid on %s", async (rule, today) => {
    const t = await creditTenant();
    const { contract, installments } = await issued(t, { product: "personal_loan", requested_amount: 1_000_000, term: 24, monthly_rate: "0.08", disbursement_date: DISBURSED, due_date_rule: rule });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date(`${today}T15:00:00Z`) });
    const made = await call(createSettlement, {
      base: t.base,
      path: "/v1/settlements",
      headers: t.headers,
      json: { contract_id: contract.id, type: "partial", amount: 300_000, reduce: "installment_amount", payment_method: "received" },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.status).toBe("completed");
    const plan = made.body.reschedule as { balance_before: number; balance_after: number; schedule: (Row & { nominal_due_date: string })[] };
    expect(plan.balance_before).toBe(quoted(contract, installments, today));

    const after = await db().contract.findUniqueOrThrow({ where: { id: contract.id } });
    const rows = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
    // Due dates kept; nominal dates those the new amounts were computed on (the plan's), monthly from the first.
    expect(rows.map((r) => isoDate(r.dueDate))).toEqual(installments.map((i) => isoDate(i.dueDate)));
    expect(nominalOf(rows)).toEqual(plan.schedule.map((r) => r.nominal_due_date));
    expect(nominalOf(rows)).toEqual(nominalOf(installments)); // the installments' own periods

    // The quote through the API, on the day: the balance left.
    const res = await call(getQuote, { base: t.base, path: `/v1/contracts/${contract.id}/payoff-quote`, headers: t.headers, params: { id: contract.id } });
    expect(res.status).toBe(200);
    expect(res.body.installments.map((l: { nominal_due_date: string }) => l.nominal_due_date)).toEqual(nominalOf(rows));
    expect(Math.abs(res.body.amount - plan.balance_after)).toBeLessThanOrEqual(bound(contract.monthlyRate, today, nominalOf(rows)));
    // Right after each rescheduled installment: the new schedule's closing balance.
    for (let k = 1; k < rows.length; k++) {
      const open = rows.slice(k);
      const on = isoDate(rows[k - 1]!.nominalDueDate);
      expect(Math.abs(quoted(after, open, on) - plan.schedule[k - 1]!.closing_balance), `after ${k}`).toBeLessThanOrEqual(bound(contract.monthlyRate, on, nominalOf(open)));
    }
    const system = (contract.terms as { amortization: AmortizationSystem }).amortization;
    expect(system).toBe("price");
  });

  // 2026-02-15, the first installment's nominal date, is a Sunday before Carnival: under `following` it is due Wednesday
  // the 18th. From the 15th to the 17th its period has ended but it is not due yet: it is owed in full, so a partial
  // prepayment is refused (rescheduled from the 18th, every later period ran past its installment's due date and each
  // new amount carried up to three days of interest after the borrower paid it: R$ 81,64 over the balance on the 17th).
  it("following: refused while the first installment's period has ended and its due date has not come, and nothing changes", async () => {
    const t = await creditTenant();
    const { contract, installments } = await issued(t, { product: "personal_loan", requested_amount: 1_000_000, term: 24, monthly_rate: "0.08", disbursement_date: DISBURSED, due_date_rule: "following" });
    expect([isoDate(installments[0]!.nominalDueDate), isoDate(installments[0]!.dueDate)]).toEqual(["2026-02-15", "2026-02-18"]);
    for (const today of ["2026-02-15", "2026-02-16", "2026-02-17"]) {
      vi.useFakeTimers({ toFake: ["Date"], now: new Date(`${today}T15:00:00Z`) });
      const refused = await call(createSettlement, {
        base: t.base,
        path: "/v1/settlements",
        headers: t.headers,
        json: { contract_id: contract.id, type: "partial", amount: 300_000, reduce: "installment_amount", payment_method: "received" },
      });
      expect({ status: refused.status, code: refused.body.code, detail: refused.body.detail, installment_id: refused.body.installment_id }).toEqual({
        status: 409,
        code: "open_installments_due",
        detail: "Installment 1's period ended on 2026-02-15 (payable through 2026-02-18, the next business day): pay it first, or settle in full",
        installment_id: installments[0]!.id,
      });
    }
    expect(await db().settlement.count({ where: { contractId: contract.id } })).toBe(0);
    expect(await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } })).toEqual(installments);
  });
});

describe("the migration's backfill", () => {
  // Its UPDATEs, run in a transaction rolled back: on installments as issued they give what the issue wrote; on rows a
  // completed partial settlement rescheduled, monthly from the reschedule's first due date (what the prepayment schedule
  // computed on before rows carried nominal dates).
  const MIGRATION = path.resolve(import.meta.dirname, "../../prisma/migrations/20261204090000_installment_nominal_due_date/migration.sql");
  const updates = readFileSync(MIGRATION, "utf8")
    .split(";")
    .map((statement) => statement.replace(/^--.*$/gm, "").trim())
    .filter((statement) => statement.startsWith("UPDATE"));

  async function backfilled(contractIds: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    await db()
      .$transaction(async (tx) => {
        for (const statement of updates) await tx.$executeRawUnsafe(statement);
        for (const row of await tx.installment.findMany({ where: { contractId: { in: contractIds } } })) found.set(row.id, isoDate(row.nominalDueDate));
        throw new Error("rollback");
      })
      .catch((err: unknown) => {
        if (!(err instanceof Error && err.message === "rollback")) throw err;
      });
    return found;
  }

  it("reproduces the issued nominal dates (month-end default, named month-end first due date, a later first due date) and the old reschedules'", async () => {
    expect(updates).toHaveLength(2);
    const t = await creditTenant();
    const terms = { product: "personal_loan", requested_amount: 500_000, term: 12, monthly_rate: "0.03", due_date_rule: "following" };
    const monthEnd = await issued(t, { ...terms, disbursement_date: "2026-01-31" });
    const named = await issued(t, { ...terms, disbursement_date: "2026-01-31", first_due_date: "2026-02-28" });
    const later = await issued(t, { ...terms, disbursement_date: "2026-03-02", first_due_date: "2026-04-20" });
    expect(nominalOf(monthEnd.installments).slice(0, 3)).toEqual(["2026-02-28", "2026-03-31", "2026-04-30"]);
    expect(nominalOf(named.installments).slice(0, 3)).toEqual(["2026-02-28", "2026-03-28", "2026-04-28"]);
    expect(nominalOf(later.installments).slice(0, 2)).toEqual(["2026-04-20", "2026-05-20"]);

    // A partial settlement completed on 2026-02-03 (as before this change, its plan computed from the actual dates).
    const prepaid = await issued(t, { ...terms, disbursement_date: DISBURSED });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-02-03T15:00:00Z") });
    try {
      const made = await call(createSettlement, {
        base: t.base,
        path: "/v1/settlements",
        headers: t.headers,
        json: { contract_id: prepaid.contract.id, type: "partial", amount: 100_000, reduce: "term", payment_method: "received" },
      });
      expect(made.status, made.text).toBe(201);
    } finally {
      vi.useRealTimers();
    }
    const rescheduled = await db().installment.findMany({ where: { contractId: prepaid.contract.id, status: { not: "canceled" } }, orderBy: { number: "asc" } });

    const found = await backfilled([monthEnd, named, later, prepaid].map((c) => c.contract.id));
    for (const { installments } of [monthEnd, named, later]) {
      expect(installments.map((i) => found.get(i.id))).toEqual(nominalOf(installments));
    }
    const firstDue = isoDate(rescheduled[0]!.dueDate);
    expect(rescheduled.map((i) => found.get(i.id))).toEqual(rescheduled.map((_, k) => addMonths(firstDue, k)));
  });
});
