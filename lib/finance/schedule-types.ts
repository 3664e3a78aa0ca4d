import type { Centavos } from "./money";
import type { IsoDate } from "./date";
import type { AdjustRule } from "./business-days";
import type { CalendarOptions } from "./holidays";

export type AmortizationSystem = "price" | "sac";

export type ScheduleInput = {
  principal: Centavos;
  /** Monthly contract rate as a decimal string: "0.0185" = 1.85% a.m. */
  monthlyRate: string;
  installments: number;
  disbursementDate: IsoDate;
  /** Defaults to one month after disbursement; later dates create a grace period. */
  firstDueDate?: IsoDate;
  /** How due dates on weekends/holidays move; amounts are unaffected (computed on nominal periods). */
  dueDateRule?: AdjustRule;
  calendar?: CalendarOptions;
};

export type Installment = {
  number: number;
  due_date: IsoDate;
  opening_balance: Centavos;
  interest: Centavos;
  amortization: Centavos;
  payment: Centavos;
  closing_balance: Centavos;
};
