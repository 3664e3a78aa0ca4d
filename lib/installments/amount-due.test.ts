import type { Installment } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { allocatable, allocate, amountsDue } from "@/lib/collection/allocation";
import { PRODUCTS } from "@/lib/products";
import { amountDueOn } from "./amount-due";

// An installment's `amount_due` is what a charge or a payment on that day would ask: late charges already received
// (a partial payment takes them first) are not owed again — the same figures as lib/collection/allocation.ts.

const row = (over: Partial<Installment> = {}): Installment =>
  ({
    id: "ins_1",
    number: 1,
    dueDate: new Date("2026-03-10T00:00:00Z"),
    amount: 100_000n,
    principal: 80_000n,
    interest: 20_000n,
    paidAmount: 0n,
    finePaid: 0n,
    lateInterestPaid: 0n,
    lateInterestAccrued: 0n,
    lateInterestAccruedOn: null,
    status: "open",
    ...over,
  }) as Installment;

const rules = { fineRate: PRODUCTS.personal_loan.lateFineRate, monthlyLateInterestRate: PRODUCTS.personal_loan.lateMonthlyInterestRate };

describe("amountDueOn", () => {
  it("before and after a partial payment of a late installment, agrees with the allocation", () => {
    const late = row();
    const before = amountDueOn(late, "personal_loan", "2026-03-20");
    const due = amountsDue(allocatable(late), rules, "2026-03-20");
    expect(before).toEqual({ as_of: "2026-03-20", days_late: 10, outstanding: 100_000, fine: due.fine, late_interest: due.late_interest, total: due.total });

    // R$ 500.00 paid on the 20th: the late charges first, then interest, then principal.
    const [line] = allocate(50_000, [allocatable(late)], rules, "2026-03-20").lines;
    const paid = row({ paidAmount: BigInt(line!.interest + line!.principal), finePaid: BigInt(line!.fine), lateInterestPaid: BigInt(line!.late_interest), status: "partially_paid" });
    const after = amountDueOn(paid, "personal_loan", "2026-03-20");
    expect(after.total).toBe(due.total - 50_000);
    const same = amountsDue(allocatable(paid), rules, "2026-03-20");
    expect(after).toMatchObject({ fine: same.fine, late_interest: same.late_interest, total: same.total });
  });
});
