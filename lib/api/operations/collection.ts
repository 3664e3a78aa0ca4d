import { ChargeIdParams, ChargeResponse, CreateChargeBody, ListChargesQuery, ListPaymentsQuery, PaymentIdParams, PaymentResponse, ProviderNotificationResponse, SandboxPayBody, SandboxPayResponse } from "@/lib/collection/schemas";
import { z } from "zod";
import { CreateRefundBody, ListRefundsQuery, RefundIdParams, RefundResponse } from "@/lib/collection/refund-schemas";
import { CollectionAccountBody, CollectionAccountResponse } from "@/lib/collection/account-settings";
import { ProviderNotificationBody } from "@/lib/collection/notifications";
import { listEnvelope } from "@/lib/pagination";
import { defineOperation } from "../operation";
import { CHARGE_EXAMPLE, PAYMENT_EXAMPLE, REFUND_EXAMPLE } from "./examples";

const tags = ["Collection"];
const chargeOne = { description: "The charge.", schema: ChargeResponse };

export const createChargeOperation = defineOperation({
  operationId: "createCharge",
  method: "POST",
  path: "/v1/charges",
  summary: "Create a boleto or Pix charge for open installments of a contract",
  description:
    "The amount comes from the finance library: each installment's open amount, plus late fine and pro-rata late interest up to " +
    "the charge's due date when the installment is already late then (`breakdown`). Boleto: a FEBRABAN barcode (44 digits, mod-11 " +
    "general check digit, due-date factor with the 2025-02-22 rollover) and its linha digitável, under the collection account's bank, " +
    "agreement and wallet (sandbox: Banco do Brasil layout, agreement 1234567, wallet 17). Pix: a dynamic BR Code (`cob`, expiring " +
    "after `expires_in` seconds, or `cobv` with a due date, fine and interest — the contract's only when every installment falls due on the due " +
    "date, or before it without being late then; else \"0\", see `pix.fine_rate`) with a BCB txid and its QR code (`pix.qr_code`, PNG). " +
    "Every charge has a `payment_page_url` the borrower can open and print. 409 `collection_not_configured` in production until the " +
    "tenant sets its collection account (PUT /v1/collection-account); 409 `contract_not_active` for a settled or canceled contract (active, assigned and written-off ones are collected: a written-off debt is still the borrower's); " +
    "409 `conflict` (retryable: issue it again) when a payment reached the contract meanwhile, or the collection account left its agreement before a boleto's first nosso número under it. " +
    "A payment of one charge cancels the other open charges (not a settlement's) for the installments it paid, in full or in part (`charge.canceled`): their codes ask for the amount owed before.",
  tags,
  auth: "bearer",
  permission: "collections:write",
  body: CreateChargeBody,
  responses: { 201: { description: "The charge, pending.", schema: ChargeResponse, example: CHARGE_EXAMPLE } },
  errors: [404, 409],
});

export const listChargesOperation = defineOperation({
  operationId: "listCharges",
  method: "GET",
  path: "/v1/charges",
  summary: "List charges, newest first (filters: contract, status, method, due range)",
  tags,
  auth: "bearer",
  permission: "collections:read",
  query: ListChargesQuery,
  responses: { 200: { description: "A page of charges.", schema: listEnvelope(ChargeResponse) } },
});

export const getChargeOperation = defineOperation({
  operationId: "getCharge",
  method: "GET",
  path: "/v1/charges/{id}",
  summary: "Get a charge",
  tags,
  auth: "bearer",
  permission: "collections:read",
  params: ChargeIdParams,
  responses: { 200: chargeOne },
  errors: [404],
});

export const cancelChargeOperation = defineOperation({
  operationId: "cancelCharge",
  method: "POST",
  path: "/v1/charges/{id}/cancel",
  summary: "Cancel a charge (pending, partially paid or overdue)",
  description: "409 `invalid_transition` for a paid, canceled or expired charge; 409 `conflict` for a settlement's charge (cancel the settlement: its charge goes with it). Nothing changes then.",
  tags,
  auth: "bearer",
  permission: "collections:write",
  params: ChargeIdParams,
  responses: { 200: { ...chargeOne, example: { ...CHARGE_EXAMPLE, status: "canceled" } } },
  errors: [404, 409],
});

