import { todayInBrazil } from "@/lib/clock";
import { queryRows, sql } from "@/lib/db/sql";
import { invalidField, TransientConflict } from "@/lib/errors";
import { daysBetween, decimal, type BorrowerKind } from "@/lib/finance";
import { newId } from "@/lib/ids";
import type { Scope } from "@/lib/scope";
import { PRODUCTS } from "@/lib/products";
import { computeSimulation, type SimulationResult } from "./compute";
import { checkCustomer, requireCustomerFor } from "./customer-check";
import { checkAmortization, checkCharges, checkTermAndRate } from "./product-rules";
import type { CreateSimulationBody, SimulationResponse } from "./schemas";
import { toSimulationResponse, toSimulationSummary } from "./serialize";

// POST /v1/simulations: check the product's rules, compute, store, and emit `simulation.created`.
// A simulation changes no agreement's state, so it writes no audit row; the outbox event (written by the
// same statement as the row) is its record for integrators.
//
// A named customer decides the borrower kind (PF/PJ: the IOF rate) and must carry the product's payroll link.
// Reading it first cost a round trip (~0.3 ms of CPU) on every simulation; instead the simulation is computed
// for the kind the request implies (`borrower_kind`, else PF) and inserted only if the customer is that kind and
// has the link — checked by the insert itself. Otherwise (a company without `borrower_kind`, a missing customer
// or link) the customer is read as before: its error is raised, or the simulation is computed again for its kind.

export const MAX_FIRST_PERIOD_DAYS = 180;

export type CreatedSimulation = { simulation: SimulationResponse; usedDeprecatedTaxRate: boolean };

export async function createSimulation(scope: Scope, body: CreateSimulationBody): Promise<CreatedSimulation> {
  const rateParam = body.monthly_rate !== undefined ? "monthly_rate" : "tax_rate";
  const monthlyRate = decimal.toString(decimal.parse(body.monthly_rate ?? body.tax_rate ?? "")); // the schema requires one
  checkTermAndRate(body.product, body.term, monthlyRate, rateParam);
  checkAmortization(body.product, body.amortization);
  const disbursementDate = body.disbursement_date ?? todayInBrazil();
  if (body.first_due_date !== undefined) checkFirstDueDate(disbursementDate, body.first_due_date);
  requireCustomerFor(body.product, body.customer_id);

  const compute = (borrowerKind: BorrowerKind) => {
    const result = computeSimulation({
      product: body.product,
      amount: body.requested_amount !== undefined ? { kind: "requested", value: body.requested_amount } : { kind: "installment", value: body.installment_amount ?? 0 },
      term: body.term,
      monthlyRate,
      amortization: body.amortization,
      disbursementDate,
      firstDueDate: body.first_due_date,
      dueDateRule: body.due_date_rule,
      borrowerKind,
      iofFinanced: body.iof_financed,
      fees: body.fees,
    });
    checkCharges(result, { rateParam, amountParam: body.requested_amount !== undefined ? "requested_amount" : "installment_amount" });
    return result;
  };

  // `checked`: the customer was read, so the kind is its own. A compute error for an assumed kind may be the
  // wrong kind's (or the customer's own error comes first, as it always has): read the customer, then decide.
  let borrowerKind: BorrowerKind = body.borrower_kind ?? "PF";
  let checked = body.customer_id === undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    let result: SimulationResult;
    try {
      result = compute(borrowerKind);
    } catch (err) {
      if (checked) throw err;
      const actual = await resolveBorrowerKind(scope, body);
      checked = true;
      if (actual === borrowerKind) throw err;
      borrowerKind = actual;
      continue;
    }
    const stored = await insertSimulation(scope, body, result, borrowerKind);
    if (stored) return { simulation: stored, usedDeprecatedTaxRate: body.tax_rate !== undefined };
    borrowerKind = await resolveBorrowerKind(scope, body); // raises the customer's error, if it has one
    checked = true;
  }
  // The customer changed between the insert and the check, more than once: let the client retry.
  throw new TransientConflict("The customer changed while the simulation was made; retry");
}

