import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { addDays, buildSchedule, cashFlowsFromSchedule, computeCet, computeIof, formatReais } from "@/lib/finance";
import { IOF_RATES } from "@/lib/products";
import { caller, customer, INSS_96, inssCustomer, PERSONAL, payrollLinkRequired, problem, simulate, type Caller } from "./helpers";

afterAll(() => stopListener());

// Rules that protect borrowers (issue 7 §5): payroll products need a customer with the matching payroll
// link; fees are capped per product; the annual CET has a ceiling per product. Every refusal stores nothing.

const stored = async (who: Caller) => ({
  simulations: await db().simulation.count({ where: { tenantId: who.tenantId } }),
  events: await db().outboxEvent.count({ where: { tenantId: who.tenantId } }),
});

const PRIVATE = { ...INSS_96, product: "private_payroll", monthly_rate: "0.03", term: 24 };

describe("payroll products need a customer with the matching payroll link", () => {
  it("without customer_id: 400 payroll_link_required, nothing stored", async () => {
    const who = await caller();
    const res = await simulate(who, INSS_96);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(payrollLinkRequired("inss", 'Required for inss_payroll: a customer with a payroll link of type inss (payroll.type "inss")'));
    const privateRes = await simulate(who, PRIVATE);
    expect(privateRes.body).toEqual(
      payrollLinkRequired("private", 'Required for private_payroll: a customer with a payroll link of type private (payroll.type "private")'),
    );
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });
  });

  it("a customer with no link or the other kind of link: 400, nothing stored; the matching link: 201", async () => {
    const who = await caller();
    const inss = await inssCustomer(who);
    const none = await customer(who, "sandbox", null);
    const worker = await customer(who, "sandbox", { type: "private", employer_cnpj: "11222333000181", registration: "42" });
    for (const id of [inss, none]) {
      const res = await simulate(who, { ...PRIVATE, customer_id: id });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(payrollLinkRequired("private", "The customer has no private payroll link, which private_payroll requires"));
    }
    const wrong = await simulate(who, { ...INSS_96, customer_id: worker });
    expect(wrong.body).toEqual(payrollLinkRequired("inss", "The customer has no inss payroll link, which inss_payroll requires"));
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });

    const ok = await simulate(who, { ...PRIVATE, customer_id: worker });
    expect([ok.status, ok.body.customer_id]).toEqual([201, worker]);
    expect(await stored(who)).toEqual({ simulations: 1, events: 1 });
  });

  it("personal_loan needs no customer", async () => {
    const who = await caller();
    expect((await simulate(who, PERSONAL)).status).toBe(201);
  });
});

const feeAboveCap = (product: string, ...errors: { param: string; message: string }[]) =>
  problem("fee_above_cap", 400, "A fee exceeds the product's cap", `A fee exceeds the caps of product ${product}`, {
    errors: errors.map((e) => ({ ...e, in: "body" })),
  });

describe("fee caps (lib/products.ts)", () => {
  it("the issue's case: an upfront fee of 97% of the amount is refused, naming the fee; nothing stored", async () => {
    const who = await caller();
    const res = await simulate(who, { ...PERSONAL, fees: [{ type: "insurance", amount: 970_00, financed: false }] });
    expect(res.status).toBe(400);
    // Released 1,000.00 (IOF paid upfront, not financed): 5% of it is 50.00.
    expect(res.body).toEqual(
      feeAboveCap("personal_loan", { param: "fees.0.amount", message: "Must be at most 5% of the released amount (50.00 of 1000.00 BRL) for personal_loan" }),
    );
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });
  });

  it("each fee against its own cap, financed or not; the cap itself is accepted", async () => {
    const who = await caller();
    const fees = [
      { type: "insurance", amount: 50_00, financed: true }, // 5%: the cap
      { type: "registration", amount: 30_01, financed: false }, // 3% + 1 centavo
      { type: "origination", amount: 50_01, financed: true }, // 5% + 1 centavo
    ];
    const res = await simulate(who, { ...PERSONAL, borrower_kind: "PJ", fees }); // TAC: companies only
    expect(res.body).toEqual(
      feeAboveCap(
        "personal_loan",
        { param: "fees.1.amount", message: "Must be at most 3% of the released amount (30.00 of 1000.00 BRL) for personal_loan" },
        { param: "fees.2.amount", message: "Must be at most 5% of the released amount (50.00 of 1000.00 BRL) for personal_loan" },
      ),
    );
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });
    const atCap = await simulate(who, { ...PERSONAL, borrower_kind: "PJ", fees: [fees[0], { ...fees[1], amount: 30_00 }, { ...fees[2], amount: 50_00 }] });
    expect(atCap.status).toBe(201);
  });

  it("INSS consignado allows no fee at all; Crédito do Trabalhador no TAC", async () => {
    const who = await caller();
    const inss = await inssCustomer(who);
    const worker = await customer(who, "sandbox", { type: "private", employer_cnpj: "11222333000181", registration: "42" });
    const oneCentavo = await simulate(who, { ...INSS_96, customer_id: inss, fees: [{ type: "insurance", amount: 1, financed: true }] });
    expect(oneCentavo.body).toEqual(feeAboveCap("inss_payroll", { param: "fees.0.amount", message: "inss_payroll allows no insurance fee" }));
    const tac = await simulate(who, { ...PRIVATE, customer_id: worker, fees: [{ type: "origination", amount: 10_00, financed: false }] });
    expect(tac.body).toEqual(feeAboveCap("private_payroll", { param: "fees.0.type", message: "An origination fee (TAC) is not allowed for individuals (PF)" }));
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });
  });

  it("no TAC for individuals (Res. CMN 3.518/2007) on any product, even 1 centavo; a company's within the cap is accepted", async () => {
    const who = await caller();
    const tac = [{ type: "origination", amount: 1, financed: false }];
    const person = await simulate(who, { ...PERSONAL, fees: tac });
    expect(person.body).toEqual(feeAboveCap("personal_loan", { param: "fees.0.type", message: "An origination fee (TAC) is not allowed for individuals (PF)" }));
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });
    const company = await simulate(who, { ...PERSONAL, borrower_kind: "PJ", fees: tac });
    expect(company.status).toBe(201);
  });
});

