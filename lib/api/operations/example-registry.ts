import { z } from "zod";
import { AssignmentResponse } from "@/lib/assignments/schemas";
import { TokenResponse } from "@/lib/auth/token-request";
import { RefundResponse } from "@/lib/collection/refund-schemas";
import { ChargeResponse, PaymentResponse } from "@/lib/collection/schemas";
import { ContractResponse } from "@/lib/contracts/schemas";
import { CustomerResponse } from "@/lib/customers/schemas";
import { InstallmentResponse } from "@/lib/installments/schemas";
import { EndorsementResponse, MarginQueryResponse, ReservationResponse } from "@/lib/payroll/schemas";
import { ProposalResponse } from "@/lib/proposals/schemas";
import { RiskAssessmentResponse } from "@/lib/risk/schemas";
import { SettlementResponse } from "@/lib/settlements/schemas";
import { SimulationResponse, SimulationSummary } from "@/lib/simulations/schemas";
import { DeliveryResponse, EventResponse, WebhookEndpointResponse } from "@/lib/webhooks/schemas";
import type { Operation } from "../operation";
import { CONTRACT_EXAMPLE, contractExample, CUSTOMER_EXAMPLE, INSTALLMENT_EXAMPLE, PROPOSAL_EXAMPLE, proposalExample, SIMULATION_EXAMPLE, SIMULATION_SUMMARY_EXAMPLE, TOKEN_EXAMPLE } from "./credit-examples";
import {
  ASSIGNMENT_EXAMPLE,
  CHARGE_EXAMPLE,
  ENDORSEMENT_EXAMPLE,
  EVENT_EXAMPLE,
  MARGIN_QUERY_EXAMPLE,
  PAYMENT_EXAMPLE,
  REFUND_EXAMPLE,
  RESERVATION_EXAMPLE,
  RISK_ASSESSMENT_EXAMPLE,
  SETTLEMENT_EXAMPLE,
  WEBHOOK_DELIVERY_EXAMPLE,
  WEBHOOK_ENDPOINT_EXAMPLE,
} from "./examples";

// The example of every response in the OpenAPI document: the operation's own, else one kept here for the operation
// (the transitions answer their object in the status they leave it in), else the one of its schema (an object's
// example serves every operation answering that object), else a one-item page of its items' example for list
// envelopes. Only the document loads this module: the credit examples are computed by the finance library, which
// the route modules need not do at start-up. tests/platform/openapi-examples.test.ts checks that every 2xx JSON response has one and that it
// parses with its schema.

const deliveryWithoutAttempts = Object.fromEntries(Object.entries(WEBHOOK_DELIVERY_EXAMPLE).filter(([key]) => key !== "attempts"));

const BY_SCHEMA = new Map<z.ZodType, unknown>([
  [CustomerResponse, CUSTOMER_EXAMPLE],
  [SimulationResponse, SIMULATION_EXAMPLE],
  [SimulationSummary, SIMULATION_SUMMARY_EXAMPLE],
  [ProposalResponse, PROPOSAL_EXAMPLE],
  [ContractResponse, CONTRACT_EXAMPLE],
  [InstallmentResponse, INSTALLMENT_EXAMPLE],
  [TokenResponse, TOKEN_EXAMPLE],
  [ChargeResponse, CHARGE_EXAMPLE],
  [PaymentResponse, PAYMENT_EXAMPLE],
  [RefundResponse, REFUND_EXAMPLE],
  [SettlementResponse, SETTLEMENT_EXAMPLE],
  [AssignmentResponse, ASSIGNMENT_EXAMPLE],
  [MarginQueryResponse, MARGIN_QUERY_EXAMPLE],
  [ReservationResponse, RESERVATION_EXAMPLE],
  [EndorsementResponse, ENDORSEMENT_EXAMPLE],
  [RiskAssessmentResponse, RISK_ASSESSMENT_EXAMPLE],
  [WebhookEndpointResponse, WEBHOOK_ENDPOINT_EXAMPLE],
  [EventResponse, EVENT_EXAMPLE],
  [DeliveryResponse, WEBHOOK_DELIVERY_EXAMPLE],
]);

const BY_OPERATION: Record<string, unknown> = {
  submitProposal: proposalExample("pending_review"),
  approveProposal: proposalExample("approved"),
  rejectProposal: proposalExample("rejected"),
  signProposal: proposalExample("signed"),
  cancelProposal: proposalExample("canceled"),
  cancelContract: contractExample("canceled"),
};

/** The item schema of a list envelope ({object: "list", data: [item], has_more, next_cursor}), if it is one. */
function listItem(schema: z.ZodType): z.ZodType | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const data = schema.shape.data;
  return data instanceof z.ZodArray && "has_more" in schema.shape ? (data.element as z.ZodType) : undefined;
}

export function exampleFor(op: Operation, status: number): unknown {
  const response = op.responses[status];
  if (!response?.schema) return undefined;
  if (response.example !== undefined) return response.example;
  if (status >= 200 && status < 300 && BY_OPERATION[op.operationId] !== undefined) return BY_OPERATION[op.operationId];
  const own = BY_SCHEMA.get(response.schema);
  if (own !== undefined) return own;
  const item = listItem(response.schema);
  const itemExample = item ? BY_SCHEMA.get(item) : undefined;
  if (itemExample === undefined) return undefined;
  // A page of one; list answers carry deliveries without their attempts.
  const entry = item === DeliveryResponse ? deliveryWithoutAttempts : itemExample;
  return { object: "list", data: [entry], has_more: true, next_cursor: "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl" };
}
