import { z } from "zod";
import type { Resource } from "@/lib/auth/permissions";
import { AssignmentResponse, REMOVAL_REASONS } from "@/lib/assignments/schemas";
import { RefundResponse } from "@/lib/collection/refund-schemas";
import { ChargeResponse, PaymentResponse } from "@/lib/collection/schemas";
import { ContractResponse } from "@/lib/contracts/schemas";
import { CustomerResponse, DeletedCustomer } from "@/lib/customers/schemas";
import { InstallmentResponse } from "@/lib/installments/schemas";
import { RepasseContractResult } from "@/lib/payroll/repasse-schemas";
import { EndorsementResponse, MarginQueryResponse, ReservationResponse } from "@/lib/payroll/schemas";
import { ProposalResponse } from "@/lib/proposals/schemas";
import { RiskAssessmentResponse } from "@/lib/risk/schemas";
import { SettlementResponse } from "@/lib/settlements/schemas";
import { SimulationSummary } from "@/lib/simulations/schemas";

// Every event the platform publishes: its type, when it happens and the schema of its `data` (the object as
// the API returns it, plus a few fields about the change). Endpoints subscribe to these names (or to all);
// the OpenAPI document's `webhooks` section and the README's catalogue are generated from / checked against
// this list, and a test checks that every type a module writes to the outbox is here.

const previousStatus = (statuses: readonly [string, ...string[]]) => z.object({ previous_status: z.enum(statuses).meta({ description: "The status before this change." }) });
const statusesOf = (schema: z.ZodObject) => (schema.shape.status as z.ZodEnum).options as [string, ...string[]];
const withChange = (schema: z.ZodObject, extra: z.ZodRawShape = {}) => schema.extend({ ...previousStatus(statusesOf(schema)).shape, ...extra });

/** `resource`: whose read permission the event needs, when its data is not its prefix's object (lib/webhooks/event-access.ts). */
export type EventDefinition = { type: string; summary: string; data: z.ZodType; resource?: Resource };

export const TEST_EVENT_TYPE = "webhook_endpoint.test" as const;

