import { POST as createCustomerRoute } from "@/app/v1/customers/route";
import { POST as createSimulationRoute } from "@/app/v1/simulations/route";
import { POST as createProposalRoute } from "@/app/v1/proposals/route";
import { POST as createMarginQueryRoute } from "@/app/v1/payroll/margin-queries/route";
import { POST as createEndorsementRoute } from "@/app/v1/payroll/endorsements/route";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { POST as approve } from "@/app/v1/proposals/[id]/approve/route";
import { POST as sign } from "@/app/v1/proposals/[id]/sign/route";
import type { Environment } from "@prisma/client";
import { cpfCheckDigits } from "@/lib/br";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION, SANDBOX } from "../helpers/http";

export { LATE_INSTALLMENTS, lateContractDates } from "./contract-dates";

// Builds the credit flow through the real routes: a tenant with keys, a customer, a simulation, a proposal.

export async function creditTenant(environment: Environment = "sandbox") {
  const { tenant } = await newTenant();
  const { key } = await newKey(tenant.id, environment, ["read", "write", "proposals:review"]);
  const base = environment === "sandbox" ? SANDBOX : PRODUCTION;
  const headers = bearer(key, tenant.id);
  return { tenant, key, base, headers };
}

export type CreditTenant = Awaited<ReturnType<typeof creditTenant>>;

/** A valid CPF that no other test uses. */
export function uniqueCpf(): string {
  const base = String(100_000_000 + Math.floor(Math.random() * 899_999_999)).slice(0, 9);
  return base + cpfCheckDigits(base);
}

export async function newCustomer(t: CreditTenant, document = uniqueCpf()) {
  const res = await call(createCustomerRoute, {
    base: t.base,
    path: "/v1/customers",
    headers: t.headers,
    json: {
      document,
      name: "Maria da Silva",
      birth_date: "1960-05-10",
      email: "maria@example.com",
      // No declared income: the risk scorecard routes submissions to staff review (income_not_declared),
      // so these flows reach pending_review and go on through the staff endpoints.
      payroll: { type: "inss", benefit_number: "1234567890" },
    },
  });
  if (res.status !== 201) throw new Error(`customer: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

// The default dates are fixed: for tests that compare with explicit dates (as_of, the contract number's year, the
// withdrawal period) and not with today. A test about what is late or still to come today passes lateContractDates().
export async function newSimulation(t: CreditTenant, customerId?: string, dates: Record<string, string> | null = { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" }) {
  const res = await call(createSimulationRoute, {
    base: t.base,
    path: "/v1/simulations",
    headers: t.headers,
    json: {
      product: "inss_payroll",
      requested_amount: 1000000,
      term: 12,
      monthly_rate: "0.0180",
      ...(dates ?? {}),
      ...(customerId ? { customer_id: customerId } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`simulation: ${res.status} ${res.text}`);
  return res.body as { id: string; principal: number; schedule: { number: number; due_date: string; payment: number; amortization: number; interest: number }[] };
}

/** A margin query of the customer through the sandbox simulator (payroll proposals need one). */
export async function newMarginQuery(t: CreditTenant, customerId: string) {
  const res = await call(createMarginQueryRoute, { base: t.base, path: "/v1/payroll/margin-queries", headers: t.headers, json: { customer_id: customerId } });
  if (res.status !== 201) throw new Error(`margin query: ${res.status} ${res.text}`);
  return res.body as { id: string; available_loan_margin: number };
}

export async function newProposal(t: CreditTenant, dates?: Record<string, string> | null) {
  const customer = await newCustomer(t);
  const simulation = await newSimulation(t, customer.id, dates);
  const marginQuery = await newMarginQuery(t, customer.id);
  const res = await call(createProposalRoute, {
    base: t.base,
    path: "/v1/proposals",
    headers: t.headers,
    json: { customer_id: customer.id, simulation_id: simulation.id, margin_query_id: marginQuery.id },
  });
  if (res.status !== 201) throw new Error(`proposal: ${res.status} ${res.text}`);
  return { customer, simulation, marginQuery, proposal: res.body as { id: string; status: string; terms: Record<string, unknown> } };
}

/** A proposal moved to `signed` through its action endpoints, and endorsed by the sandbox authority (a
 *  payroll contract is issued only after its endorsement). */
export async function signedProposal(t: CreditTenant, dates?: Record<string, string> | null) {
  const made = await newProposal(t, dates);
  for (const handler of [submit, approve, sign]) {
    const res = await call(handler, { base: t.base, path: `/v1/proposals/${made.proposal.id}/x`, headers: t.headers, params: { id: made.proposal.id } });
    if (res.status !== 200) throw new Error(`transition: ${res.status} ${res.text}`);
  }
  const endorsed = await call(createEndorsementRoute, { base: t.base, path: "/v1/payroll/endorsements", headers: t.headers, json: { proposal_id: made.proposal.id } });
  if (endorsed.status !== 201 || endorsed.body.status !== "endorsed") throw new Error(`endorsement: ${endorsed.status} ${endorsed.text}`);
  return { ...made, endorsement: endorsed.body as { id: string; contract_number: string; reservation_id: string } };
}
