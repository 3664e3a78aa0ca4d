import { addDays, adjust, type IsoDate } from "@/lib/finance";

/** Days after disbursement during which the borrower may withdraw (Código de Defesa do Consumidor, art. 49). */
export const WITHDRAWAL_DAYS = 7;

/** The last day the borrower may withdraw (CDC art. 49): WITHDRAWAL_DAYS after the disbursement, moved to the next
 *  business day when it falls on a weekend or a national holiday (Código Civil art. 132 §1: a period ending on a day
 *  without business runs to the next business day). Disbursed Monday 2026-02-09, the seventh day is Carnival Monday:
 *  the right lasts through Wednesday 2026-02-18. The one rule for canceling and for offering to an assignee. */
export function withdrawalEndsOn(disbursementDate: IsoDate): IsoDate {
  return adjust(addDays(disbursementDate, WITHDRAWAL_DAYS), "following");
}