/** The row and its event in one statement, only if the named customer (if any) is of `borrowerKind` and has the
 *  product's payroll link; null when it is not. Prisma's create + create in an interactive transaction cost ~3 ms
 *  of CPU more per request (bench/margin-query-cost.ts measured the same pattern). */
async function insertSimulation(scope: Scope, body: CreateSimulationBody, result: SimulationResult, borrowerKind: BorrowerKind): Promise<SimulationResponse | null> {
  const row = { id: newId("simulation"), customerId: body.customer_id ?? null, environment: scope.environment, createdAt: new Date() };
  const summary = toSimulationSummary(row, result);
  const link = PRODUCTS[body.product].payrollLink;
  const inserted = await queryRows<{ id: string }>(sql`
    WITH simulation AS (
      INSERT INTO simulations (id, tenant_id, environment, customer_id, product, amortization, monthly_rate, term, principal,
                               released_amount, disbursement_date, first_due_date, input, result, summary, created_at)
      SELECT ${row.id}, ${scope.tenantId}, ${scope.environment}::"Environment", ${row.customerId}, ${result.product}, ${result.amortization},
             ${result.monthly_rate}, ${result.term}, ${BigInt(result.principal)}, ${BigInt(result.released_amount)},
             ${result.disbursement_date}::date, ${result.first_due_date}::date, ${JSON.stringify(body)}::jsonb, ${JSON.stringify(result)}::json, ${JSON.stringify(withoutSchedules(result))}::jsonb, ${row.createdAt}
      WHERE ${row.customerId}::text IS NULL OR EXISTS (
        SELECT 1 FROM customers
        WHERE id = ${row.customerId} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"
          AND (kind = 'company') = ${borrowerKind === "PJ"} AND (${link}::text IS NULL OR payroll->>'type' = ${link})
        FOR KEY SHARE) -- held: an erasure of the customer at the same moment waits for this and erases it too
      RETURNING id
    )
    INSERT INTO outbox_events (id, tenant_id, environment, type, payload)
    SELECT ${newId("event")}, ${scope.tenantId}, ${scope.environment}::"Environment", 'simulation.created', ${JSON.stringify(summary)}::jsonb FROM simulation
    RETURNING id`);
  return inserted.length === 1 ? toSimulationResponse(row, result) : null;
}

/** What lists show of a simulation: its result without the two schedules (`summary`, read by GET /v1/simulations). */
function withoutSchedules(result: SimulationResult): Partial<SimulationResult> {
  return Object.fromEntries(Object.entries(result).filter(([key]) => key !== "schedule" && key !== "iof_schedule"));
}

function checkFirstDueDate(disbursementDate: string, firstDueDate: string): void {
  const days = daysBetween(disbursementDate, firstDueDate);
  if (days <= 0) throw invalidField("first_due_date", "Must be after disbursement_date");
  if (days > MAX_FIRST_PERIOD_DAYS) throw invalidField("first_due_date", `Must be at most ${MAX_FIRST_PERIOD_DAYS} days after disbursement_date`);
}

// PF/PJ picks the IOF daily rate: the customer's kind when one is named (a different borrower_kind is a 400).
async function resolveBorrowerKind(scope: Scope, body: CreateSimulationBody): Promise<BorrowerKind> {
  if (body.customer_id === undefined) return body.borrower_kind ?? "PF";
  const { borrowerKind } = await checkCustomer(scope, body.customer_id, body.product);
  if (body.borrower_kind !== undefined && body.borrower_kind !== borrowerKind) {
    throw invalidField("borrower_kind", `The customer is a ${borrowerKind === "PF" ? "person (PF)" : "company (PJ)"}`);
  }
  return borrowerKind;
}
