import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { todayInBrazil } from "@/lib/clock";
import { addMonths, buildSchedule, cashFlowsFromSchedule, computeCet, computeIof, solveFinancedPrincipal } from "@/lib/finance";
import { IOF_RATES } from "@/lib/products";
import { caller, customer, INSS_96, inssCustomer, invalid, PERSONAL, payrollLinkRequired, ruleViolation, simulate } from "./helpers";

afterAll(() => stopListener());

describe("POST /v1/simulations", () => {
  it("golden: personal loan, R$ 1,000.00 net, 1% a.m., 12 months, IOF paid upfront — numbers from lib/finance", async () => {
    const who = await caller();
    const res = await simulate(who, PERSONAL);
    expect(res.status).toBe(201);

    const schedule = buildSchedule("price", { principal: 100000, monthlyRate: "0.01", installments: 12, disbursementDate: "2026-03-02", dueDateRule: "following" });
    const iof = computeIof({ borrower: "PF", principal: 100000, disbursementDate: "2026-03-02", installments: schedule }, IOF_RATES);
    const cet = computeCet({ disbursementDate: "2026-03-02", released: 100000 - iof.total, flows: cashFlowsFromSchedule(schedule) });
    expect(schedule[0]!.payment).toBe(8885); // 1000 × 0.01 / (1 − 1.01^−12) = 88.8488 → R$ 88.85
    expect(iof.additional).toBe(380); // 0.38% of R$ 1,000.00
    expect(iof.daily).toBe(iof.rows.reduce((sum, r) => sum + r.iof, 0)); // the total is the sum of the rows shown
    expect(res.body).toEqual({
      id: expect.stringMatching(/^sim_[0-9A-Z]{26}$/),
      object: "simulation",
      product: "personal_loan",
      amortization: "price",
      term: 12,
      monthly_rate: "0.01",
      tax_rate: "0.01", // deprecated, still answered: always monthly_rate
      annual_rate: "0.12682503", // 1.01^12 − 1
      borrower_kind: "PF",
      requested_amount: 100000,
      principal: 100000,
      released_amount: 100000,
      upfront_charges: iof.total,
      installment_amount: 8885,
      max_installment_amount: 8885,
      iof: { daily: iof.daily, additional: iof.additional, total: iof.total, financed: false },
      fees: [],
      totals: {
        payments: schedule.reduce((s, r) => s + r.payment, 0),
        interest: schedule.reduce((s, r) => s + r.interest, 0),
        amortization: 100000,
      },
      cet: { monthly_percent: cet.monthlyPercent, annual_percent: cet.annualPercent },
      disbursement_date: "2026-03-02",
      first_due_date: "2026-04-02",
      due_date_rule: "following",
      schedule,
      iof_schedule: iof.rows,
      customer_id: null,
      environment: "sandbox",
      created_at: expect.any(String),
    });
    // Paying IOF upfront makes the CET exceed the contract rate.
    expect(Number(cet.monthlyPercent)).toBeGreaterThan(1);
    // 2026-11-02 (Finados) and 2027-01-02 (Saturday) move to the next business day; interest does not.
    expect(res.body.schedule.map((r: { due_date: string }) => r.due_date).slice(7, 11)).toEqual(["2026-11-03", "2026-12-02", "2027-01-04", "2027-02-02"]);
    const row = await db().simulation.findFirstOrThrow({ where: { id: res.body.id } });
    expect([row.tenantId, row.environment, row.principal, row.releasedAmount, row.monthlyRate]).toEqual([who.tenantId, "sandbox", 100000n, 100000n, "0.01"]);
    const events = await db().outboxEvent.findMany({ where: { tenantId: who.tenantId, type: "simulation.created" } });
    expect(events.map((e) => (e.payload as { id: string }).id)).toEqual([res.body.id]);
    expect(events[0]!.payload).not.toHaveProperty("schedule");
    expect(events[0]!.payload).toMatchObject({ monthly_rate: "0.01", tax_rate: "0.01" }); // the webhook's SimulationSummary
  });

  it("INSS payroll, 96 months Price, IOF financed: released = requested, schedule closes at zero", async () => {
    const who = await caller();
    const res = await simulate(who, { ...INSS_96, customer_id: await inssCustomer(who) });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.released_amount).toBe(10_000_00);
    expect(b.upfront_charges).toBe(0);
    expect(b.iof.financed).toBe(true);
    expect(b.principal).toBe(b.requested_amount + b.iof.total);
    expect(b.schedule).toHaveLength(96);
    expect(b.schedule.at(-1).closing_balance).toBe(0);
    expect(b.schedule.reduce((s: number, r: { amortization: number }) => s + r.amortization, 0)).toBe(b.principal);
    expect(b.totals.amortization).toBe(b.principal);
    // The IOF solved by the library for the same schedule inputs, and the IOF of the answered schedule.
    const scheduleInput = { monthlyRate: "0.0185", installments: 96, disbursementDate: "2026-03-02", dueDateRule: "following" as const };
    const iofOf = (principal: number) =>
      computeIof({ borrower: "PF", principal, disbursementDate: "2026-03-02", installments: buildSchedule("price", { ...scheduleInput, principal }) }, IOF_RATES).total;
    expect(solveFinancedPrincipal(10_000_00, iofOf)).toEqual({ principal: b.principal, iof: b.iof.total, released: 10_000_00 });
    expect(b.schedule).toEqual(buildSchedule("price", { ...scheduleInput, principal: b.principal }));
    expect(b.iof.total).toBeLessThanOrEqual(Math.ceil(b.principal * 0.0338)); // ≤ 3% daily cap + 0.38%
    expect(Number(b.cet.monthly_percent)).toBeGreaterThan(1.85);
  });

  it("grace: a 51-day first period on a 96-month INSS Price capitalizes its excess interest and still closes at zero", async () => {
    const who = await caller();
    const res = await simulate(who, { ...INSS_96, requested_amount: 1000000, first_due_date: "2026-04-22", customer_id: await inssCustomer(who) });
    expect(res.status).toBe(201);
    const schedule = res.body.schedule as { amortization: number; closing_balance: number; opening_balance: number }[];
    expect(schedule[0]!.amortization).toBeLessThan(0);
    expect(schedule[0]!.closing_balance).toBeGreaterThan(schedule[0]!.opening_balance);
    expect(schedule.at(-1)!.closing_balance).toBe(0);
    expect(schedule.reduce((sum, r) => sum + r.amortization, 0)).toBe(res.body.principal);
    expect(res.body.released_amount).toBe(1000000);
  });

  it("SAC: constant amortization, decreasing installments; payroll products are Price only", async () => {
    const who = await caller();
    const payroll = await simulate(who, { ...INSS_96, term: 24, amortization: "sac", due_date_rule: "keep", customer_id: await inssCustomer(who) });
    expect(payroll.status).toBe(400);
    expect(payroll.body).toMatchObject({
      code: "product_rule_violation",
      errors: [{ param: "amortization", in: "body", message: "inss_payroll offers price only: the paying source deducts one fixed installment a month" }],
    });
    const res = await simulate(who, { ...PERSONAL, term: 24, monthly_rate: "0.0185", amortization: "sac", due_date_rule: "keep" });
    expect(res.status).toBe(201);
    const { schedule, principal } = res.body;
    const a = Math.floor(principal / 24);
    expect(schedule.slice(0, 23).every((r: { amortization: number }) => r.amortization === a)).toBe(true);
    expect(schedule[23].amortization).toBe(principal - 23 * a);
    expect(schedule[0].payment).toBeGreaterThan(schedule[23].payment);
    expect(res.body.installment_amount).toBe(schedule[0].payment);
    expect(res.body.max_installment_amount).toBe(schedule[0].payment);
    expect(schedule).toEqual(buildSchedule("sac", { principal, monthlyRate: "0.0185", installments: 24, disbursementDate: "2026-03-02", dueDateRule: "keep" }));
  });

  it("fees: financed ones join the principal, the others are upfront charges counted in the CET", async () => {
    const who = await caller();
    const fees = [
      { type: "insurance", amount: 50_00, financed: true },
      { type: "registration", amount: 30_00, financed: false },
    ];
    const res = await simulate(who, { ...PERSONAL, iof_financed: true, fees });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.fees).toEqual(fees);
    expect(b.principal).toBe(1000_00 + 50_00 + b.iof.total);
    expect([b.released_amount, b.upfront_charges]).toEqual([1000_00, 30_00]);
    const cet = computeCet({ disbursementDate: "2026-03-02", released: 1000_00 - 30_00, flows: cashFlowsFromSchedule(b.schedule) });
    expect(b.cet).toEqual({ monthly_percent: cet.monthlyPercent, annual_percent: cet.annualPercent });
  });

  it("installment_amount: the largest principal none of whose Price installments exceeds it, the last included", async () => {
    const who = await caller();
    const res = await simulate(who, { ...PERSONAL, requested_amount: undefined, installment_amount: 150_00, term: 24, monthly_rate: "0.03" });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.requested_amount).toBeNull();
    expect(b.installment_amount).toBeLessThanOrEqual(150_00);
    const input = { monthlyRate: "0.03", installments: 24, disbursementDate: "2026-03-02", dueDateRule: "following" as const };
    const largest = (principal: number) => Math.max(...buildSchedule("price", { ...input, principal }).map((row) => row.payment));
    expect(largest(b.principal)).toBeLessThanOrEqual(150_00);
    expect(largest(b.principal + 1)).toBeGreaterThan(150_00);
    expect(b.max_installment_amount).toBeLessThanOrEqual(150_00);
    expect(b.released_amount).toBe(b.principal); // IOF not financed: paid upfront
    expect(b.upfront_charges).toBe(b.iof.total);
  });

  it("defaults: Price, disbursement today in São Paulo, first due date a month later, following rule, PF, IOF financed", async () => {
    const who = await caller();
    const res = await simulate(who, { product: "personal_loan", requested_amount: 500_00, term: 3, monthly_rate: "0.02" });
    expect(res.status).toBe(201);
    const today = todayInBrazil();
    expect(res.body).toMatchObject({ amortization: "price", disbursement_date: today, first_due_date: addMonths(today, 1), due_date_rule: "following", borrower_kind: "PF", iof: { financed: true }, released_amount: 500_00, fees: [] });
  });

  it("tax_rate alone still works and is answered with deprecation headers", async () => {
    const who = await caller();
    const res = await simulate(who, { ...PERSONAL, monthly_rate: undefined, tax_rate: "0.0100" });
    expect(res.status).toBe(201);
    expect([res.body.monthly_rate, res.body.tax_rate]).toEqual(["0.01", "0.01"]);
    expect(res.headers.get("deprecation")).toBe("@1701388800"); // RFC 9745: since 2023-12-01 (1.3.0)
    expect(res.headers.get("warning")).toBe('299 - "tax_rate is deprecated; use monthly_rate"');
    expect(res.headers.get("link")).toBe('</v1/openapi.json>; rel="deprecation"');
    const plain = await simulate(who, PERSONAL);
    expect(plain.headers.get("deprecation")).toBeNull();
    const both = await simulate(who, { ...PERSONAL, tax_rate: "0.010" });
    expect([both.status, both.headers.get("deprecation")]).toEqual([201, "@1701388800"]);
  });

  it("customer_id: must exist in this tenant and environment; payroll products need the matching payroll link", async () => {
    const who = await caller();
    const other = await caller();
    const inss = await customer(who, "sandbox", { type: "inss", benefit_number: "1234567890" });
    const noLink = await customer(who, "sandbox", null);
    const worker = await customer(who, "sandbox", { type: "private", employer_cnpj: "11222333000181", registration: "42" });
    const company = await customer(who, "sandbox", null, "company");
    const live = await customer(who, "production", { type: "inss", benefit_number: "1234567890" });
    const foreign = await customer(other, "sandbox", { type: "inss", benefit_number: "1234567890" });

    const ok = await simulate(who, { ...INSS_96, term: 12, customer_id: inss });
    expect([ok.status, ok.body.customer_id, ok.body.borrower_kind]).toEqual([201, inss, "PF"]);
    const pj = await simulate(who, { ...PERSONAL, customer_id: company });
    expect([pj.status, pj.body.borrower_kind]).toEqual([201, "PJ"]);
    // A company's flat IOF is 0.95% of the principal (Decreto 12.499/2025), an individual's 0.38%.
    expect(pj.body.iof.additional).toBe(Number((BigInt(pj.body.principal) * 95n + 5_000n) / 10_000n));
    expect(ok.body.iof.additional).toBe(Number((BigInt(ok.body.principal) * 38n + 5_000n) / 10_000n));

    for (const id of [live, foreign, "cus_01JD0000000000000000000000"]) {
      const res = await simulate(who, { ...INSS_96, term: 12, customer_id: id });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "not_found", detail: "Customer not found" });
    }
    for (const id of [noLink, worker]) {
      const res = await simulate(who, { ...INSS_96, term: 12, customer_id: id });
      expect(res.body).toEqual(payrollLinkRequired("inss", "The customer has no inss payroll link, which inss_payroll requires"));
    }
    const mismatch = await simulate(who, { ...PERSONAL, customer_id: company, borrower_kind: "PF" });
    expect(mismatch.body).toMatchObject({ code: "validation_error", errors: [{ param: "borrower_kind", in: "body", message: "The customer is a company (PJ)" }] });

    // The company's simulation (assumed PF, refused by the insert, computed again as PJ) is exactly an explicit PJ one,
    // and only the two accepted simulations were stored, each with one event.
    const explicit = await simulate(who, { ...PERSONAL, borrower_kind: "PJ" });
    const terms = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([k]) => !["id", "customer_id", "created_at"].includes(k)));
    expect(terms(pj.body)).toEqual(terms(explicit.body));
    const stored = await db().simulation.findMany({ where: { tenantId: who.tenantId }, select: { id: true }, orderBy: { createdAt: "asc" } });
    expect(stored.map((s) => s.id)).toEqual([ok.body.id, pj.body.id, explicit.body.id]);
    expect(await db().outboxEvent.count({ where: { tenantId: who.tenantId, type: "simulation.created" } })).toBe(3);
  });
});

