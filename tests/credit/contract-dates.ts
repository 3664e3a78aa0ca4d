import { todayInBrazil } from "../../lib/clock";
import { addMonths, daysBetween, formatIsoDate, generateDueDates, parseIsoDate } from "../../lib/finance";

// Contract dates relative to the day the tests run. No path aliases: the browser tests (e2e/) import it too.

/** How many installments of a lateContractDates() contract are late, whatever the day. */
export const LATE_INSTALLMENTS = 8;

/**
 * Dates for a sandbox contract disbursed 8 or 9 months ago (the sandbox issues back-dated contracts; production
 * refuses them), with monthly due dates on a day of the month chosen so that, of 12 installments, exactly the first
 * LATE_INSTALLMENTS are late today (due before today) and the rest are still to come — and none is due today or
 * within 5 days of it, on any calendar day.
 *
 * Why no due date can fall on (or near) today, d being today's day of the month:
 * - the nominal due day is D = d − 10 when d > 10, else d + 10: so 1 ≤ D ≤ 21, and no month clamps it (every month
 *   has 28 days or more);
 * - the due date rule `following` (the simulation's default) moves a date forward only past weekends and national
 *   bank holidays, at most 4 days (Carnival Saturday → Wednesday; the longest run of days banks are closed): a due
 *   date of a month lies within days D to D + 4 ≤ 25 of that month, so never in another month;
 * - this month's: with D = d − 10, days d − 10 to d − 6, before today; with D = d + 10, on or after day d + 10;
 *   earlier months' are before this month, later months' after it.
 * The first due date is then set 7 months before this month's due day when that one is already past, else 8, so
 * installments 1 to 8 are late and 9 to 12 to come. The dates are checked below all the same (a test fails loudly
 * rather than quietly testing nothing).
 */
export function lateContractDates(today: string = todayInBrazil()): { disbursement_date: string; first_due_date: string } {
  const { year, month, day } = parseIsoDate(today);
  const dueDay = day > 10 ? day - 10 : day + 10;
  const thisMonthsDue = formatIsoDate({ year, month, day: dueDay });
  const first_due_date = addMonths(thisMonthsDue, dueDay < day ? -(LATE_INSTALLMENTS - 1) : -LATE_INSTALLMENTS);
  const disbursement_date = addMonths(first_due_date, -1);
  const due = generateDueDates(first_due_date, 12, "following");
  const late = due.filter((date) => date < today).length;
  if (late !== LATE_INSTALLMENTS || due.some((date) => Math.abs(daysBetween(today, date)) <= 5)) {
    throw new Error(`lateContractDates(${today}): due dates ${due.join(", ")} do not leave ${LATE_INSTALLMENTS} late and none near today`);
  }
  return { disbursement_date, first_due_date };
}