export const EVENT_CATALOG = [
  { type: "customer.created", summary: "A customer was registered.", data: CustomerResponse },
  {
    type: "customer.updated",
    summary: "A customer's contact, address, income or payroll data changed.",
    data: CustomerResponse.extend({
      changed_fields: z.array(z.string()).meta({ description: "The request's fields whose values changed." }),
      previous_attributes: CustomerResponse.pick({ name: true, birth_date: true, foundation_date: true, email: true, phone: true, address: true, monthly_income: true, payroll: true })
        .partial()
        .meta({ description: "The changed fields' values before this change (the same names as `changed_fields`); the object's other fields are the values after it." }),
    }),
  },
  {
    type: "customer.deleted",
    summary: "A customer's data was erased (DELETE /v1/customers/{id}, LGPD): its earlier events' data is `{ id, object, erased: true }` now.",
    data: DeletedCustomer,
  },
  { type: "simulation.created", summary: "A simulation was priced (its schedule: GET /v1/simulations/{id}).", data: SimulationSummary },
  { type: "proposal.created", summary: "A proposal was created from a simulation (status `draft`).", data: ProposalResponse },
  { type: "proposal.status_changed", summary: "A proposal moved: submitted, approved, rejected, signed, canceled, expired or contract issued.", data: withChange(ProposalResponse) },
  { type: "risk_assessment.created", summary: "A risk assessment was made (on submit, or by POST /v1/risk-assessments).", data: RiskAssessmentResponse },
  { type: "margin_query.completed", summary: "The payroll authority answered a margin query.", data: MarginQueryResponse },
  { type: "margin_reservation.status_changed", summary: "A margin reservation was reserved, refused, consumed, released or expired.", data: withChange(ReservationResponse) },
  { type: "endorsement.status_changed", summary: "The payroll authority endorsed (averbação) or refused an endorsement; or, once its contract closed or was withdrawn, its termination was requested (terminating) or confirmed (terminated).", data: withChange(EndorsementResponse) },
  { type: "contract.issued", summary: "A contract (CCB) was issued from a signed proposal, with its installments.", data: ContractResponse },
  {
    type: "contract.closed",
    summary: "A contract was settled in full (by a settlement or by its last payment).",
    data: ContractResponse.extend({
      reason: z.enum(["settled", "paid_off"]).meta({ description: "`settled`: a full settlement completed (`settlement_id`); `paid_off`: its last installment was paid." }),
      settlement_id: z.string().nullable().optional(),
    }),
  },
  { type: "contract.canceled", summary: "A contract was canceled within its cancellation window.", data: ContractResponse.extend({ reason: z.string() }) },
  { type: "contract.assigned", summary: "A contract was sold in a settled assignment; its later receipts are the assignee's.", data: ContractResponse },
  {
    type: "contract.bought_back",
    summary: "The originator bought a contract of a settled assignment back from the assignee (recompra, POST /v1/assignments/{id}/buyback): it is active again, its later receipts the originator's.",
    data: ContractResponse.extend({
      previous_assignment_id: z.string().meta({ description: "The assignment it was bought back from (its `assignment_id` is null now)." }),
      buyback_price: z.number().int().meta({ description: "What the originator paid the assignee for it, integer centavos." }),
      reason: z.string().meta({ description: "Why it was bought back." }),
    }),
  },
  {
    type: "contract.written_off",
    summary: "A contract in default was written off by the lender (POST /v1/contracts/{id}/write-off); it is still collected.",
    data: ContractResponse.extend({ reason: z.string().meta({ description: "The lender's reason." }) }),
  },
  {
    type: "contract.credit_applied",
    summary: "The contract's credit (money received beyond what was owed) paid installments that fell due; the payment (source `contract_credit`) says how.",
    data: PaymentResponse,
    resource: "collections", // a payment: readable as payments are, not with contracts:read
  },
  { type: "installment.paid", summary: "An installment was paid in full.", data: InstallmentResponse.extend({ payment: z.record(z.string(), z.unknown()).optional() }) },
  {
    type: "installment.partially_paid",
    summary: "Part of an installment was paid (payroll repasse short of the installment).",
    data: InstallmentResponse.extend({ payment: z.record(z.string(), z.unknown()).optional() }),
  },
  { type: "installment.overdue", summary: "An installment was still unpaid once late: after its due date, or after the next business day when that was a weekend or holiday (once per installment).", data: InstallmentResponse },
  { type: "charge.created", summary: "A boleto or Pix charge was issued.", data: ChargeResponse },
  { type: "charge.paid", summary: "A charge was paid in full.", data: ChargeResponse },
  { type: "charge.partially_paid", summary: "Part of a charge was paid.", data: ChargeResponse },
  { type: "charge.overdue", summary: "A charge passed its due date unpaid.", data: ChargeResponse },
  { type: "charge.canceled", summary: "A charge was canceled.", data: ChargeResponse },
  { type: "charge.expired", summary: "An immediate Pix charge (cob) expired unpaid.", data: ChargeResponse },
  { type: "payment.received", summary: "A payment was received: allocated to installments, what is left (all of it for a charge no longer payable) kept as the contract's credit.", data: PaymentResponse },
  { type: "refund.created", summary: "Money was paid back to the borrower from the contract's credit (recorded with POST /v1/refunds).", data: RefundResponse },
  {
    type: "repasse.processed",
    summary: "The paying source's monthly transfer (repasse) was applied to a payroll contract.",
    data: RepasseContractResult.extend({ competence: z.string(), scenario: z.string(), source: z.string() }),
  },
  { type: "settlement.created", summary: "A full settlement or partial prepayment was requested and waits for its money (a charge). One with funds received (`payment_method: received`) completes at once: only `settlement.completed` is sent.", data: SettlementResponse },
  { type: "settlement.completed", summary: "A settlement was paid and applied.", data: SettlementResponse },
  { type: "settlement.canceled", summary: "A pending settlement was canceled or lapsed.", data: SettlementResponse },
  { type: "assignment.created", summary: "Contracts were offered to an assignee (cessão).", data: AssignmentResponse },
  { type: "assignment.status_changed", summary: "An assignment was settled, canceled (by the integrator, lapsed, or once every contract left it), declined by the assignee (`decline_reason`), or bought back (its last contract bought back by the originator).", data: withChange(AssignmentResponse) },
  {
    type: "assignment.contract_removed",
    summary:
      "A contract left a pending assignment: its borrower settled it (a settlement requested, full or partial — CDC art. 52 §2) or paid it off while it was on offer. " +
      "The assignment's totals are the remaining contracts' (an offer at a total `price` loses the contract's share of it); the last one leaving cancels it (`assignment.status_changed`).",
    data: AssignmentResponse.extend({
      removed_contract_id: z.string().meta({ description: "The contract that left the offer (no longer in `contracts`)." }),
      reason: z.enum(REMOVAL_REASONS).meta({ description: "`settlement`: a settlement of it was requested (full or partial); `paid_off`: its last installment was paid." }),
    }),
  },
  {
    type: TEST_EVENT_TYPE,
    summary: "Sent by POST /v1/webhook-endpoints/{id}/test to that endpoint only (never to others, not listed by subscriptions).",
    data: z.object({ webhook_endpoint_id: z.string(), message: z.string() }),
  },
] as const satisfies readonly EventDefinition[];

/** Every event type: `writeOutboxEvent` takes only these (a new event must be catalogued to compile). */
export type EventType = (typeof EVENT_CATALOG)[number]["type"];

export const EVENT_TYPES = EVENT_CATALOG.map((e) => e.type) as [string, ...string[]];

/** The types an endpoint may subscribe to: every event but the test event (sent to one endpoint on request). */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((t) => t !== TEST_EVENT_TYPE) as [string, ...string[]];

/** The payload every delivery carries: `data` is the event's object. */
export function envelopeSchema(event: EventDefinition) {
  return z.object({
    id: z.string().meta({ description: "The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it." }),
    type: z.literal(event.type),
    created_at: z.string().meta({ description: "When the change happened (ISO 8601 UTC)." }),
    tenant_id: z.string(),
    environment: z.enum(["sandbox", "production"]),
    data: event.data,
  });
}
