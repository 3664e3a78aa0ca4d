import { ContractIdParams } from "@/lib/contracts/schemas";
import { MAX_BATCH_ITEMS, SettlementBatchBody, SettlementBatchIdParams, SettlementBatchResponse } from "@/lib/settlements/batch";
import { listEnvelope } from "@/lib/pagination";
import {
  CancelSettlementBody,
  CreateSettlementBody,
  ListSettlementsQuery,
  PayoffQuoteQuery,
  PayoffQuoteResponse,
  SettlementIdParams,
  SettlementResponse,
} from "@/lib/settlements/schemas";
import { defineOperation } from "../operation";
import { PAYOFF_QUOTE_EXAMPLE, SETTLEMENT_BATCH_EXAMPLE, SETTLEMENT_EXAMPLE } from "./examples";

const tags = ["Settlements"];
const settlementOne = { description: "The settlement.", schema: SettlementResponse, example: SETTLEMENT_EXAMPLE };

export const payoffQuoteOperation = defineOperation({
  operationId: "getPayoffQuote",
  method: "GET",
  path: "/v1/contracts/{id}/payoff-quote",
  summary: "What settles the contract on a date (present value at the contract rate, plus late charges)",
  description:
    "Each open installment at its present value on `date` at the contract rate — t = whole months + days/30 from `date` to its " +
    "`nominal_due_date`, the end of the monthly period its interest was computed on (before `due_date_rule` moved it off a weekend or " +
    "holiday), so a quote on the disbursement date is the principal and one right after an installment the schedule's balance, " +
    "whatever the rule; interest removed pro rata for paying early (CDC art. 52 §2), rounded half-up per installment so the lines add " +
    "up to the total — or at face value when due (its actual `due_date`) on or before `date`, plus the late fine and pro-rata late interest of those already late, less " +
    "the contract's credit. Nothing is stored; `valid_until` is the end of `date` in Brasília. 409 `contract_not_active` for a " +
    "contract that is not active, assigned or written off (an assigned one is quoted and settled: the borrower's right to pay early survives the sale; a written-off one too: its debt is still the borrower's).",
  tags,
  auth: "bearer",
  permission: "settlements:read",
  params: ContractIdParams,
  query: PayoffQuoteQuery,
  responses: { 200: { description: "The quote.", schema: PayoffQuoteResponse, example: PAYOFF_QUOTE_EXAMPLE } },
  errors: [404, 409],
});

export const createSettlementOperation = defineOperation({
  operationId: "createSettlement",
  method: "POST",
  path: "/v1/settlements",
  summary: "Settle a contract in full or prepay part of it",
  description:
    "`full`: pays the payoff quote of `date` and, once completed, closes the contract (`settled`, event `contract.closed`). " +
    "`partial`: prepays `amount` (the balance is the payoff quote's present value) and reschedules what is left on the same due dates by the contract's amortization system, its amounts on monthly periods from the first remaining installment's `nominal_due_date` — or from its actual `due_date` when that nominal date is on or before `date`, the rows then dated monthly from it — (the rows' `nominal_due_date`) — every " +
    "remaining installment smaller (`reduce: installment_amount`) or the same installment and fewer of them (`reduce: term`, the last " +
    "ones canceled); installments due by `date` — or whose period ended by then, due on the next business day under `following` — must be paid first (409 `open_installments_due`), and an `amount` leaving too little to spread (a R$ 0,00 installment) is 400. `payment_method: received` " +
    "completes it immediately (funds that arrived outside the platform; dated today, a later `date` is 400); `boleto` / `pix` issue a charge for the amount (`charge_id`) and " +
    "paying it completes the settlement (parts short of the amount are held as the contract's credit, allocated to nothing, until the " +
    "rest arrives); a pending settlement not paid by its date is canceled by the collection job two business days after it (a boleto paid on the date is cleared and notified the next business day). One pending " +
    "settlement per contract (409 `conflict`). A contract on offer in a pending portfolio assignment is settled all the same — the " +
    "borrower's right to pay off early is not suspended while the lender negotiates the credit (CDC art. 52 §2): it leaves the offer in the " +
    "same transaction (the assignment's totals drop by its face value and price, event `assignment.contract_removed`; the last one " +
    "leaving cancels the offer) and does not return to it if this settlement is canceled. An `assigned` contract (a settled assignment) " +
    "is settled too: its payment carries the `assignment_id` — the assignee's money.",
  tags,
  auth: "bearer",
  permission: "settlements:write",
  body: CreateSettlementBody,
  responses: { 201: { description: "The settlement: `completed` (received) or `pending` with its charge.", schema: SettlementResponse, example: SETTLEMENT_EXAMPLE } },
  errors: [404, 409],
});

