import { describe, expect, it } from "vitest";
import { historyOf, type InstallmentRow } from "./history";

// The payment record the scorecard reads, row by row. as_of Thursday 2026-11-26: two business days back is Tuesday
// 11-24, whose latest late due date is Monday 11-23 — so an installment due Monday and unpaid counts, one due Tuesday
// (perhaps paid Tuesday and still clearing) does not yet.

const AS_OF = "2026-11-26";
const row = (change: Partial<InstallmentRow>): InstallmentRow => ({
  contract_id: "ctr_A",
  contract_status: "active",
  product: "personal_loan",
  amount: 50000n,
  status: "open",
  due_date: "2026-12-10",
  paid_on: null,
  ...change,
});
const counts = (rows: InstallmentRow[]) => historyOf(rows, AS_OF).counts;
const none = { paid_installments: 0, paid_on_time: 0, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 0 };

describe("historyOf", () => {
  it.each<[string, Partial<InstallmentRow>, Partial<typeof none>]>([
    ["not yet due", {}, {}],
    ["unpaid, due Monday: overdue past the clearing days", { due_date: "2026-11-23" }, { overdue_now: 1 }],
    ["unpaid, due Tuesday: may still be clearing", { due_date: "2026-11-24" }, {}],
    ["unpaid, due Saturday 11-21: payable Monday 11-23 without charges, now overdue", { due_date: "2026-11-21" }, { overdue_now: 1 }],
    ["a payroll contract's unpaid installment: counted apart", { due_date: "2026-11-10", product: "inss_payroll" }, { payroll_unpaid_now: 1 }],
    ["a payroll installment unpaid 31 days: the deduction stopped — overdue and a default like any other", { due_date: "2026-10-26", product: "inss_payroll" }, { overdue_now: 1, late_over_30_days_last_12_months: 1 }],
    ["a written-off contract is still owed", { due_date: "2026-11-10", contract_status: "written_off" }, { overdue_now: 1 }],
    ["a canceled contract owes nothing", { due_date: "2026-11-10", contract_status: "canceled" }, {}],
    ["unpaid 31 days: a recent default", { due_date: "2026-10-26" }, { overdue_now: 1, late_over_30_days_last_12_months: 1 }],
    ["unpaid 30 days: not yet", { due_date: "2026-10-27" }, { overdue_now: 1 }],
    ["paid on its due date", { status: "paid", due_date: "2026-10-10", paid_on: "2026-10-10" }, { paid_installments: 1, paid_on_time: 1 }],
    ["due on a Saturday, paid the Monday after: on time (Lei 7.089/1983)", { status: "paid", due_date: "2026-10-17", paid_on: "2026-10-19" }, { paid_installments: 1, paid_on_time: 1 }],
    ["due on a Saturday, paid the Tuesday after: late", { status: "paid", due_date: "2026-10-17", paid_on: "2026-10-20" }, { paid_installments: 1 }],
    ["due on Saturday 10-10, the Monday a national holiday: paid Tuesday 10-13, on time", { status: "paid", due_date: "2026-10-10", paid_on: "2026-10-13" }, { paid_installments: 1, paid_on_time: 1 }],
    ["paid 31 days late: a recent default", { status: "paid", due_date: "2026-06-01", paid_on: "2026-07-02" }, { paid_installments: 1, late_over_30_days_last_12_months: 1 }],
    ["paid exactly 30 days late: not a default", { status: "paid", due_date: "2026-06-01", paid_on: "2026-07-01" }, { paid_installments: 1 }],
    ["paid 31 days late more than 12 months ago: forgotten", { status: "paid", due_date: "2025-11-25", paid_on: "2025-12-27" }, { paid_installments: 1 }],
    ["a payroll installment the paying source transferred 40 days late: not the borrower's default", { status: "paid", product: "inss_payroll", due_date: "2026-06-01", paid_on: "2026-07-11" }, { paid_installments: 1 }],
  ])("%s", (_name, change, expected) => {
    expect(counts([row(change)])).toEqual({ ...none, ...expected });
  });

  it("what the customer still owes: the largest open installment of each contract still collected", () => {
    const rows = [
      row({ amount: 50000n }),
      row({ amount: 52000n, due_date: "2027-01-10" }),
      row({ contract_id: "ctr_B", contract_status: "assigned", amount: 30000n }),
      row({ contract_id: "ctr_C", contract_status: "settled", amount: 99999n, status: "paid", paid_on: "2026-10-01", due_date: "2026-10-01" }),
      row({ contract_id: "ctr_D", contract_status: "canceled", amount: 77777n, status: "canceled" }),
    ];
    expect(historyOf(rows, AS_OF).openDebt).toBe(52000 + 30000);
  });
});