export const listPaymentsOperation = defineOperation({
  operationId: "listPayments",
  method: "GET",
  path: "/v1/payments",
  summary: "List payments received, newest first, with their allocation",
  tags,
  auth: "bearer",
  permission: "collections:read",
  query: ListPaymentsQuery,
  responses: { 200: { description: "A page of payments.", schema: listEnvelope(PaymentResponse) } },
});

export const getPaymentOperation = defineOperation({
  operationId: "getPayment",
  method: "GET",
  path: "/v1/payments/{id}",
  summary: "Get a payment and its allocation",
  tags,
  auth: "bearer",
  permission: "collections:read",
  params: PaymentIdParams,
  responses: { 200: { description: "The payment.", schema: PaymentResponse, example: PAYMENT_EXAMPLE } },
  errors: [404],
});

export const createRefundOperation = defineOperation({
  operationId: "createRefund",
  method: "POST",
  path: "/v1/refunds",
  summary: "Record money paid back to the borrower from a contract's credit",
  description:
    "A contract's credit (`credit_balance`: money received beyond what was owed — an overpaid charge, a boleto paid twice, a payment " +
    "after the contract closed) is the borrower's. Send it back with your bank (Pix, TED) and record it here: the contract's " +
    "`credit_balance` goes down by `amount` (default: all of it) in one transaction with the refund, its audit row and the event " +
    "`refund.created`. Any contract status. 409 `insufficient_credit` when the refundable credit is 0 or less than `amount` " +
    "(`credit_balance` and `refundable` in the problem: money paid toward a pending settlement, and the credit a pending full settlement netted from its payoff, are not refundable until it ends). Idempotent by `X-Request-Id`: send one, since a retry without it would record the refund twice (the second then " +
    "fails if the credit no longer covers it).",
  tags,
  auth: "bearer",
  permission: "collections:write",
  body: CreateRefundBody,
  responses: { 201: { description: "The refund, recorded.", schema: RefundResponse, example: REFUND_EXAMPLE } },
  errors: [404, 409],
});

export const listRefundsOperation = defineOperation({
  operationId: "listRefunds",
  method: "GET",
  path: "/v1/refunds",
  summary: "List refunds, newest first (filter: contract)",
  tags,
  auth: "bearer",
  permission: "collections:read",
  query: ListRefundsQuery,
  responses: { 200: { description: "A page of refunds.", schema: listEnvelope(RefundResponse) } },
});

export const getRefundOperation = defineOperation({
  operationId: "getRefund",
  method: "GET",
  path: "/v1/refunds/{id}",
  summary: "Get a refund",
  tags,
  auth: "bearer",
  permission: "collections:read",
  params: RefundIdParams,
  responses: { 200: { description: "The refund.", schema: RefundResponse, example: REFUND_EXAMPLE } },
  errors: [404],
});

export const sandboxPayChargeOperation = defineOperation({
  operationId: "sandboxPayCharge",
  method: "POST",
  path: "/v1/sandbox/charges/{id}/pay",
  summary: "Pay a charge as the bank would — sandbox only",
  description:
    "Applies a payment (default: all that is open on the charge as of `paid_on`) exactly as a provider's notification would: " +
    "allocated oldest installment first — late fine, late interest, interest, principal — and the rest kept as the contract's " +
    "credit. A pending settlement's charge: parts short of its amount are held as the contract's credit; the part that reaches it " +
    "completes the settlement. The other open charges (not a settlement's) for installments it paid, in full or in part, are canceled " +
    "(`charge.canceled`). 409 for a paid, canceled or expired charge (an immediate Pix past its expiry too, before the job marks it), " +
    "or one with nothing left open and no `amount`; 400 for a `paid_on` before the charge was issued. 404 on the production address.",
  tags: ["Sandbox"],
  auth: "bearer",
  permission: "collections:write",
  sandboxOnly: true,
  params: ChargeIdParams,
  body: SandboxPayBody,
  responses: {
    200: {
      description: "The charge after the payment, and the payment.",
      schema: SandboxPayResponse,
      example: { charge: { ...CHARGE_EXAMPLE, status: "paid", amount_paid: 95373, paid_at: "2026-12-09T14:02:11.000Z" }, payment: PAYMENT_EXAMPLE },
    },
  },
  errors: [404, 409],
});

export const ProviderParams = z.strictObject({
  provider: z.string().regex(/^[a-z0-9-]{1,40}$/, "A provider name: lower-case letters, digits and hyphens").meta({ description: "The payment provider, as configured for this address's environment in COLLECTION_PROVIDER_SECRETS (each environment has its own secrets)." }),
});

