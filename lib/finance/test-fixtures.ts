// Shared test inputs (imported only by *.test.ts files).
import fc from "fast-check";
import * as D from "./decimal";
import { addDays } from "./date";
import type { IofConfig } from "./iof";
import type { AmortizationSystem } from "./schedule-types";

export const IOF_2025: IofConfig = { dailyRatePF: "0.000082", dailyRatePJ: "0.000041", additionalRatePF: "0.0038", additionalRatePJ: "0.0038" };

// principal 1,000.00–1,000,000.00 BRL, monthly rate 0–5% (basis points), 1–120 installments,
// disbursement any day from 2024 to mid-2030 (covers leap years and the Nov 20 change).
export const loanArb = fc.record({
  principal: fc.integer({ min: 100_000, max: 100_000_000 }),
  monthlyRate: fc.integer({ min: 0, max: 500 }).map((bp) => D.toString(D.fromRatio(bp, 10_000))),
  installments: fc.integer({ min: 1, max: 120 }),
  disbursementDate: fc.integer({ min: 0, max: 2500 }).map((n) => addDays("2024-01-01", n)),
});

export const systemArb = fc.constantFrom<AmortizationSystem>("price", "sac");
export const borrowerArb = fc.constantFrom<"PF" | "PJ">("PF", "PJ");
