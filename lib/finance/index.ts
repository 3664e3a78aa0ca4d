// Public API of the pure finance library: money, rates, calendar, schedules, IOF, CET, payoff, arrears.
// Nothing here does I/O or reads configuration; every rate and rule is an argument.

export * as decimal from "./decimal";
export type { Decimal } from "./decimal";
export { exp, ln, pow, growth } from "./decimal-math";
export { roundDiv, type RoundingMode } from "./rounding";
export {
  type Centavos,
  assertCentavos,
  assertPositiveCentavos,
  applyRate,
  applyRateProRata,
  roundCentavos,
  parseReais,
  formatReais,
  formatBRL,
} from "./money";
export { parseRate, annualFromMonthly, monthlyFromAnnual, monthsAndDays, periodExponent } from "./rates";

export {
  type IsoDate,
  type DateParts,
  parseIsoDate,
  formatIsoDate,
  isLeapYear,
  daysInMonth,
  toDayNumber,
  fromDayNumber,
  addDays,
  addMonths,
  daysBetween,
  weekday,
  compareDates,
} from "./date";
export { easterSunday } from "./easter";
export { type Holiday, type CalendarOptions, nationalHolidays, isHoliday } from "./holidays";
export {
  type AdjustRule,
  isBusinessDay,
  nextBusinessDay,
  previousBusinessDay,
  adjust,
  businessDaysBetween,
  addBusinessDays,
} from "./business-days";
export { nominalDueDates, generateDueDates, monthlyDueDatesAfter, scheduleNominalDates } from "./due-dates";

export type { AmortizationSystem, ScheduleInput, Installment } from "./schedule-types";
export { MAX_INSTALLMENTS } from "./schedule-setup";
export { priceSchedule } from "./price-schedule";
export { sacSchedule } from "./sac-schedule";
export { buildSchedule, largestPayment, scheduleTotals, type ScheduleTotals } from "./schedule";

export { type BorrowerKind, type IofConfig, type IofInput, type IofBreakdown, type IofRow, computeIof } from "./iof";
export {
  type FinancedPrincipal,
  type FinancedIofInput,
  type FinancedIofResult,
  solveFinancedPrincipal,
  financeIof,
} from "./financed-iof";
export { type CashFlow, type CetInput, type CetResult, type CetPercents, computeCet, cetPercents, cashFlowsFromSchedule } from "./cet";
export { type EarlyPayoffInput, type EarlyPayoffResult, earlyPayoff } from "./early-payoff";
export { type LateChargesInput, type LateChargesBreakdown, isLate, lateCharges, latestLateDueDate } from "./late-charges";
export { type OpenInstallment, type PayoffLine, type PrepaymentInput, type PrepaymentResult, payoffLines, prepaymentSchedule } from "./prepayment";
export { shareProportionally } from "./proportional";
