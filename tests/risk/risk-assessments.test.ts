import { describe, expect, it } from "vitest";
import { POST as createAssessment, GET as listAssessments } from "@/app/v1/risk-assessments/route";
import { GET as getAssessment } from "@/app/v1/risk-assessments/[id]/route";
import { POST as cancel } from "@/app/v1/proposals/[id]/cancel/route";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { deductedInstallment, type ProposalTerms } from "@/lib/proposals/schemas";
import { db } from "@/lib/db/client";
import { todayInBrazil } from "@/lib/clock";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, newCustomer, newProposal, newSimulation, type CreditTenant } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";

// POST /v1/risk-assessments and the scorecard inside proposal submission, through /v1.

const assess = (t: CreditTenant, json: unknown) => call(createAssessment, { base: t.base, path: "/v1/risk-assessments", headers: t.headers, json });

async function customerWithIncome(t: CreditTenant, monthlyIncome: number | null) {
  const customer = await newCustomer(t);
  await db().customer.update({ where: { id: customer.id }, data: { monthlyIncome: monthlyIncome === null ? null : BigInt(monthlyIncome) } });
  return customer;
}

describe("risk assessments", () => {
  it("scores inline terms and stores the inputs with the scorecard version", async () => {
    const t = await creditTenant();
    const customer = await customerWithIncome(t, 450000);
    const res = await assess(t, { customer_id: customer.id, terms: { product: "personal_loan", installment_amount: 60000, term: 24 }, other_monthly_debt: 30000 });
    expect(res.status).toBe(201);
    // Commitment (600 + 300) / 4500 = 20% → +100; age 66 → +40; not payroll-deducted: 500 + 100 + 40 = 640 → C, review.
    expect(res.body).toEqual({
      id: expect.stringMatching(/^rsk_/),
      object: "risk_assessment",
      customer_id: customer.id,
      proposal_id: null,
      margin_query_id: null,
      scorecard_version: "2026-11.5",
      score: 640,
      band: "C",
      decision: "review",
      reasons: [
        { code: "borrower_age_61_to_75", points: 40, description: "The borrower is 61 to 75 years old" },
        { code: "income_commitment_low", points: 100, description: "Debt payments take a small share of the monthly income" },
      ],
      max_affordable_installment: 157500 - 30000,
      inputs: {
        as_of: todayInBrazil(),
        customer_kind: "person",
        birth_date: "1960-05-10",
        customer_since: todayInBrazil(),
        monthly_income: 450000,
        other_monthly_debt: 30000,
        installment_amount: 60000,
        term_months: 24,
        last_due_date: null, // inline terms: the age at term end is taken at as_of + 24 months
        product: "personal_loan",
        payroll_deducted: false,
        margin: null,
        history: { paid_installments: 0, paid_on_time: 0, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 0 },
      },
      environment: "sandbox",
      created_at: expect.any(String),
    });
    const row = await db().riskAssessment.findUniqueOrThrow({ where: { id: res.body.id } });
    expect({ score: row.score, decision: row.decision, version: row.scorecardVersion }).toEqual({ score: 640, decision: "review", version: "2026-11.5" });
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "risk_assessment.created" } })).toBe(1);
    const got = await call(getAssessment, { base: t.base, path: `/v1/risk-assessments/${res.body.id}`, headers: t.headers, params: { id: res.body.id } });
    expect(got.body).toEqual(res.body);
  });

  it("a contract still owed counts whoever holds it: overdue on an assigned or written-off contract declines", async () => {
    const t = await creditTenant();
    const [contractId] = await contractsOf(t, 1); // disbursed 2026-03-02: installments past due by now
    const contract = await db().contract.findUniqueOrThrow({ where: { id: contractId! } });
    for (const status of ["assigned", "written_off"] as const) {
      await db().contract.update({ where: { id: contract.id }, data: { status } });
      const res = await assess(t, { customer_id: contract.customerId, terms: { product: "personal_loan", installment_amount: 10000, term: 12 } });
      expect(res.status).toBe(201);
      expect(res.body.decision, status).toBe("decline");
      expect(res.body.reasons.map((r: { code: string }) => r.code)).toContain("installment_overdue");
      expect(res.body.inputs.history.overdue_now).toBeGreaterThan(0);
      expect(res.body.inputs.other_monthly_debt).toBeGreaterThan(0);
    }
    await db().contract.update({ where: { id: contract.id }, data: { status: "settled" } });
    const settled = await assess(t, { customer_id: contract.customerId, terms: { product: "personal_loan", installment_amount: 10000, term: 12 } });
    expect([settled.body.inputs.history.overdue_now, settled.body.inputs.other_monthly_debt]).toEqual([0, 0]);
  });

  it("scores a simulation or a proposal (with its margin query), and filters the list", async () => {
    const t = await creditTenant();
    const customer = await customerWithIncome(t, 450000);
    const simulation = await newSimulation(t, customer.id);
    // A payroll product is assessed against a margin query: none is 400.
    const noMargin = await assess(t, { customer_id: customer.id, simulation_id: simulation.id });
    expect(noMargin.body).toMatchObject({ status: 400, code: "margin_query_required" });
    const { proposal, marginQuery, customer: other } = await newProposal(t);
    // The proposal's margin query is of another customer than `customer`: 400.
    expect((await assess(t, { customer_id: customer.id, simulation_id: simulation.id, margin_query_id: marginQuery.id })).body).toMatchObject({ status: 400, errors: [{ param: "margin_query_id" }] });
    // A personal loan takes no margin query.
    expect((await assess(t, { customer_id: other.id, terms: { product: "personal_loan", installment_amount: 10000, term: 12 }, margin_query_id: marginQuery.id })).body).toMatchObject({
      status: 400,
      errors: [{ param: "margin_query_id", message: "Only for inss_payroll and private_payroll: the payroll margin does not weigh on other products" }],
    });
    // Inline terms the product could not make (an INSS payroll loan for 120 months, the product's maximum being 96): 400.
    expect((await assess(t, { customer_id: other.id, terms: { product: "inss_payroll", installment_amount: 10000, term: 120 }, margin_query_id: marginQuery.id })).body).toMatchObject({
      status: 400,
      code: "product_rule_violation",
      errors: [{ param: "terms.term", in: "body", message: "Must be from 1 to 96 months for inss_payroll" }],
    });
    const fromProposal = await assess(t, { customer_id: other.id, proposal_id: proposal.id });
    expect(fromProposal.body).toMatchObject({ proposal_id: proposal.id, margin_query_id: marginQuery.id, inputs: { margin: { available_loan_margin: marginQuery.available_loan_margin, source_status: "active", blocked_for_loans: false } } });
    expect(fromProposal.body.reasons.map((r: { code: string }) => r.code)).toContain("margin_covers_installment");
    const wrongCustomer = await assess(t, { customer_id: customer.id, proposal_id: proposal.id });
    expect(wrongCustomer.status).toBe(400);
    const list = await call(listAssessments, { base: t.base, path: `/v1/risk-assessments?proposal_id=${proposal.id}`, headers: t.headers });
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([fromProposal.body.id]);

    // Submitted, the proposal holds its installment at the authority: assessed again, its own reservation is not
    // counted against it (the margin it reads is the same as before); an expired answer gives no margin at all.
    expect((await call(submit, { base: t.base, path: `/v1/proposals/${proposal.id}/submit`, headers: t.headers, params: { id: proposal.id } })).status).toBe(200);
    expect(await db().marginReservation.count({ where: { proposalId: proposal.id, status: "reserved" } })).toBe(1);
    const again = await assess(t, { customer_id: other.id, proposal_id: proposal.id });
    expect(again.body.inputs.margin).toEqual(fromProposal.body.inputs.margin);
    expect(again.body.reasons.map((r: { code: string }) => r.code)).toContain("margin_covers_installment");
    // An expired answer says nothing about the margin today: 422, nothing stored.
    await db().marginQuery.update({ where: { id: marginQuery.id }, data: { validUntil: new Date(Date.now() - 1000) } });
    const before = await db().riskAssessment.count({ where: { tenantId: t.tenant.id } });
    const stale = await assess(t, { customer_id: other.id, proposal_id: proposal.id });
    expect(stale.body).toMatchObject({ status: 422, code: "margin_query_expired", margin_query_id: marginQuery.id });
    expect(await db().riskAssessment.count({ where: { tenantId: t.tenant.id } })).toBe(before);
    // Each call is audited as its caller.
    const audits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, action: "risk_assessment.created" }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => [a.targetId, a.actorType])).toEqual([fromProposal.body.id, again.body.id].map((id) => [id, "api_key"]));
  });

  it("the customer's other proposals on their way to a contract count as debt; a canceled one no longer", async () => {
    const t = await creditTenant();
    const { proposal, customer } = await newProposal(t);
    expect((await call(submit, { base: t.base, path: `/v1/proposals/${proposal.id}/submit`, headers: t.headers, params: { id: proposal.id } })).body.status).toMatch(/^(approved|pending_review)$/);
    const installment = deductedInstallment(proposal.terms as unknown as ProposalTerms);
    const inline = { customer_id: customer.id, terms: { product: "personal_loan", installment_amount: 10000, term: 12 }, other_monthly_debt: 500 };
    expect((await assess(t, inline)).body.inputs.other_monthly_debt).toBe(500 + installment);
    // Assessing the proposal itself does not count it twice.
    expect((await assess(t, { customer_id: customer.id, proposal_id: proposal.id })).body.inputs.other_monthly_debt).toBe(0);
    expect((await call(cancel, { base: t.base, path: `/v1/proposals/${proposal.id}/cancel`, headers: t.headers, params: { id: proposal.id }, json: { reason: "Customer gave up" } })).status).toBe(200);
    expect((await assess(t, inline)).body.inputs.other_monthly_debt).toBe(500);
  });

  it("a minor is declined at submission whatever the score", async () => {
    const t = await creditTenant();
    const { proposal, customer } = await newProposal(t);
    const seventeen = `${Number(todayInBrazil().slice(0, 4)) - 17}-01-01`;
    await db().customer.update({ where: { id: customer.id }, data: { birthDate: new Date(`${seventeen}T00:00:00Z`) } });
    const res = await call(submit, { base: t.base, path: `/v1/proposals/${proposal.id}/submit`, headers: t.headers, params: { id: proposal.id } });
    expect(res.body).toMatchObject({ status: "rejected", reason: expect.stringMatching(/^Declined by risk assessment rsk_\w+: .*borrower_under_18/) });
    expect(await db().marginReservation.count({ where: { proposalId: proposal.id, status: { in: ["requested", "reserved"] } } })).toBe(0);
  });

  it("validates the body: exactly one subject, known product, positive installment", async () => {
    const t = await creditTenant();
    const customer = await customerWithIncome(t, 450000);
    const none = await assess(t, { customer_id: customer.id });
    expect(none.body).toMatchObject({ status: 400, errors: [{ param: "proposal_id", in: "body", message: "Send exactly one of proposal_id, simulation_id and terms" }] });
    const bad = await assess(t, { customer_id: customer.id, terms: { product: "car_loan", installment_amount: 0, term: 12 } });
    expect(bad.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(["terms.installment_amount", "terms.product"]);
    expect(await db().riskAssessment.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("submission: approve approves (risk-engine), decline rejects with the reasons, review waits for staff", async () => {
    const t = await creditTenant();
    const outcomes: [number | null, string, string | null][] = [
      [450000, "approved", null],
      [150000, "rejected", "Declined by risk assessment"],
      [null, "pending_review", null],
    ];
    for (const [income, status, reason] of outcomes) {
      const { proposal, customer } = await newProposal(t);
      await db().customer.update({ where: { id: customer.id }, data: { monthlyIncome: income === null ? null : BigInt(income) } });
      const res = await call(submit, { base: t.base, path: `/v1/proposals/${proposal.id}/submit`, headers: t.headers, params: { id: proposal.id } });
      expect(res.status).toBe(200);
      expect(res.body.status, String(income)).toBe(status);
      expect(res.body.risk_assessment_id).toMatch(/^rsk_/);
      if (reason) expect(res.body.reason).toMatch(new RegExp(`^${reason} rsk_\\w+: income_commitment_excessive`));
      const reservations = await db().marginReservation.findMany({ where: { proposalId: proposal.id } });
      expect(reservations.map((r) => r.status)).toEqual(status === "rejected" ? [] : ["reserved"]);
      if (status === "approved") {
        const audit = await db().auditLog.findFirstOrThrow({ where: { targetId: proposal.id, action: "proposal.approved" } });
        expect({ type: audit.actorType, label: audit.actorLabel }).toEqual({ type: "system", label: "risk-engine" });
      }
    }
  });

  it("another tenant's or environment's assessment is 404; risk:read cannot write", async () => {
    const t = await creditTenant();
    const customer = await customerWithIncome(t, 450000);
    const made = (await assess(t, { customer_id: customer.id, terms: { product: "personal_loan", installment_amount: 60000, term: 24 } })).body;
    const other = await creditTenant();
    const production = await newKey(t.tenant.id, "production", ["read", "write"]);
    for (const who of [{ base: other.base, headers: other.headers }, { base: PRODUCTION, headers: bearer(production.key, t.tenant.id) }]) {
      expect((await call(getAssessment, { ...who, path: `/v1/risk-assessments/${made.id}`, params: { id: made.id } })).status).toBe(404);
      expect((await call(createAssessment, { ...who, path: "/v1/risk-assessments", json: { customer_id: customer.id, terms: { product: "personal_loan", installment_amount: 1, term: 1 } } })).status).toBe(404);
    }
    const reader = await newKey(t.tenant.id, "sandbox", ["risk:read"]);
    const denied = await call(createAssessment, { base: t.base, path: "/v1/risk-assessments", headers: bearer(reader.key, t.tenant.id), json: { customer_id: customer.id, terms: { product: "personal_loan", installment_amount: 1, term: 1 } } });
    expect(denied.status).toBe(403);
    // An assessment's inputs are the customer's birth date and income: made and read with customers:read too.
    const writer = await newKey(t.tenant.id, "sandbox", ["risk:write"]);
    const blind = await call(createAssessment, { base: t.base, path: "/v1/risk-assessments", headers: bearer(writer.key, t.tenant.id), json: { customer_id: customer.id, terms: { product: "personal_loan", installment_amount: 1, term: 1 } } });
    expect(blind.body).toMatchObject({ status: 403, code: "insufficient_permissions", detail: "This operation requires the risk:write and customers:read permissions (its answer carries what customers:read reads)" });
    const get = (key: string) => call(getAssessment, { base: t.base, path: `/v1/risk-assessments/${made.id}`, headers: bearer(key, t.tenant.id), params: { id: made.id } });
    expect((await get(reader.key)).status).toBe(403);
    expect((await get((await newKey(t.tenant.id, "sandbox", ["risk:read", "customers:read"])).key)).body).toMatchObject({ id: made.id, inputs: { monthly_income: 450000 } });
    expect(await db().riskAssessment.count({ where: { customerId: customer.id } })).toBe(1);
  });
});