describe("CET ceiling (lib/products.ts)", () => {
  // Personal loan, 1,000.00 at 8% a.m. in one installment, with every fee at its cap (13% of the amount,
  // upfront): the fees alone lift the annual CET from ≈ 200% to thousands of percent. Expected figures
  // from lib/finance on the same flows: with fees FC₀ = 1,000.00 − IOF − fees, without them 1,000.00 − IOF.
  it("names the fees when they push the CET over the ceiling; nothing stored", async () => {
    const who = await caller();
    const fees = [
      { type: "origination", amount: 50_00, financed: false },
      { type: "registration", amount: 30_00, financed: false },
      { type: "insurance", amount: 50_00, financed: false },
    ];
    const body = { ...PERSONAL, borrower_kind: "PJ", term: 1, monthly_rate: "0.08", fees, due_date_rule: "keep" };
    const res = await simulate(who, body);
    expect(res.status).toBe(400);

    const schedule = buildSchedule("price", { principal: 100000, monthlyRate: "0.08", installments: 1, disbursementDate: "2026-03-02" });
    const iof = computeIof({ borrower: "PJ", principal: 100000, disbursementDate: "2026-03-02", installments: schedule }, IOF_RATES);
    const cet = (released: number) => computeCet({ disbursementDate: "2026-03-02", released, flows: cashFlowsFromSchedule(schedule) }).annualPercent;
    const withFees = cet(100000 - iof.total - 13000);
    const withoutFees = cet(100000 - iof.total);
    expect(Number(withoutFees)).toBeLessThan(300);
    expect(Number(withFees)).toBeGreaterThan(300);
    expect(res.body).toEqual(
      problem("cet_above_ceiling", 400, "The CET exceeds the product's ceiling", `The CET of ${withFees}% a year exceeds the 300% ceiling of personal_loan`, {
        errors: [{ param: "fees", in: "body", message: `The fees (130.00 BRL) raise the CET from ${withoutFees}% to ${withFees}% a year` }],
      }),
    );
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });
  });

  // INSS, no fees, one installment due 5 days after disbursement: the flat 0.38% IOF annualized over 5
  // days. Interest alone (FC₀ = the whole principal) stays under 45%, so the first due date is named.
  it("names first_due_date when the IOF over a very short first period pushes it", async () => {
    const who = await caller();
    const customerId = await inssCustomer(who);
    const firstDue = addDays("2026-03-02", 5);
    const res = await simulate(who, { ...INSS_96, term: 1, iof_financed: false, first_due_date: firstDue, due_date_rule: "keep", customer_id: customerId });
    expect(res.status).toBe(400);

    const principal = INSS_96.requested_amount;
    const schedule = buildSchedule("price", { principal, monthlyRate: "0.0185", installments: 1, disbursementDate: "2026-03-02", firstDueDate: firstDue });
    const iof = computeIof({ borrower: "PF", principal, disbursementDate: "2026-03-02", installments: schedule }, IOF_RATES);
    const cet = (released: number) => computeCet({ disbursementDate: "2026-03-02", released, flows: cashFlowsFromSchedule(schedule) }).annualPercent;
    const actual = cet(principal - iof.total);
    expect(Number(cet(principal))).toBeLessThan(45);
    expect(res.body).toEqual(
      problem("cet_above_ceiling", 400, "The CET exceeds the product's ceiling", `The CET of ${actual}% a year exceeds the 45% ceiling of inss_payroll`, {
        errors: [
          {
            param: "first_due_date",
            in: "body",
            message: `The IOF (${formatReais(iof.total)} BRL, ${formatReais(iof.additional)} BRL of it charged at once) over a first period of 5 days and 1 installment(s) gives a CET of ${actual}% a year without fees: a later first_due_date or a longer term lowers it`,
          },
        ],
      }),
    );
    expect(await stored(who)).toEqual({ simulations: 0, events: 0 });
    // The same loan with a month-long first period is within the ceiling.
    const monthly = await simulate(who, { ...INSS_96, term: 1, iof_financed: false, customer_id: customerId });
    expect(monthly.status).toBe(201);
    expect(Number(monthly.body.cet.annual_percent)).toBeLessThanOrEqual(45);
  });
});
