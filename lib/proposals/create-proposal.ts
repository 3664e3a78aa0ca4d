import type { Prisma, Simulation } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db, rootDb, type Tx } from "@/lib/db/client";
import { ambientClient, requestTransactionOptions, runInAmbientTransaction } from "@/lib/db/transaction";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { requireUsableMargin } from "@/lib/payroll/margin-queries";
import { where, type Scope } from "@/lib/scope";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { createSimulation } from "@/lib/simulations/create-simulation";
import { lateChargesFor } from "@/lib/contracts/late-rules";
import type { SimulationResult } from "@/lib/simulations/compute";
import { checkPayrollLink } from "@/lib/simulations/customer-check";
import { checkAmortization, checkCharges, checkPrincipal, checkTermAndRate } from "@/lib/simulations/product-rules";
import type { z } from "zod";
import { deductedInstallment, type CreateProposalBody, type ProposalResponse } from "./schemas";
import { toProposalResponse } from "./serialize";
import { checkDisbursementDate, proposalExpiresAt } from "./disbursement-date";
import { PROPOSAL_VALIDITY_DAYS } from "./transitions";
import { holdCustomer } from "@/lib/customers/hold-customer";

// POST /v1/proposals: a draft that freezes a simulation's terms (schedule included) for one customer.
// Inline terms are first stored as a simulation, in the proposal's own transaction, so every proposal points at
// the simulation it froze and a proposal refused (a missing margin query, a past date) leaves no quote or
// `simulation.created` event behind. A payroll product needs the
// proposal's customer to hold the matching payroll link (400 `payroll_link_required`), checked again here
// for a stored simulation: it may predate the rule, or the customer's payroll may have changed since. It
// also needs a valid margin query of the customer whose available loan margin covers the installment.
//
// A stored simulation is held to today's product rules too (term, rate cap, amortization, principal range, fee caps,
// CET ceiling: a cap lowered since — CNPS lowers the INSS rate — must not reach a contract through an old quote), must
// be at most PROPOSAL_VALIDITY_DAYS old (its terms go stale like a proposal's). In production no proposal — inline
// terms or a stored simulation — starts before today (its money cannot be released in the past: refused here, before
// the borrower signs, rather than at the contract), and it lapses at the end of its disbursement day at the latest
// (./disbursement-date.ts).
export async function createProposal(scope: Scope, actor: Actor, input: z.infer<typeof CreateProposalBody>): Promise<ProposalResponse> {
  if (!input.terms || ambientClient()) return createProposalIn(scope, actor, input); // an idempotent request's transaction holds both
  // The simulation's insert (plain SQL) and the proposal's Prisma writes join one ambient transaction.
  return runInAmbientTransaction(rootDb(), () => createProposalIn(scope, actor, input), requestTransactionOptions());
}

