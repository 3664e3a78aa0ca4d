import { CancelContractBody, ContractIdParams, ContractResponse, IssueContractBody, ListContractsQuery, WriteOffContractBody } from "@/lib/contracts/schemas";
import { AsOfQuery, ContractInstallmentsQuery, InstallmentIdParams, InstallmentResponse, ListInstallmentsQuery } from "@/lib/installments/schemas";
import { listEnvelope } from "@/lib/pagination";
import { defineOperation } from "../operation";

const tags = ["Contracts"];

export const issueContractOperation = defineOperation({
  operationId: "issueContract",
  method: "POST",
  path: "/v1/contracts",
  summary: "Issue a contract from a signed proposal",
  description:
    "Creates the contract (status `active`, number `CCB-<year>-<sequence>`), its installments from the frozen schedule, and " +
    "moves the proposal to `contract_issued`, all in one transaction. 409 when the proposal is not `signed`, or is past its `expires_at` (`current_status: expired`: it is closed as the expiry job would, a payroll one's averbação ended). Production: 422 " +
    "`disbursement_date_passed` when the proposal's disbursement date is before today (cancel it — a payroll one's averbação is ended — " +
    "and propose again); the sandbox " +
    "issues back-dated contracts, so late installments and collection can be tried.",
  tags,
  auth: "bearer",
  permission: "contracts:write",
  body: IssueContractBody,
  responses: { 201: { description: "The contract.", schema: ContractResponse } },
  errors: [404, 409, 422],
  errorNotes: {
    422: "`disbursement_date_passed` (production: the proposal's disbursement date is before today — cancel it and propose again), or `idempotency_key_reused`.",
  },
});

export const listContractsOperation = defineOperation({
  operationId: "listContracts",
  method: "GET",
  path: "/v1/contracts",
  summary: "List contracts (newest first)",
  tags,
  auth: "bearer",
  permission: "contracts:read",
  query: ListContractsQuery,
  responses: { 200: { description: "A page of contracts.", schema: listEnvelope(ContractResponse) } },
});

export const getContractOperation = defineOperation({
  operationId: "getContract",
  method: "GET",
  path: "/v1/contracts/{id}",
  summary: "Get a contract",
  tags,
  auth: "bearer",
  permission: "contracts:read",
  params: ContractIdParams,
  responses: { 200: { description: "The contract.", schema: ContractResponse } },
  errors: [404],
});

export const cancelContractOperation = defineOperation({
  operationId: "cancelContract",
  method: "POST",
  path: "/v1/contracts/{id}/cancel",
  summary: "Cancel a contract (borrower's withdrawal within 7 days, before any payment)",
  description:
    "CDC art. 49: within 7 days of disbursement — through the next business day when the seventh is a weekend or a national " +
    "holiday (Código Civil art. 132 §1) — and before any payment (409 `invalid_transition` otherwise; a contract is " +
    "offered in a portfolio assignment only after those 7 days). Its installments, open charges and pending settlement are canceled " +
    "in the same transaction, and a payroll contract's averbação is ended at the authority (endorsement `terminating`, then " +
    "`terminated` by the worker).",
  tags,
  auth: "bearer",
  permission: "contracts:write",
  params: ContractIdParams,
  body: CancelContractBody,
  responses: { 200: { description: "The canceled contract.", schema: ContractResponse } },
  errors: [404, 409],
});

export const writeOffContractOperation = defineOperation({
  operationId: "writeOffContract",
  method: "POST",
  path: "/v1/contracts/{id}/write-off",
  summary: "Write off a contract in default (active → written_off)",
  description:
    "The lender's decision that a defaulted contract will not be recovered (baixa para prejuízo, Res. CMN 4.966/2021), with its reason " +
    "(audit log and the `contract.written_off` event). Only an active contract with a late installment (409 `invalid_transition` for a " +
    "performing, assigned, settled or canceled one); 409 `conflict` while a settlement is pending or it is on offer in a portfolio " +
    "assignment. The debt stays the borrower's: installments, balance and late charges are unchanged, and the contract is still " +
    "collected — charges, payments, credit, payoff quotes and settlements — closing as `settled` when paid off.",
  tags,
  auth: "bearer",
  permission: "contracts:write",
  params: ContractIdParams,
  body: WriteOffContractBody,
  responses: { 200: { description: "The written-off contract.", schema: ContractResponse } },
  errors: [404, 409],
});

export const contractInstallmentsOperation = defineOperation({
  operationId: "listContractInstallments",
  method: "GET",
  path: "/v1/contracts/{id}/installments",
  summary: "A contract's installments, by due date",
  tags: ["Installments"],
  auth: "bearer",
  permission: "installments:read",
  params: ContractIdParams,
  query: ContractInstallmentsQuery,
  responses: { 200: { description: "A page of installments.", schema: listEnvelope(InstallmentResponse) } },
  errors: [404],
});

export const listInstallmentsOperation = defineOperation({
  operationId: "listInstallments",
  method: "GET",
  path: "/v1/installments",
  summary: "List installments by contract, status and due-date range (earliest due first)",
  tags: ["Installments"],
  auth: "bearer",
  permission: "installments:read",
  query: ListInstallmentsQuery,
  responses: { 200: { description: "A page of installments.", schema: listEnvelope(InstallmentResponse) } },
  errors: [404],
});

export const getInstallmentOperation = defineOperation({
  operationId: "getInstallment",
  method: "GET",
  path: "/v1/installments/{id}",
  summary: "Get an installment and the amount due on a date (late charges included)",
  tags: ["Installments"],
  auth: "bearer",
  permission: "installments:read",
  params: InstallmentIdParams,
  query: AsOfQuery,
  responses: { 200: { description: "The installment.", schema: InstallmentResponse } },
  errors: [404],
});

export const contractOperations = [
  issueContractOperation,
  listContractsOperation,
  getContractOperation,
  cancelContractOperation,
  writeOffContractOperation,
  contractInstallmentsOperation,
  listInstallmentsOperation,
  getInstallmentOperation,
];
