import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import type { ProductCode } from "@/lib/products";
import { createSimulation } from "@/lib/simulations/create-simulation";
import { checkPayrollLink } from "@/lib/simulations/customer-check";
import type { z } from "zod";
import type { CreateProposalBody, ProposalResponse } from "./schemas";
import { toProposalResponse } from "./serialize";
import { PROPOSAL_VALIDITY_DAYS } from "./transitions";

// POST /v1/proposals: a draft that freezes a simulation's terms (schedule included) for one customer.
// Inline terms are first stored as a simulation (a quote, visible under /v1/simulations even if the
// proposal then fails), so every proposal points at the simulation it froze. A payroll product needs the
// proposal's customer to hold the matching payroll link (400 `payroll_link_required`), checked again here
// for a stored simulation: it may predate the rule, or the customer's payroll may have changed since.
export async function createProposal(
  scope: Scope,
  actor: Actor,
  input: z.infer<typeof CreateProposalBody>,
): Promise<ProposalResponse> {
  const simulationId = input.terms
    ? (await createSimulation(scope, { ...input.terms, customer_id: input.customer_id })).simulation.id
    : input.simulation_id!;
  return db().$transaction(async (tx) => {
    const customer = await tx.customer.findFirst({ where: { id: input.customer_id, ...where(scope) }, select: { id: true, payroll: true } });
    if (!customer) throw notFound("Customer");
    const simulation = await tx.simulation.findFirst({ where: { id: simulationId, ...where(scope) } });
    if (!simulation) throw notFound("Simulation");
    if (simulation.customerId && simulation.customerId !== customer.id) {
      throw new DomainError("validation_error", "The simulation was made for another customer", {
        errors: [{ param: "simulation_id", in: "body", message: "Simulated for another customer" }],
      });
    }
    checkPayrollLink(simulation.product as ProductCode, customer.payroll);
    const proposal = await tx.proposal.create({
      data: {
        id: newId("proposal"),
        ...where(scope),
        customerId: customer.id,
        simulationId: simulation.id,
        status: "draft",
        expiresAt: new Date(Date.now() + PROPOSAL_VALIDITY_DAYS * 24 * 3600 * 1000),
        terms: simulation.result as Prisma.InputJsonObject,
      },
    });
    await writeAudit(tx, { ...where(scope), actor, action: "proposal.created", target: { type: "proposal", id: proposal.id } });
    const body = toProposalResponse(proposal);
    await writeOutboxEvent(tx, { ...where(scope), type: "proposal.created", payload: body });
    return body;
  });
}
