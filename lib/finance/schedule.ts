import { priceSchedule } from "./price-schedule";
import { sacSchedule } from "./sac-schedule";
import type { Centavos } from "./money";
import type { AmortizationSystem, Installment, ScheduleInput } from "./schedule-types";

export function buildSchedule(system: AmortizationSystem, input: ScheduleInput): Installment[] {
  return system === "price" ? priceSchedule(input) : sacSchedule(input);
}

export type ScheduleTotals = { payment: Centavos; interest: Centavos; amortization: Centavos };

/** The schedule's largest installment (Price: the last, which absorbs the rounding; SAC: the first); 0 when empty. */
export function largestPayment(installments: readonly Pick<Installment, "payment">[]): Centavos {
  return installments.reduce((max, row) => Math.max(max, row.payment), 0);
}

export function scheduleTotals(installments: readonly Installment[]): ScheduleTotals {
  return installments.reduce(
    (sum, row) => ({
      payment: sum.payment + row.payment,
      interest: sum.interest + row.interest,
      amortization: sum.amortization + row.amortization,
    }),
    { payment: 0, interest: 0, amortization: 0 },
  );
}
