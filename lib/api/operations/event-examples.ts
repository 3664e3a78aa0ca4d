import { SANDBOX_ACCOUNT } from "@/lib/collection/account";
import { pixQrPngDataUrl } from "@/lib/collection/payment-images";
import { brCode } from "@/lib/collection/pix-brcode";
import { lateChargesFor } from "@/lib/contracts/late-rules";
import { lateCharges } from "@/lib/finance";
import { TEST_EVENT_TYPE, type EventType } from "@/lib/webhooks/event-catalog";
import { envelope } from "@/lib/webhooks/signing";
import { contractExample, CUSTOMER_EXAMPLE, INSTALLMENT_EXAMPLE, proposalExample, SIMULATION_SUMMARY_EXAMPLE } from "./credit-examples";
import {
  ASSIGNMENT_EXAMPLE,
  CHARGE_EXAMPLE,
  ENDORSEMENT_EXAMPLE,
  MARGIN_QUERY_EXAMPLE,
  PAYMENT_EXAMPLE,
  REFUND_EXAMPLE,
  REPASSE_EXAMPLE,
  RESERVATION_EXAMPLE,
  RISK_ASSESSMENT_EXAMPLE,
  SETTLEMENT_EXAMPLE,
} from "./examples";

// The body of every webhook in the OpenAPI document's `webhooks` section: the envelope the worker sends (`envelope`,
// lib/webhooks/signing.ts), `data` being the object in the state the event leaves it, built from the response
// examples so that ids and figures agree with the rest of the document. tests/platform/openapi-examples.test.ts
// checks that every catalogued event has one and that it parses with the event's schema, unchanged.

const PAID_AT = "2026-12-09T14:02:11.000Z";

const charge = (status: string, extra: Record<string, unknown> = {}) => ({ ...CHARGE_EXAMPLE, status, updated_at: PAID_AT, ...extra });

// An immediate Pix charge (cob) with a real BR Code of the sandbox account, for the expiry event.
const pixLocation = `${SANDBOX_ACCOUNT.pixLocationBase}/9d36b84fc70b478fb95c12729b90ca25`;
const pixBrcode = brCode({ location: pixLocation, amount: CHARGE_EXAMPLE.amount, merchantName: SANDBOX_ACCOUNT.beneficiaryName, merchantCity: SANDBOX_ACCOUNT.city });
const expiredPix = charge("expired", {
  id: "chg_01JDQ9B1C2D3E4F5G6H7J8K9M0",
  method: "pix",
  due_date: "2026-12-09",
  boleto: null,
  pix: {
    kind: "cob",
    txid: "Q7f3Kd92LmX0pR5tZ8wB1cN4vY6hJ2aE",
    brcode: pixBrcode,
    qr_code: pixQrPngDataUrl(pixBrcode),
    location: pixLocation,
    expires_at: "2026-12-09T15:10:00.000Z",
    fine_rate: null,
    interest_rate_monthly: null,
  },
  payment_page_url: "http://localhost:3000/pay/chg_01JDQ9B1C2D3E4F5G6H7J8K9M0.Tq8wE2rY4uI6oP1aS3dF5gH7jK9lZ0xC2vB4nM6qW8e",
  created_at: "2026-12-09T13:10:00.000Z",
  updated_at: "2026-12-09T15:10:05.000Z",
});

const paidInstallment = {
  ...INSTALLMENT_EXAMPLE,
  paid_amount: INSTALLMENT_EXAMPLE.amount,
  status: "paid",
  paid_at: PAID_AT,
  amount_due: { ...INSTALLMENT_EXAMPLE.amount_due, as_of: "2026-12-09", outstanding: 0, total: 0 },
};
const repasse = REPASSE_EXAMPLE.contracts[0]!;
// The first installment two days late, its fine and interest reckoned by the finance library at the contract's frozen rates.
const OVERDUE_AS_OF = "2027-01-06";
const rates = lateChargesFor("personal_loan");
const late = lateCharges({ amount: INSTALLMENT_EXAMPLE.amount, dueDate: INSTALLMENT_EXAMPLE.due_date, asOf: OVERDUE_AS_OF, fineRate: rates.fine_rate, monthlyLateInterestRate: rates.monthly_interest_rate });