async function createProposalIn(scope: Scope, actor: Actor, input: z.infer<typeof CreateProposalBody>): Promise<ProposalResponse> {
  const simulationId = input.terms
    ? (await createSimulation(scope, { ...input.terms, customer_id: input.customer_id })).simulation.id
    : input.simulation_id!;
  return db().$transaction(async (tx) => {
    // Held for the transaction: a customer with a proposal cannot be erased (lib/customers/erase-customer.ts).
    const held = await holdCustomer(tx, scope, input.customer_id);
    const customer = held ? await tx.customer.findFirst({ where: { id: input.customer_id, ...where(scope) }, select: { id: true, kind: true, payroll: true } }) : null;
    if (!customer) throw notFound("Customer");
    const simulation = await tx.simulation.findFirst({ where: { id: simulationId, ...where(scope) } });
    if (!simulation) throw notFound("Simulation");
    if (simulation.customerId && simulation.customerId !== customer.id) {
      throw new DomainError("validation_error", "The simulation was made for another customer", {
        errors: [{ param: "simulation_id", in: "body", message: "Simulated for another customer" }],
      });
    }
    // The IOF rate depends on the borrower (PF/PJ): a simulation priced for a person is not a company's terms.
    const simulatedFor = (simulation.result as { borrower_kind?: string }).borrower_kind;
    const kind = customer.kind === "company" ? "PJ" : "PF";
    if (simulatedFor !== undefined && simulatedFor !== kind) {
      throw new DomainError("validation_error", `The simulation was priced for a ${simulatedFor} borrower; the customer is ${kind}`, {
        errors: [{ param: "simulation_id", in: "body", message: `Simulated for a ${simulatedFor === "PF" ? "person (PF)" : "company (PJ)"}: simulate again for this customer` }],
      });
    }
    checkPayrollLink(simulation.product as ProductCode, customer.payroll);
    if (!input.terms) checkStoredSimulation(simulation);
    const disbursementDate = (simulation.result as unknown as SimulationResult).disbursement_date;
    checkDisbursementDate(scope, disbursementDate, "simulate again with today's date or later");
    const marginQueryId = await checkMargin(tx, scope, simulation, customer.id, input.margin_query_id);
    const proposal = await tx.proposal.create({
      data: {
        id: newId("proposal"),
        ...where(scope),
        customerId: customer.id,
        simulationId: simulation.id,
        marginQueryId,
        status: "draft",
        expiresAt: proposalExpiresAt(scope, disbursementDate),
        // The simulation's terms and the late charges the borrower will sign for (lib/contracts/late-rules.ts).
        terms: { ...(simulation.result as Prisma.InputJsonObject), late_charges: lateChargesFor(simulation.product) },
      },
    });
    await writeAudit(tx, { ...where(scope), actor, action: "proposal.created", target: { type: "proposal", id: proposal.id } });
    const body = toProposalResponse(proposal);
    await writeOutboxEvent(tx, { ...where(scope), type: "proposal.created", payload: body });
    return body;
  });
}

/** A stored simulation: recent enough and within today's product rules. */
function checkStoredSimulation(simulation: Simulation): void {
  const stale = (message: string) =>
    new DomainError("validation_error", message, { errors: [{ param: "simulation_id", in: "body", message: `${message}: simulate again` }] });
  if (Date.now() - simulation.createdAt.getTime() > PROPOSAL_VALIDITY_DAYS * 24 * 3600 * 1000) {
    throw stale(`Simulated more than ${PROPOSAL_VALIDITY_DAYS} days ago`);
  }
  const result = simulation.result as unknown as SimulationResult;
  try {
    const product = result.product as ProductCode;
    checkTermAndRate(product, result.term, result.monthly_rate, "monthly_rate");
    checkAmortization(product, result.amortization as "price" | "sac");
    checkPrincipal(product, result.principal, "principal");
    checkCharges(result, { rateParam: "monthly_rate", amountParam: "principal" });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    // The same code, each broken rule named on the field the client sent: the simulation.
    const errors = ((err.details?.errors as { param: string; message: string }[] | undefined) ?? []).map((e) => ({
      param: "simulation_id",
      in: "body",
      message: `Breaks the product's rules now (${e.param}: ${e.message}): simulate again`,
    }));
    throw new DomainError(err.code, `${err.message} (the rules changed since it was simulated)`, { ...err.details, errors });
  }
}

/** Payroll products need a usable margin query covering the installment (400/422 otherwise); others none. */
async function checkMargin(tx: Tx, scope: Scope, simulation: Simulation, customerId: string, marginQueryId: string | undefined): Promise<string | null> {
  const payroll = PRODUCTS[simulation.product as ProductCode]?.payrollLink != null;
  if (!payroll) {
    if (marginQueryId !== undefined) {
      throw new DomainError("validation_error", "Only payroll products take a margin query", {
        errors: [{ param: "margin_query_id", in: "body", message: "Only for inss_payroll and private_payroll" }],
      });
    }
    return null;
  }
  if (marginQueryId === undefined) {
    throw new DomainError("margin_query_required", "A payroll proposal needs `margin_query_id`: query the customer's margin first (POST /v1/payroll/margin-queries)");
  }
  const installment = deductedInstallment(simulation.result as Parameters<typeof deductedInstallment>[0]);
  return (await requireUsableMargin(tx, scope, marginQueryId, customerId, installment, "loan", "margin_query_id", PRODUCTS[simulation.product as ProductCode].payrollLink!)).id;
}
