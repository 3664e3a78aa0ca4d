import { describe, expect, it } from "vitest";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { computeSimulation } from "@/lib/simulations/compute";

// lib/products.ts: each product's CET ceiling is above the worst fee-free loan at its rate cap whose first due date,
// after the due-date rule, is 20 days or more after disbursement. The worst found (every disbursement day of
// 2026–2027, terms 1–12, nominal first periods of 20–30 days, the three rules) is one installment disbursed on
// 2026-01-23 with a nominal first due date 25 days later that `preceding` moves back over Carnival to day 21.

const worst = (product: ProductCode, rate: string, borrowerKind: "PF" | "PJ", firstDueDate: string, disbursementDate = "2026-01-23") =>
  computeSimulation({
    product,
    amount: { kind: "requested", value: 5_000_00 },
    term: 1,
    monthlyRate: rate,
    amortization: "price",
    disbursementDate,
    firstDueDate,
    dueDateRule: "preceding",
    borrowerKind,
    iofFinanced: false,
    fees: [],
  });

describe("CET ceilings against the worst fee-free loan at each rate cap", () => {
  it.each([
    ["inss_payroll", "0.0185", "PF", "43.59"],
    ["private_payroll", "0.0399", "PF", "94.05"],
    ["personal_loan", "0.08", "PF", "235.67"],
    ["personal_loan", "0.08", "PJ", "270.94"],
  ] as const)("%s at %s a month (%s): %s%% a year, under the ceiling", (product, rate, borrower, expected) => {
    const result = worst(product, rate, borrower, "2026-02-17");
    expect(result.schedule[0]!.due_date).toBe("2026-02-13"); // Friday before Carnival: 21 days, interest for 25
    expect(result.cet.annual_percent).toBe(expected);
    expect(Number(expected)).toBeLessThan(Number(PRODUCTS[product].maxAnnualCet) * 100);
  });

  it("a first period of a few days is what the INSS ceiling refuses: a nominal 20 days moved back to 16", () => {
    const result = worst("inss_payroll", "0.0185", "PF", "2026-02-17", "2026-01-28");
    expect(result.schedule[0]!.due_date).toBe("2026-02-13");
    expect(Number(result.cet.annual_percent)).toBeGreaterThan(45);
  });
});