export const listSettlementsOperation = defineOperation({
  operationId: "listSettlements",
  method: "GET",
  path: "/v1/settlements",
  summary: "List settlements, newest first (filters: contract, status, type)",
  tags,
  auth: "bearer",
  permission: "settlements:read",
  query: ListSettlementsQuery,
  responses: { 200: { description: "A page of settlements.", schema: listEnvelope(SettlementResponse) } },
});

export const getSettlementOperation = defineOperation({
  operationId: "getSettlement",
  method: "GET",
  path: "/v1/settlements/{id}",
  summary: "Get a settlement",
  tags,
  auth: "bearer",
  permission: "settlements:read",
  params: SettlementIdParams,
  responses: { 200: settlementOne },
  errors: [404],
});

export const cancelSettlementOperation = defineOperation({
  operationId: "cancelSettlement",
  method: "POST",
  path: "/v1/settlements/{id}/cancel",
  summary: "Cancel a pending settlement (and its open charge)",
  description: "409 `invalid_transition` for a completed or canceled settlement; nothing changes then.",
  tags,
  auth: "bearer",
  permission: "settlements:write",
  params: SettlementIdParams,
  body: CancelSettlementBody,
  responses: { 200: settlementOne },
  errors: [404, 409],
});

export const settlementBatchOperation = defineOperation({
  operationId: "createSettlementBatch",
  method: "POST",
  path: "/v1/settlements/batch",
  summary: `Settle many contracts in one request (up to ${MAX_BATCH_ITEMS} items)`,
  description:
    `Each item is a CreateSettlementBody, validated and applied in its own transaction; items start in request order, a few at once, and one naming a contract an earlier item names waits for it (the earlier one wins, as one at a time); \`results\` has one entry per item in request ` +
    "order: `created` with its `settlement_id`, or `failed` with the problem a single request would have got (field errors named " +
    `\`items.<index>.<field>\`; a contract on offer in a pending portfolio assignment leaves the offer, as with a single request). More than ${MAX_BATCH_ITEMS} items: 413 \`batch_too_large\`, nothing applied. Idempotent by X-Request-Id ` +
    "(send one): repeating it replays the finished batch (`Idempotent-Replayed: true`); while another request is processing it, 409 " +
    "`idempotency_in_progress` (retry later); if that request died (its lease, IDEMPOTENCY_LEASE_SECONDS, default 30 s, lapsed), the repeat takes over and applies only the " +
    "items without a result — every item exactly once. The same X-Request-Id with other items: 422. Keys are per credential (and its permissions), as on every operation: another credential's identical id runs its own batch. Batches keep their own record of ids (a lease and a result per item, not one stored response): an id already used on another operation is not recognised here, nor a batch's id there. Progress: GET /v1/settlements/batch/{id}.",
  tags,
  auth: "bearer",
  permission: "settlements:write",
  body: SettlementBatchBody,
  // The batch keeps its own idempotency record (per item, not one transaction for the whole request).
  idempotent: "own",
  responses: { 201: { description: "The batch, completed, with every item's result.", schema: SettlementBatchResponse, example: SETTLEMENT_BATCH_EXAMPLE } },
  errors: [409, 413, 422],
  errorNotes: {
    413:
      `\`batch_too_large\`: more than ${MAX_BATCH_ITEMS} items (\`max_items\`), nothing applied; or \`payload_too_large\`: a body over 1 MiB — ` +
      `${MAX_BATCH_ITEMS} items fit as compact JSON (about 0.9 MB for partial settlements), not pretty-printed.`,
  },
});

export const getSettlementBatchOperation = defineOperation({
  operationId: "getSettlementBatch",
  method: "GET",
  path: "/v1/settlements/batch/{id}",
  summary: "A settlement batch: progress and results",
  tags,
  auth: "bearer",
  permission: "settlements:read",
  params: SettlementBatchIdParams,
  responses: { 200: { description: "The batch.", schema: SettlementBatchResponse, example: SETTLEMENT_BATCH_EXAMPLE } },
  errors: [404],
});

export const settlementOperations = [
  payoffQuoteOperation,
  createSettlementOperation,
  listSettlementsOperation,
  getSettlementOperation,
  cancelSettlementOperation,
  settlementBatchOperation,
  getSettlementBatchOperation,
];
