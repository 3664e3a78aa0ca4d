import { POST as issueContract } from "@/app/v1/contracts/route";
import { call } from "../helpers/http";
import { signedProposal, type CreditTenant } from "../credit/flow-helpers";

/** Active INSS contracts of the tenant (disbursed 2026-03-02: their first installments are late by now). */
export async function contractsOf(t: CreditTenant, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
    ids.push(res.body.id);
  }
  return ids;
}

