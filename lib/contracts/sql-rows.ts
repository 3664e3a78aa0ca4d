import type { Contract, Installment } from "@prisma/client";
import { dateColumn } from "@/lib/serialize";

// Contracts and installments read in plain SQL (lib/db/sql.ts), as the Prisma rows the services and
// serializers take. Money and dates are selected as text: the pg driver and Prisma's raw queries return
// bigint and date columns differently, text reads the same through both.

export const CONTRACT_COLUMNS = `c.id, c.tenant_id, c.environment::text AS environment, c.number, c.proposal_id, c.customer_id, c.status,
  c.principal::text AS principal, c.monthly_rate, c.term, c.disbursement_date::text AS disbursement_date, c.terms,
  c.amount_paid::text AS amount_paid, c.outstanding_balance::text AS outstanding_balance, c.credit_balance::text AS credit_balance,
  c.assignment_id, c.created_at, c.updated_at`;

export type ContractText = {
  id: string; tenant_id: string; environment: string; number: string; proposal_id: string; customer_id: string; status: string;
  principal: string; monthly_rate: string; term: number; disbursement_date: string; terms: unknown; amount_paid: string;
  outstanding_balance: string; credit_balance: string; assignment_id: string | null; created_at: Date; updated_at: Date;
};

export function toContract(c: ContractText): Contract {
  return {
    id: c.id, tenantId: c.tenant_id, environment: c.environment as Contract["environment"], number: c.number, proposalId: c.proposal_id, customerId: c.customer_id,
    status: c.status, principal: BigInt(c.principal), monthlyRate: c.monthly_rate, term: c.term, disbursementDate: dateColumn(c.disbursement_date),
    terms: c.terms as Contract["terms"], amountPaid: BigInt(c.amount_paid), outstandingBalance: BigInt(c.outstanding_balance), creditBalance: BigInt(c.credit_balance),
    assignmentId: c.assignment_id, createdAt: new Date(c.created_at), updatedAt: new Date(c.updated_at),
  };
}

export const INSTALLMENT_COLUMNS = `i.id, i.tenant_id, i.environment::text AS environment, i.contract_id, i.number, i.due_date::text AS due_date,
  i.nominal_due_date::text AS nominal_due_date, i.principal::text AS principal, i.interest::text AS interest, i.amount::text AS amount, i.paid_amount::text AS paid_amount,
  i.fine_paid::text AS fine_paid, i.late_interest_paid::text AS late_interest_paid, i.late_interest_accrued::text AS late_interest_accrued,
  i.late_interest_accrued_on::text AS late_interest_accrued_on, i.status, i.overdue_at, i.paid_at, i.created_at`;

export type InstallmentText = {
  id: string; tenant_id: string; environment: string; contract_id: string; number: number; due_date: string; nominal_due_date: string; principal: string; interest: string;
  amount: string; paid_amount: string; fine_paid: string; late_interest_paid: string; late_interest_accrued: string; late_interest_accrued_on: string | null; status: string; overdue_at: Date | null; paid_at: Date | null; created_at: Date;
};

export function toInstallment(r: InstallmentText): Installment {
  return {
    id: r.id, tenantId: r.tenant_id, environment: r.environment as Installment["environment"], contractId: r.contract_id, number: r.number, dueDate: dateColumn(r.due_date),
    nominalDueDate: dateColumn(r.nominal_due_date),
    principal: BigInt(r.principal), interest: BigInt(r.interest), amount: BigInt(r.amount), paidAmount: BigInt(r.paid_amount),
    finePaid: BigInt(r.fine_paid), lateInterestPaid: BigInt(r.late_interest_paid), lateInterestAccrued: BigInt(r.late_interest_accrued),
    lateInterestAccruedOn: r.late_interest_accrued_on === null ? null : dateColumn(r.late_interest_accrued_on), overdueAt: r.overdue_at && new Date(r.overdue_at), status: r.status,
    paidAt: r.paid_at && new Date(r.paid_at), createdAt: new Date(r.created_at),
  };
}
