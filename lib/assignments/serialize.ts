import type { Assignment, AssignmentContract } from "@prisma/client";
import { centavos, isoDate } from "@/lib/serialize";
import type { AssignmentContractResponse, AssignmentResponse } from "./schemas";
import type { AssignmentStatus } from "./transitions";

export function toAssignmentResponse(row: Assignment, contracts: readonly AssignmentContract[]): AssignmentResponse {
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
    // The contracts in the offer (or sold, or canceled with it): those that left it while pending (./leave-offer.ts) are
    // not listed, and the totals are the rest's.
    contracts: contracts.filter((c) => c.removedAt === null).sort((a, b) => (a.contractId < b.contractId ? -1 : 1)).map(toAssignmentContractResponse),
    cancel_reason: row.cancelReason,
    settled_at: row.settledAt?.toISOString() ?? null,
    canceled_at: row.canceledAt?.toISOString() ?? null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One contract of an assignment: its open face value and its price when the assignment was priced. */
export function toAssignmentContractResponse(c: AssignmentContract): AssignmentContractResponse {
  return { contract_id: c.contractId, face_value: centavos(c.faceValue), price: centavos(c.price) };
}
