import type { Simulation } from "@prisma/client";
import { largestPayment } from "@/lib/finance";
import type { SimulationResult } from "./compute";
import type { SimulationResponse, SimulationSummary } from "./schemas";

// A stored simulation → its API object. `result` holds the computed fields as first answered, so GET
// returns what POST returned; identity, scope and time come from the columns. Keys are listed in
// order because jsonb does not keep the order they were written in; the long schedule comes last.
type Row = Pick<Simulation, "id" | "customerId" | "environment" | "createdAt">;

export function toSimulationSummary(row: Row, r: SimulationResult): SimulationSummary {
  return {
    id: row.id,
    object: "simulation",
    product: r.product,
    amortization: r.amortization,
    term: r.term,
    monthly_rate: r.monthly_rate,
    tax_rate: r.monthly_rate, // deprecated name of the same rate (1.3.0)
    annual_rate: r.annual_rate,
    borrower_kind: r.borrower_kind,
    requested_amount: r.requested_amount,
    principal: r.principal,
    released_amount: r.released_amount,
    upfront_charges: r.upfront_charges,
    installment_amount: r.installment_amount,
    // Stored before the field existed: read from the schedule (lists store a summary without it: the first).
    max_installment_amount: r.max_installment_amount ?? (r.schedule ? largestPayment(r.schedule) : r.installment_amount),
    iof: { daily: r.iof.daily, additional: r.iof.additional, total: r.iof.total, financed: r.iof.financed },
    fees: r.fees.map((f) => ({ type: f.type, amount: f.amount, financed: f.financed })),
    totals: { payments: r.totals.payments, interest: r.totals.interest, amortization: r.totals.amortization },
    cet: { monthly_percent: r.cet.monthly_percent, annual_percent: r.cet.annual_percent },
    disbursement_date: r.disbursement_date,
    first_due_date: r.first_due_date,
    due_date_rule: r.due_date_rule,
    customer_id: row.customerId,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
  };
}

export function toSimulationResponse(row: Row, r: SimulationResult): SimulationResponse {
  const schedule = r.schedule.map((i) => ({
    number: i.number,
    due_date: i.due_date,
    opening_balance: i.opening_balance,
    interest: i.interest,
    amortization: i.amortization,
    payment: i.payment,
    closing_balance: i.closing_balance,
  }));
  const iofSchedule = r.iof_schedule?.map((i) => ({ number: i.number, due_date: i.due_date, days: i.days, base: i.base, iof: i.iof })) ?? null;
  return { ...toSimulationSummary(row, r), schedule, iof_schedule: iofSchedule };
}

const resultOf = (row: Simulation) => row.result as unknown as SimulationResult;

export const fromRow = (row: Simulation): SimulationResponse => toSimulationResponse(row, resultOf(row));
