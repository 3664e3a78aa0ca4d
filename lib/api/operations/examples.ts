// Response examples of the payroll, risk and sandbox operations (the OpenAPI linters check them against the
// schemas). Realistic figures of one sandbox customer (benefit 1234567890).

const at = "2026-11-23T13:05:12.345Z";

export const MARGIN_QUERY_EXAMPLE = {
  id: "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
  object: "margin_query",
  customer_id: "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
  source: { type: "inss", benefit_number: "1234567890" },
  authority: "sandbox_simulator",
  authority_query_id: "SIMQ-3F9A6C21B07D44E1A9C2",
  margin_base: 612300,
  margins: [
    { kind: "loan", share: "0.35", total: 214305, used: 24492, reserved: 0, available: 189813 },
    { kind: "credit_card", share: "0.05", total: 30615, used: 0, reserved: 0, available: 30615 },
    { kind: "benefit_card", share: "0.05", total: 30615, used: 0, reserved: 0, available: 30615 },
  ],
  available_loan_margin: 189813,
  source_type: "41",
  source_status: "active",
  blocks: [],
  paying_institution: { code: "001", name: "Banco do Brasil S.A." },
  existing_loans: [{ lender: "Banco Alfa S.A.", contract_number: "INSS-041277", installment_amount: 24492, remaining_installments: 37 }],
  valid_until: "2026-11-24T13:05:12.345Z",
  status: "valid",
  environment: "sandbox",
  created_at: at,
};

export const RESERVATION_EXAMPLE = {
  id: "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
  object: "margin_reservation",
  status: "reserved",
  customer_id: "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
  margin_query_id: "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
  proposal_id: "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
  kind: "loan",
  installment_amount: 95373,
  term: 12,
  authority_reservation_id: "SIMR-OK-8E1F0C3B5A2D4E6F",
  refusal: null,
  expires_at: "2026-11-28T13:06:40.100Z",
  environment: "sandbox",
  created_at: "2026-11-23T13:06:40.100Z",
  updated_at: "2026-11-23T13:06:40.100Z",
};

export const ENDORSEMENT_EXAMPLE = {
  id: "end_01JDQ81M2N3P4Q5R6S7T8V9W0X",
  object: "endorsement",
  status: "endorsed",
  proposal_id: "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
  reservation_id: "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
  contract_number: "CCB-2026-000042",
  authority_endorsement_id: "SIME-5C7D9E1F3A5B7C9D",
  refusal: null,
  endorsed_at: "2026-11-23T15:20:00.000Z",
  environment: "sandbox",
  created_at: "2026-11-23T15:20:00.000Z",
  updated_at: "2026-11-23T15:20:00.000Z",
};

export const RISK_ASSESSMENT_EXAMPLE = {
  id: "rsk_01JDQ7ZQ1W2E3R4T5Y6V7J809P",
  object: "risk_assessment",
  customer_id: "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
  proposal_id: "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
  margin_query_id: "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
  scorecard_version: "2026-11.1",
  score: 820,
  band: "A",
  decision: "approve",
  reasons: [
    { code: "margin_covers_installment", points: 60, description: "The available payroll margin covers the installment" },
    { code: "income_commitment_low", points: 100, description: "Debt payments take a small share of the monthly income" },
    { code: "payroll_deduction", points: 120, description: "The installment is deducted from payroll or benefit before payment" },
  ],
  max_affordable_installment: 157500,
  inputs: {
    as_of: "2026-11-23",
    customer_kind: "person",
    birth_date: "1960-05-10",
    customer_since: "2026-11-23",
    monthly_income: 450000,
    other_monthly_debt: 0,
    installment_amount: 95373,
    term_months: 12,
    product: "inss_payroll",
    payroll_deducted: true,
    margin: { available_loan_margin: 189813, source_status: "active", blocked_for_loans: false },
    history: { paid_installments: 0, overdue_now: 0, late_over_30_days_last_12_months: 0 },
  },
  environment: "sandbox",
  created_at: at,
};

export const REPASSE_EXAMPLE = {
  object: "repasse",
  competence: "2026-04",
  scenario: "full",
  partial_percent: null,
  contracts: [
    {
      contract_id: "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
      status: "processed",
      reason: null,
      amount_due: 95373,
      amount_paid: 95373,
      installments: [{ id: "ins_01JDQ82A3B4C5D6E7F8G9H0J1M", number: 1, due_date: "2026-04-02", amount_paid: 95373, status: "paid" }],
    },
  ],
  totals: { processed: 1, skipped: 0, amount_due: 95373, amount_paid: 95373 },
};

export const CHARGE_EXAMPLE = {
  id: "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
  object: "charge",
  status: "pending",
  method: "boleto",
  contract_id: "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
  customer_id: "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
  installment_ids: ["ins_01JDQ82A3B4C5D6E7F8G9H0J1M"],
  due_date: "2026-12-10",
  amount: 95373,
  amount_paid: 0,
  breakdown: [{ installment_id: "ins_01JDQ82A3B4C5D6E7F8G9H0J1M", number: 9, due_date: "2026-12-10", fine: 0, late_interest: 0, interest: 14021, principal: 81352, total: 95373 }],
  boleto: {
    barcode: "00198165600000953730000001234567100000004217",
    digitable_line: "00190.00009 01234.567103 00000.042176 8 16560000095373",
    due_date: "2026-12-10",
    our_number: "12345671000000042",
    bank_code: "001",
  },
  pix: null,
  beneficiary: { name: "Credit Platform Sandbox", document: "11222333000181", city: "Sao Paulo", bank_code: "001", agreement: "1234567" },
  payment_page_url: "http://localhost:3000/pay/chg_01JDQ9A1B2C3D4E5F6G7H8J9K0.Xn4pQ0m2rT7vJ9cW1yL5sB8dF3hK6gA0zE2uN4iO7qR",
  paid_at: null,
  environment: "sandbox",
  created_at: "2026-11-23T13:10:00.000Z",
  updated_at: "2026-11-23T13:10:00.000Z",
};

export const PAYMENT_EXAMPLE = {
  id: "pay_01JDQ9C1D2E3F4G5H6J7K8M9N0",
  object: "payment",
  contract_id: "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
  charge_id: "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
  source: "boleto",
  amount: 95373,
  allocations: [{ installment_id: "ins_01JDQ82A3B4C5D6E7F8G9H0J1M", number: 9, fine: 0, late_interest: 0, interest: 14021, principal: 81352, total: 95373 }],
  credit: 0,
  competence: null,
  paid_at: "2026-12-09T14:02:11.000Z",
  environment: "sandbox",
  created_at: "2026-12-09T14:02:11.000Z",
};
