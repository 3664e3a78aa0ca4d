import { db } from "@/lib/db/client";
import { todayInBrazil } from "@/lib/clock";
import type { Scope } from "@/lib/scope";
import { centavos } from "@/lib/serialize";
import { latestLateDueDate } from "@/lib/finance";

// The Overview's figures for one tenant and environment, straight from the ledger tables (no cache, no second
// bookkeeping). Months are calendar months in America/Sao_Paulo. Definitions (also in the README):
// - active contracts: status active (assigned ones are the assignee's, settled / written off / canceled are closed);
// - outstanding balance: what remains to be received on the active contracts' installments (contracts.outstanding_balance);
// - overdue rate: share of active contracts with at least one installment unpaid after its due date, as an exact
//   decimal with 4 places (half-up); overdue amount: what is unpaid on those installments (without late charges);
// - disbursed: principal of contracts disbursed in the month, less those canceled under the withdrawal right;
// - collected: every payment received in the month (boleto, Pix, payroll repasse, settlements) — not the contract
//   credit applied to installments (source contract_credit), money already counted when it arrived;
// - waiting for review: proposals in pending_review.

export type DashboardMonth = { month: string; disbursed: number; contracts: number; collected: number };

export type Dashboard = {
  environment: Scope["environment"];
  as_of: string;
  active_contracts: number;
  outstanding_balance: number;
  overdue_contracts: number;
  overdue_amount: number;
  overdue_rate: string;
  disbursed_this_month: number;
  collected_this_month: number;
  proposals_waiting_review: number;
  months: DashboardMonth[];
};

/** overdue / active as a decimal string with 4 places, rounded half up, in integer arithmetic. */
export function ratio(part: number, whole: number): string {
  if (whole === 0) return "0.0000";
  const tenThousandths = Math.floor((part * 20000 + whole) / (2 * whole));
  return `${Math.floor(tenThousandths / 10000)}.${String(tenThousandths % 10000).padStart(4, "0")}`;
}

export async function dashboard(scope: Scope, now = new Date()): Promise<Dashboard> {
  const today = todayInBrazil(now);
  const { tenantId, environment } = scope;
  const env = environment;
  const [portfolio, overdue, waiting, months] = await Promise.all([
    db().$queryRaw<{ active: number; outstanding: bigint }[]>`
      SELECT count(*)::int AS active, coalesce(sum(outstanding_balance), 0)::bigint AS outstanding
      FROM contracts WHERE tenant_id = ${tenantId} AND environment = ${env}::"Environment" AND status = 'active'`,
    db().$queryRaw<{ contracts: number; amount: bigint }[]>`
      SELECT count(DISTINCT i.contract_id)::int AS contracts, coalesce(sum(i.amount - i.paid_amount), 0)::bigint AS amount
      FROM installments i JOIN contracts c ON c.id = i.contract_id
      WHERE i.tenant_id = ${tenantId} AND i.environment = ${env}::"Environment" AND i.due_date <= ${latestLateDueDate(today)}::date
        AND i.status IN ('open', 'partially_paid') AND c.status = 'active'`,
    db().proposal.count({ where: { tenantId, environment, status: "pending_review" } }),
    db().$queryRaw<{ month: string; disbursed: bigint; contracts: number; collected: bigint }[]>`
      WITH bounds AS (SELECT date_trunc('month', ${today}::date)::date AS this_month),
      months AS (
        SELECT generate_series(this_month - interval '11 months', this_month, interval '1 month')::date AS month FROM bounds
      ),
      disbursed AS (
        SELECT date_trunc('month', disbursement_date)::date AS month, sum(principal)::bigint AS amount, count(*)::int AS contracts
        FROM contracts, bounds
        WHERE tenant_id = ${tenantId} AND environment = ${env}::"Environment" AND status <> 'canceled'
          AND disbursement_date >= this_month - interval '11 months'
        GROUP BY 1
      ),
      collected AS (
        SELECT date_trunc('month', paid_at AT TIME ZONE 'America/Sao_Paulo')::date AS month, sum(amount)::bigint AS amount
        FROM payments, bounds
        WHERE tenant_id = ${tenantId} AND environment = ${env}::"Environment" AND source <> 'contract_credit'
          AND paid_at >= ((this_month - interval '11 months')::timestamp AT TIME ZONE 'America/Sao_Paulo')
        GROUP BY 1
      )
      SELECT to_char(m.month, 'YYYY-MM') AS month, coalesce(d.amount, 0)::bigint AS disbursed, coalesce(d.contracts, 0)::int AS contracts,
             coalesce(c.amount, 0)::bigint AS collected
      FROM months m LEFT JOIN disbursed d USING (month) LEFT JOIN collected c USING (month)
      ORDER BY m.month`,
  ]);
  const series = months.map((m) => ({ month: m.month, disbursed: centavos(m.disbursed), contracts: m.contracts, collected: centavos(m.collected) }));
  const current = series.at(-1)!;
  const active = portfolio[0]!.active;
  return {
    environment,
    as_of: today,
    active_contracts: active,
    outstanding_balance: centavos(portfolio[0]!.outstanding),
    overdue_contracts: overdue[0]!.contracts,
    overdue_amount: centavos(overdue[0]!.amount),
    overdue_rate: ratio(overdue[0]!.contracts, active),
    disbursed_this_month: current.disbursed,
    collected_this_month: current.collected,
    proposals_waiting_review: waiting,
    months: series,
  };
}