const DATA: Record<EventType, unknown> = {
  "customer.created": CUSTOMER_EXAMPLE,
  "customer.updated": {
    ...CUSTOMER_EXAMPLE,
    email: "maria.silva@example.com.br",
    changed_fields: ["email"],
    previous_attributes: { email: CUSTOMER_EXAMPLE.email },
  },
  "customer.deleted": { id: CUSTOMER_EXAMPLE.id, object: "customer", deleted: true },
  "simulation.created": SIMULATION_SUMMARY_EXAMPLE,
  "proposal.created": proposalExample("draft"),
  "proposal.status_changed": { ...proposalExample("approved"), previous_status: "pending_review" },
  "risk_assessment.created": RISK_ASSESSMENT_EXAMPLE,
  "margin_query.completed": MARGIN_QUERY_EXAMPLE,
  "margin_reservation.status_changed": { ...RESERVATION_EXAMPLE, status: "consumed", previous_status: "reserved", updated_at: "2026-11-23T15:20:00.000Z" },
  "endorsement.status_changed": { ...ENDORSEMENT_EXAMPLE, previous_status: "submitted" },
  "contract.issued": contractExample("active"),
  "contract.closed": { ...contractExample("settled"), reason: "paid_off", settlement_id: null },
  "contract.canceled": { ...contractExample("canceled"), reason: "Borrower exercised the 7-day withdrawal right" },
  "contract.assigned": contractExample("assigned"),
  // Bought back from its assignment (recompra): active again, the originator's.
  "contract.bought_back": { ...contractExample("active"), previous_assignment_id: "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0", buyback_price: 187712, reason: "Fraud found in the borrower's documents (coobrigação)", updated_at: "2026-12-20T14:00:00.000Z" },
  "contract.written_off": { ...contractExample("written_off"), reason: "No payment for 180 days; collection exhausted" },
  "contract.credit_applied": { ...PAYMENT_EXAMPLE, id: "pay_01JDQB2C3D4E5F6G7H8J9K0M1N", charge_id: null, source: "contract_credit", amount: 1234, allocations: [{ ...PAYMENT_EXAMPLE.allocations[0]!, interest: 0, principal: 1234, total: 1234 }] },
  "installment.paid": paidInstallment,
  "installment.partially_paid": {
    ...INSTALLMENT_EXAMPLE,
    paid_amount: 50000,
    status: "partially_paid",
    amount_due: { ...INSTALLMENT_EXAMPLE.amount_due, outstanding: INSTALLMENT_EXAMPLE.amount - 50000, total: INSTALLMENT_EXAMPLE.amount - 50000 },
    payment: { amount: 50000, source: "inss_repasse", competence: "2027-01" },
  },
  "installment.overdue": { ...INSTALLMENT_EXAMPLE, status: "overdue", amount_due: { as_of: OVERDUE_AS_OF, days_late: late.days_late, outstanding: INSTALLMENT_EXAMPLE.amount, fine: late.fine, late_interest: late.late_interest, total: late.total } },
  "charge.created": CHARGE_EXAMPLE,
  "charge.paid": charge("paid", { amount_paid: CHARGE_EXAMPLE.amount, paid_at: PAID_AT }),
  "charge.partially_paid": charge("partially_paid", { amount_paid: 50000 }),
  "charge.overdue": charge("overdue", { updated_at: "2026-12-11T03:00:05.000Z" }),
  "charge.canceled": charge("canceled"),
  "charge.expired": expiredPix,
  "payment.received": PAYMENT_EXAMPLE,
  "refund.created": REFUND_EXAMPLE,
  "repasse.processed": { competence: REPASSE_EXAMPLE.competence, scenario: REPASSE_EXAMPLE.scenario, source: "inss_repasse", ...repasse },
  "settlement.created": { ...SETTLEMENT_EXAMPLE, status: "pending", payment_id: null, completed_at: null },
  "settlement.completed": SETTLEMENT_EXAMPLE,
  "settlement.canceled": { ...SETTLEMENT_EXAMPLE, status: "canceled", payment_id: null, completed_at: null, cancel_reason: "Payoff not received by the quote's date", canceled_at: "2026-12-02T03:00:05.000Z" },
  "assignment.created": ASSIGNMENT_EXAMPLE,
  "assignment.status_changed": { ...ASSIGNMENT_EXAMPLE, status: "settled", previous_status: "pending", settled_at: "2026-12-01T15:00:00.000Z", updated_at: "2026-12-01T15:00:00.000Z" },
  // Another contract of the offer left it (its borrower settled it): the totals are the one left's.
  "assignment.contract_removed": { ...ASSIGNMENT_EXAMPLE, removed_contract_id: "ctr_01JDQ83B4C5D6E7F8G9H0J1K2M", reason: "settlement", updated_at: "2026-12-01T14:20:00.000Z" },
  [TEST_EVENT_TYPE]: { webhook_endpoint_id: "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0", message: "A test event from the Credit Platform: if you can read this, your endpoint works." },
};

/** The request body the worker POSTs for `type`: the envelope around its example `data`. */
export function webhookExample(type: EventType) {
  return envelope({ id: "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0", type, createdAt: new Date(PAID_AT), tenantId: "ten_01JD0000000000000000000000", environment: "sandbox", payload: DATA[type] });
}
