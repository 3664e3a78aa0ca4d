// One example request body per operation that takes one, shown in the OpenAPI document (request bodies had none:
// documentation viewers showed an empty form). Ids match the response examples'. tests/platform/openapi-examples.test.ts
// parses each with the operation's own schema, so an example can never drift from what the handler accepts.

const CUSTOMER = "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W";
const CONTRACT = "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K";
const INSTALLMENT = "ins_01JDQ82A3B4C5D6E7F8G9H0J1M";
const PROPOSAL = "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P";
const SIMULATION = "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0";
const MARGIN_QUERY = "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8";

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  // As lib/auth/oauth-clients.ts issues them: `ci_test_` + 16 random bytes, `cs_test_` + 32, base64url.
  createToken: { grant_type: "client_credentials", client_id: "ci_test_q8Jx2mVb5NcR7tWz0kLp3A", client_secret: "cs_test_Hn4vT9bQ2xK7mW1cZ8rP5sJ3yF6gD0aL4eU7iO2nB9w", scope: "customers:read simulations:write" },
  createCustomer: {
    document: "529.982.247-25",
    name: "Maria da Silva",
    birth_date: "1958-04-12",
    email: "maria.silva@example.com",
    phone: "+5511987654321",
    address: { street: "Avenida Paulista", number: "1578", district: "Bela Vista", city: "São Paulo", state: "SP", zip_code: "01310-200" },
    monthly_income: 450000,
    payroll: { type: "inss", benefit_number: "1234567890" },
  },
  updateCustomer: { phone: "+5511912345678", monthly_income: 480000 },
  createSimulation: { product: "inss_payroll", requested_amount: 1000000, term: 84, monthly_rate: "0.0179", disbursement_date: "2026-12-01", customer_id: CUSTOMER },
  createProposal: { customer_id: CUSTOMER, simulation_id: SIMULATION, margin_query_id: MARGIN_QUERY },
  submitProposal: { margin_query_id: "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8" },
  rejectProposal: { reason: "Income does not support the installment" },
  cancelProposal: { reason: "Customer gave up" },
  issueContract: { proposal_id: PROPOSAL },
  cancelContract: { reason: "The borrower withdrew within 7 days (CDC art. 49)" },
  writeOffContract: { reason: "No payment for 180 days; collection exhausted" },
  createRiskAssessment: { customer_id: CUSTOMER, proposal_id: PROPOSAL, other_monthly_debt: 30000 },
  createMarginQuery: { customer_id: CUSTOMER },
  createMarginReservation: { margin_query_id: MARGIN_QUERY, installment_amount: 25000, term: 84 },
  createEndorsement: { proposal_id: PROPOSAL },
  putCollectionAccount: {
    bank_code: "001",
    agreement: "2345678",
    wallet: "17",
    beneficiary_name: "Crédito Fácil SCD S.A.",
    beneficiary_document: "11.222.333/0001-81",
    city: "São Paulo",
    pix_location_base: "pix.example-psp.com.br/qr/v2",
  },
  createCharge: { contract_id: CONTRACT, installment_ids: [INSTALLMENT], method: "pix", pix: { kind: "cobv" } },
  createRefund: { contract_id: CONTRACT, amount: 5000, method: "pix", reference: "E00000000202612011200abcdef12345", refunded_on: "2026-12-01" },
  sandboxPayCharge: { amount: 95373, paid_on: "2026-12-10" },
  // The boleto of the charge example (its nosso número), paid as the response's payment example says.
  receiveProviderNotification: { event_id: "evt-psp-000123", type: "payment.confirmed", our_number: "12345671000000042", amount: 95373, paid_on: "2026-12-09" },
  createSettlement: { contract_id: CONTRACT, type: "partial", amount: 200000, reduce: "term", payment_method: "boleto" },
  cancelSettlement: { reason: "The borrower will pay by another means" },
  createSettlementBatch: {
    items: [
      { contract_id: CONTRACT, type: "full", payment_method: "received" },
      { contract_id: "ctr_01JDQ82A3B4C5D6E7F8G9H0J1M", type: "partial", amount: 150000, reduce: "installment_amount", payment_method: "received" },
    ],
  },
  createAssignment: { assignee: { name: "Fundo Alfa FIDC", document: "11.222.333/0001-81" }, contract_ids: [CONTRACT], settlement_date: "2026-12-15", discount_rate: "0.0150" },
  cancelAssignment: { reason: "The assignee withdrew its offer" },
  declineAssignment: { reason: "The assignee's credit committee did not approve the portfolio" },
  buybackAssignment: { contract_ids: [CONTRACT], reason: "Fraud found in the borrower's documents (coobrigação)" },
  createWebhookEndpoint: { url: "https://hooks.example.com/credit-platform", event_types: ["proposal.status_changed", "contract.issued", "payment.received"], description: "Core banking" },
  updateWebhookEndpoint: { event_types: ["*"], enabled: true },
  rotateWebhookSecret: { grace_period_seconds: 86400 },
  recoverWebhookEndpoint: { since: "2026-11-28T00:00:00Z", until: "2026-12-01T12:00:00Z" },
  simulateRepasse: { competence: "2026-04", scenario: "partial", partial_percent: 60 },
};
