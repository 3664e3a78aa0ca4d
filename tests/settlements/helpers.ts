import { POST as issueContract } from "@/app/v1/contracts/route";
import { call } from "../helpers/http";
import { signedProposal, type CreditTenant } from "../credit/flow-helpers";

/** Active INSS contracts of the tenant, disbursed 2026-03-02 (12 installments due 2026-04-02 to 2027-03-02): their first
 *  installments are late on any day from now on. Fixed dates on purpose: tests/panel/dashboard.test.ts reckons with
 *  them at a fixed `now`, and no caller relies on an installment still to come or on none being due today (a test that
 *  does builds its contract with lateContractDates(), tests/credit/contract-dates.ts). */
export async function contractsOf(t: CreditTenant, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
    ids.push(res.body.id);
  }
  return ids;
}