describe("POST /v1/simulations — rejected requests (whole bodies)", () => {
  it("refuses unknown fields, both amounts, a tax_rate that differs, installment_amount with SAC", async () => {
    const who = await caller();
    expect((await simulate(who, { ...PERSONAL, tenant_id: "ten_x", status: "approved" })).body).toEqual(
      invalid({ param: "tenant_id", message: "Unknown field" }, { param: "status", message: "Unknown field" }),
    );
    expect((await simulate(who, { ...PERSONAL, installment_amount: 100_00 })).body).toEqual(
      invalid({ param: "installment_amount", message: "Send exactly one of requested_amount and installment_amount" }),
    );
    const noAmount = { ...PERSONAL, requested_amount: undefined }; // undefined fields are not sent
    expect((await simulate(who, noAmount)).body).toEqual(invalid({ param: "requested_amount", message: "Send exactly one of requested_amount and installment_amount" }));
    const res = await simulate(who, { ...PERSONAL, tax_rate: "0.02" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid({ param: "tax_rate", message: "tax_rate (deprecated) differs from monthly_rate; send monthly_rate only" }));
    expect((await simulate(who, { ...noAmount, installment_amount: 100_00, amortization: "sac" })).body).toEqual(
      invalid({ param: "installment_amount", message: "installment_amount needs amortization price (SAC installments are not equal)" }),
    );
    expect((await simulate(who, { ...PERSONAL, monthly_rate: 0.01, disbursement_date: "2026-02-30" })).body).toEqual(
      invalid(
        { param: "monthly_rate", message: "Invalid input: expected string, received number" },
        { param: "disbursement_date", message: "Must be a valid date YYYY-MM-DD" },
      ),
    );
    expect((await simulate(who, { ...PERSONAL, first_due_date: "2026-03-02" })).body).toEqual(
      problem400("first_due_date", "Must be after disbursement_date"),
    );
    const upfront = [{ type: "registration", amount: 999_99, financed: false }];
    expect((await simulate(who, { ...PERSONAL, requested_amount: 1000_00, iof_financed: true, fees: upfront, first_due_date: "2026-03-03" })).body).toEqual(
      problem400("requested_amount", "The upfront charges leave too little released to compute a CET"),
    );
    expect(await db().simulation.count({ where: { tenantId: who.tenantId } })).toBe(0);
  });

  it("enforces the product's rules: INSS rate cap (exact decimals), 96-month term, amount range", async () => {
    const who = await caller();
    const overCap = await simulate(who, { ...INSS_96, monthly_rate: "0.01850001" });
    expect(overCap.status).toBe(400);
    expect(overCap.body).toEqual(ruleViolation("inss_payroll", { param: "monthly_rate", message: "Must be at most 0.0185 (monthly) for inss_payroll" }));
    expect((await simulate(who, { ...INSS_96, monthly_rate: "0.01850000", customer_id: await inssCustomer(who) })).status).toBe(201);
    expect((await simulate(who, { ...INSS_96, term: 97 })).body).toEqual(
      ruleViolation("inss_payroll", { param: "term", message: "Must be from 1 to 96 months for inss_payroll" }),
    );
    expect((await simulate(who, { ...INSS_96, monthly_rate: undefined, tax_rate: "0.02", term: 97 })).body).toEqual(
      ruleViolation(
        "inss_payroll",
        { param: "term", message: "Must be from 1 to 96 months for inss_payroll" },
        { param: "tax_rate", message: "Must be at most 0.0185 (monthly) for inss_payroll" },
      ),
    );
    expect((await simulate(who, { ...PERSONAL, requested_amount: 99_99 })).body).toEqual(
      ruleViolation("personal_loan", { param: "requested_amount", message: "The financed principal (99.99) must be from 100.00 to 1000000.00 BRL for personal_loan" }),
    );
    expect((await simulate(who, { ...PERSONAL, term: 61 })).body.errors).toEqual([{ param: "term", in: "body", message: "Must be from 1 to 60 months for personal_loan" }]);
  });

  it("a read-only key cannot simulate (403)", async () => {
    const who = await caller("sandbox", ["read"]);
    const res = await simulate(who, PERSONAL);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "insufficient_permissions", detail: "This operation requires the simulations:write permission" });
  });
});

