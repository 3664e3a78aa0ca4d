import { lateChargesFor } from "@/lib/contracts/late-rules";
import { computeSimulation } from "@/lib/simulations/compute";
import { toSimulationResponse, toSimulationSummary } from "@/lib/simulations/serialize";

// Response examples of the credit core, made by the real finance library so that their figures agree: one
// personal loan of R$ 5,000.00 over 6 months at 2.99% a.m. (Price, IOF financed), simulated, proposed, contracted.

const CUSTOMER_ID = "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0";
const SIMULATION_ID = "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0";
const PROPOSAL_ID = "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0";
const CONTRACT_ID = "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K";

const result = computeSimulation({
  product: "personal_loan",
  amount: { kind: "requested", value: 500_000 },
  term: 6,
  monthlyRate: "0.0299",
  amortization: "price",
  disbursementDate: "2026-12-01",
  firstDueDate: "2027-01-04",
  dueDateRule: "following",
  borrowerKind: "PF",
  iofFinanced: true,
  fees: [],
});
const simulationRow = { id: SIMULATION_ID, customerId: CUSTOMER_ID, environment: "sandbox" as const, createdAt: new Date("2026-12-01T12:00:00.000Z") };

export const SIMULATION_EXAMPLE = toSimulationResponse(simulationRow, result);
export const SIMULATION_SUMMARY_EXAMPLE = toSimulationSummary(simulationRow, result);

export const CUSTOMER_EXAMPLE = {
  id: CUSTOMER_ID,
  object: "customer",
  kind: "person",
  document: "52998224725",
  document_formatted: "529.982.247-25",
  name: "Maria da Silva",
  birth_date: "1960-05-10",
  foundation_date: null,
  email: "maria@example.com.br",
  phone: "+5511987654321",
  address: { street: "Rua das Flores", number: "100", complement: "Apto 12", district: "Centro", city: "São Paulo", state: "SP", zip_code: "01001000" },
  monthly_income: 650_000,
  payroll: null,
  environment: "sandbox",
  created_at: "2026-12-01T11:58:00.000Z",
  updated_at: "2026-12-01T11:58:00.000Z",
};

const terms = {
  product: result.product,
  amortization: result.amortization,
  principal: result.principal,
  released_amount: result.released_amount,
  installment_amount: result.installment_amount,
  max_installment_amount: result.max_installment_amount,
  monthly_rate: result.monthly_rate,
  term: result.term,
  disbursement_date: result.disbursement_date,
  first_due_date: result.first_due_date,
  cet: result.cet,
  late_charges: lateChargesFor(result.product),
};

const ALLOWED: Record<string, string[]> = {
  draft: ["submit", "cancel"],
  pending_review: ["approve", "reject", "cancel"],
  approved: ["sign", "cancel"],
  signed: [],
  rejected: [],
  canceled: [],
  contract_issued: [],
};

/** The example proposal in a status (the transition endpoints answer it after their move). */
export function proposalExample(status: keyof typeof ALLOWED = "draft") {
  return {
    id: PROPOSAL_ID,
    object: "proposal",
    status,
    allowed_actions: ALLOWED[status]!,
    customer_id: CUSTOMER_ID,
    simulation_id: SIMULATION_ID,
    margin_query_id: null,
    risk_assessment_id: status === "draft" ? null : "rsk_01JDQ7D1E2F3G4H5J6K7M8N9P0",
    terms,
    reason: status === "rejected" ? "Income does not support the installment" : status === "canceled" ? "Customer gave up" : null,
    expires_at: "2026-12-31T12:00:00.000Z",
    contract_id: status === "contract_issued" ? CONTRACT_ID : null,
    environment: "sandbox",
    created_at: "2026-12-01T12:01:00.000Z",
    updated_at: "2026-12-01T12:05:00.000Z",
  };
}
export const PROPOSAL_EXAMPLE = proposalExample();

const totalPayments = result.schedule.reduce((sum, row) => sum + row.payment, 0);

/** The example contract in a status (issue: active; cancel: canceled; the events: paid off, sold, written off). */
export function contractExample(status: "active" | "canceled" | "settled" | "assigned" | "written_off" = "active") {
  const owed = status === "active" || status === "assigned" || status === "written_off";
  return {
    id: CONTRACT_ID,
    object: "contract",
    number: "CCB-2026-000001",
    status,
    proposal_id: PROPOSAL_ID,
    customer_id: CUSTOMER_ID,
    product: result.product,
    amortization: result.amortization,
    principal: result.principal,
    released_amount: result.released_amount,
    monthly_rate: result.monthly_rate,
    term: result.term,
    disbursement_date: result.disbursement_date,
    first_due_date: result.first_due_date,
    installment_amount: result.installment_amount,
    amount_paid: status === "settled" ? totalPayments : 0,
    assignment_id: status === "assigned" ? "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0" : null,
    outstanding_balance: owed ? totalPayments : 0,
    credit_balance: 0,
    cet: result.cet,
    iof: { daily: result.iof.daily, additional: result.iof.additional, total: result.iof.total, financed: result.iof.financed },
    late_charges: lateChargesFor(result.product),
    environment: "sandbox",
    created_at: "2026-12-01T12:10:00.000Z",
    updated_at: "2026-12-01T12:10:00.000Z",
  };
}
export const CONTRACT_EXAMPLE = contractExample();

const first = result.schedule[0]!;
export const INSTALLMENT_EXAMPLE = {
  id: "ins_01JDQ83B4C5D6E7F8G9H0J1K2M",
  object: "installment",
  contract_id: CONTRACT_ID,
  number: 1,
  due_date: first.due_date,
  principal: first.amortization,
  interest: first.interest,
  amount: first.payment,
  paid_amount: 0,
  status: "open",
  paid_at: null,
  amount_due: { as_of: "2026-12-15", days_late: 0, outstanding: first.payment, fine: 0, late_interest: 0, total: first.payment },
  environment: "sandbox",
};

export const TOKEN_EXAMPLE = {
  access_token: "eyJhbGciOiJIUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJvYWNfMDFKRC4uLiJ9.c2lnbmF0dXJl",
  token_type: "Bearer",
  expires_in: 3600,
  scope: "read write",
  refresh_token: "rt_test_4f9c2b7e1d8a6c3b5e0f2a9d7c4b1e8f",
  refresh_token_expires_in: 2592000,
};