export const providerNotificationOperation = defineOperation({
  operationId: "receiveProviderNotification",
  method: "POST",
  path: "/v1/charges/notifications/{provider}",
  summary: "Inbound payment notification from the payment provider (no API key: HMAC-signed)",
  description:
    "For payment providers, not integrators. Authenticated by `X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, " +
    "\"<t>.<raw body>\")>` with the provider's secret; a timestamp more than 300 s away, a wrong or missing signature: 401 " +
    "`invalid_signature`, before the body is read. Idempotent by `event_id` per provider: a repeated event answers the payment already made " +
    "(`replayed: true`) and applies nothing. The charge is found by `txid` (Pix) or `our_number` (boleto) in the environment of the " +
    "address called (404 when unknown). The payment is allocated like any other. A Pix `cob` past its expiry, marked expired or not, is paid " +
    "when `paid_on` is on or before its expiry's day (Brasília). Money for a charge that can no longer be paid " +
    "(paid, canceled or expired: a boleto paid twice, or after its cancellation; a `cob` paid after its expiry's day) is recorded, never refused: a payment with no " +
    "`allocations` whose whole amount is the contract's `credit` (kept until used or refunded), with `payment.received`; the charge " +
    "stays as it is.",
  tags,
  auth: "none",
  permission: null,
  idempotent: false,
  params: ProviderParams,
  body: ProviderNotificationBody,
  responses: { 200: { description: "The payment made (or already made) for the event.", schema: ProviderNotificationResponse, example: { received: true, replayed: false, payment: PAYMENT_EXAMPLE } } },
  headers: [
    {
      name: "X-Provider-Signature",
      required: true,
      description: "`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>` under the provider's secret; several `v1=` allowed while a secret rotates; `t` within 5 minutes of our clock. Missing or wrong: 401.",
      example: "t=1764594720,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
    },
  ],
  errors: [401, 404, 409, 503],
});

const accountExample = {
  object: "collection_account",
  bank_code: "001",
  agreement: "2345678",
  wallet: "17",
  beneficiary_name: "Crédito Fácil SCD S.A.",
  beneficiary_document: "11222333000181",
  city: "São Paulo",
  pix_location_base: "pix.example-psp.com.br/qr/v2",
  shared_default: false,
  environment: "production",
  updated_at: "2026-11-23T13:10:00.000Z",
};

export const getCollectionAccountOperation = defineOperation({
  operationId: "getCollectionAccount",
  method: "GET",
  path: "/v1/collection-account",
  summary: "The collection account charges are issued under in this environment",
  description:
    "The bank agreement for boletos and the Pix receiver of the credential's tenant and environment. In the sandbox, a tenant that set none " +
    "gets the shared default (`shared_default: true`: bank 001, agreement 1234567, wallet 17); in production, 404 until one is set.",
  tags,
  auth: "bearer",
  permission: "collections:read",
  responses: { 200: { description: "The account.", schema: CollectionAccountResponse, example: accountExample } },
  errors: [404],
});

export const putCollectionAccountOperation = defineOperation({
  operationId: "putCollectionAccount",
  method: "PUT",
  path: "/v1/collection-account",
  summary: "Set the collection account of this environment (collections:admin)",
  description:
    "Where borrowers' money goes, so it needs `collections:admin`, granted only by name (never by the coarse `write`), and every change is " +
    "audited with the previous values. Charges already issued keep the account they were issued under (`beneficiary` on the charge); new " +
    "ones use this one, with a nosso número sequence per agreement. An agreement belongs to one tenant per environment (400 otherwise). " +
    "`beneficiary_name` and `city` must keep a letter or digit once accents and symbols go (the Pix BR Code's name and city; 400 otherwise). " +
    "Replaces the whole account (PUT): send every field.",
  tags,
  auth: "bearer",
  permission: "collections:admin",
  body: CollectionAccountBody,
  responses: { 200: { description: "The account as stored.", schema: CollectionAccountResponse, example: accountExample } },
  errors: [409],
});

export const collectionOperations = [
  getCollectionAccountOperation,
  putCollectionAccountOperation,
  createChargeOperation,
  listChargesOperation,
  getChargeOperation,
  cancelChargeOperation,
  listPaymentsOperation,
  getPaymentOperation,
  createRefundOperation,
  listRefundsOperation,
  getRefundOperation,
  sandboxPayChargeOperation,
  providerNotificationOperation,
];
