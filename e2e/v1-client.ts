import { expect, type APIRequestContext } from "@playwright/test";
import { randomCpf } from "./random-cpf";

// The integrator's side of the browser tests: /v1 calls with a sandbox key, and the usual way to a contract
// (customer → simulation → proposal → submit, approve, sign → contract), each step required to succeed.

export function v1Client(request: APIRequestContext, key: string, tenantId: string) {
  const headers = { authorization: `Bearer ${key}`, "x-tenant-id": tenantId, "content-type": "application/json" };
  const post = async (path: string, data?: unknown) => {
    const res = await request.post(path, { headers, data: data ?? {} });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return res.json();
  };
  const get = async (path: string) => (await request.get(path, { headers })).json();

  /** A customer and a personal-loan proposal for them, submitted for review. */
  async function submittedProposal(name: string, amount = 100_000, term = 6, dates: { disbursement_date: string; first_due_date: string } | null = null) {
    const customer = await post("/v1/customers", { document: randomCpf(), name, birth_date: "1980-01-01" });
    const simulation = await post("/v1/simulations", { product: "personal_loan", requested_amount: amount, term, monthly_rate: "0.0250", customer_id: customer.id, ...dates });
    const proposal = await post("/v1/proposals", { customer_id: customer.id, simulation_id: simulation.id });
    await post(`/v1/proposals/${proposal.id}/submit`);
    return { customer, simulation, proposal };
  }

  /** A personal loan issued to a new customer: the contract, its proposal and customer (`dates` in the past: the
   *  sandbox issues it back-dated, with installments already late). */
  async function issuedContract(name: string, amount = 200_000, term = 6, dates: { disbursement_date: string; first_due_date: string } | null = null) {
    const { customer, proposal } = await submittedProposal(name, amount, term, dates);
    for (const action of ["approve", "sign"]) await post(`/v1/proposals/${proposal.id}/${action}`);
    const contract = await post("/v1/contracts", { proposal_id: proposal.id });
    return { customer, proposal, contract };
  }

  return { post, get, submittedProposal, issuedContract };
}
