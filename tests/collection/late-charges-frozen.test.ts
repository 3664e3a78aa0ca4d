import { afterEach, describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { GET as getInstallment } from "@/app/v1/installments/[id]/route";
import { db } from "@/lib/db/client";
import { PRODUCTS } from "@/lib/products";
import { call } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// A contract's late charges are what was signed: frozen into the proposal's terms when it is made (shown before the
// signature as `terms.late_charges`), copied into the contract's (`late_charges`). A later change of the product's
// rates applies to proposals made after it, never to those signed or running.

const product = PRODUCTS.inss_payroll as { lateFineRate: string; lateMonthlyInterestRate: string };
const original = { ...product };
afterEach(() => Object.assign(product, original));

async function lateContract(t: CreditTenant) {
  const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
  const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body as { id: string; late_charges: unknown };
  const first = await db().installment.findFirstOrThrow({ where: { contractId: contract.id, number: 1 } });
  return { contract, first };
}

describe("a contract's late charges", () => {
  it("a later change of the product's rates applies to new proposals only, never to running contracts", async () => {
    const t = await creditTenant();
    const before = await lateContract(t);
    expect(before.contract.late_charges).toEqual({ fine_rate: "0.02", monthly_interest_rate: "0.01" });
    const asOf = "2026-05-04"; // installment 1 (due 2026-04-02) is 32 days late
    const due = async (id: string) => (await call(getInstallment, { base: t.base, path: `/v1/installments/${id}?as_of=${asOf}`, headers: t.headers, params: { id } })).body.amount_due;
    const dueBefore = await due(before.first.id);
    const face = Number(before.first.amount);
    expect(dueBefore).toMatchObject({ days_late: 32, fine: Math.round(face * 0.02), late_interest: Math.round((face * 0.01 * 32) / 30) });

    Object.assign(product, { lateFineRate: "0.01", lateMonthlyInterestRate: "0.005" });
    expect(await due(before.first.id)).toEqual(dueBefore);
    const charge = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: before.contract.id, method: "boleto", installment_ids: [before.first.id] } })).body;
    expect(charge.breakdown[0]).toMatchObject({ fine: Math.round(face * 0.02) });
    const shown = (await call(getContract, { base: t.base, path: `/v1/contracts/${before.contract.id}`, headers: t.headers, params: { id: before.contract.id } })).body;
    expect(shown.late_charges).toEqual({ fine_rate: "0.02", monthly_interest_rate: "0.01" });

    const after = await lateContract(t);
    expect(after.contract.late_charges).toEqual({ fine_rate: "0.01", monthly_interest_rate: "0.005" });
    expect(await due(after.first.id)).toMatchObject({ fine: Math.round(Number(after.first.amount) * 0.01) });
  });

  it("signed at one rate, the contract keeps it even if the product's rate changes before it is issued", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    expect(proposal.terms.late_charges).toEqual({ fine_rate: "0.02", monthly_interest_rate: "0.01" });
    Object.assign(product, { lateFineRate: "0.01", lateMonthlyInterestRate: "0.005" }); // between signature and averbação/issue
    const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body;
    expect(contract.late_charges).toEqual({ fine_rate: "0.02", monthly_interest_rate: "0.01" });
  });

  it("of a contract whose terms carry none fall back to its product's", async () => {
    const t = await creditTenant();
    const { contract } = await lateContract(t);
    const row = await db().contract.findUniqueOrThrow({ where: { id: contract.id } });
    const legacy = { ...(row.terms as Record<string, unknown>) };
    delete legacy.late_charges;
    await db().contract.update({ where: { id: contract.id }, data: { terms: legacy as object } });
    const shown = (await call(getContract, { base: t.base, path: `/v1/contracts/${contract.id}`, headers: t.headers, params: { id: contract.id } })).body;
    expect(shown.late_charges).toEqual({ fine_rate: "0.02", monthly_interest_rate: "0.01" });
  });
});