function problem400(param: string, message: string) {
  return {
    type: "urn:credit-platform:problem:validation_error",
    title: "The request is invalid",
    status: 400,
    detail: message,
    code: "validation_error",
    request_id: expect.any(String),
    errors: [{ param, in: "body", message }],
  };
}

describe("a loan sized to the payroll margin", () => {
  // The first installment at the target left the last ≈ 1 real above it (rounding shortfall carried with interest):
  // a simulation by `installment_amount` = the available margin was then refused at the proposal (insufficient_margin).
  it("fits it: no installment of 96 at the INSS cap exceeds the requested one, and a centavo more principal would", async () => {
    const who = await caller();
    const body = { product: "inss_payroll", installment_amount: 500_00, term: 96, monthly_rate: "0.0185", disbursement_date: "2026-03-10" };
    const borrower = await inssCustomer(who);
    const res = await simulate(who, { ...body, customer_id: borrower });
    expect(res.status, res.text).toBe(201);
    expect(res.body.installment_amount).toBeLessThanOrEqual(500_00);
    expect(res.body.max_installment_amount).toBeLessThanOrEqual(500_00);
    expect(Math.max(...res.body.schedule.map((row: { payment: number }) => row.payment))).toBe(res.body.max_installment_amount);
    const schedule = (principal: number) => buildSchedule("price", { principal, monthlyRate: "0.0185", installments: 96, disbursementDate: "2026-03-10", dueDateRule: "following" });
    expect(Math.max(...schedule(res.body.principal + 1).map((row) => row.payment))).toBeGreaterThan(500_00);
  });
});
