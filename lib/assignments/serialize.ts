import type { Assignment, AssignmentContract } from "@prisma/client";
import { centavos, isoDate } from "@/lib/serialize";
import type { AssignmentContractResponse, AssignmentResponse } from "./schemas";
import type { AssignmentStatus } from "./transitions";

export function toAssignmentResponse(row: Assignment, contracts: readonly AssignmentContract[]): AssignmentResponse {
  const listed = contracts.filter((c) => c.removedAt === null);
  const boughtBack = listed.filter((c) => c.boughtBackAt !== null);
  return {
    id: row.id,
    object: "assignment",
    status: row.status as AssignmentStatus,
    assignee: { name: row.assigneeName, document: row.assigneeDocument },
    settlement_date: isoDate(row.settlementDate),
    pricing: { method: row.pricingMethod as "discount_rate" | "price", discount_rate: row.discountRate },
    face_value: centavos(row.faceValue),
    price: centavos(row.price),
    discount: centavos(row.faceValue) - centavos(row.price),
    contract_count: row.contractCount,
    bought_back: { count: boughtBack.length, amount: boughtBack.reduce((s, c) => s + centavos(c.buybackPrice ?? 0n), 0) },
    // The contracts in the offer (or sold, or canceled with it): those that left it while pending (./leave-offer.ts) are
    // not listed, and the totals are the rest's.
    contracts: listed.sort((a, b) => (a.contractId < b.contractId ? -1 : 1)).map(toAssignmentContractResponse),
    cancel_reason: row.cancelReason,
    settled_at: row.settledAt?.toISOString() ?? null,
    canceled_at: row.canceledAt?.toISOString() ?? null,
    decline_reason: row.declineReason,
    declined_at: row.declinedAt?.toISOString() ?? null,
    bought_back_at: row.boughtBackAt?.toISOString() ?? null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One contract of an assignment: its open face value and its price when the assignment was priced; bought back, when,
 *  for what and why. */
export function toAssignmentContractResponse(c: AssignmentContract): AssignmentContractResponse {
  return {
    contract_id: c.contractId,
    face_value: centavos(c.faceValue),
    price: centavos(c.price),
    bought_back_at: c.boughtBackAt?.toISOString() ?? null,
    buyback_price: c.buybackPrice === null ? null : centavos(c.buybackPrice),
    buyback_reason: c.buybackReason,
  };
}
