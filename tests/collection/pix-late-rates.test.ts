import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addMonths } from "@/lib/finance";
import { isoDate } from "@/lib/serialize";
import { call } from "../helpers/http";
import { creditTenant, signedProposal } from "../credit/flow-helpers";

// A cobv's fine_rate and interest_rate_monthly are what the PSP adds after its due date, on its whole amount. A charge
// with nothing late in it carries the contract's; one whose amount already includes a fine or late interest, or a
// settlement's payoff, carries "0" — the PSP would otherwise charge them on top of what the amount already holds.

async function contract() {
  const t = await creditTenant();
  // Disbursed four months ago: its first installments are late, the later ones not yet due.
  const disbursement = addMonths(todayInBrazil(), -4);
  const { proposal } = await signedProposal(t, { disbursement_date: disbursement, first_due_date: addMonths(disbursement, 1) });
  const id = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body.id as string;
  const installments = await db().installment.findMany({ where: { contractId: id }, orderBy: { number: "asc" } });
  return { t, id, installments };
}

describe("Pix cobv: late rates the PSP adds after the due date", () => {
  it("the contract's for a charge of installments not yet late; 0 when the amount already has late charges in it", async () => {
    const { t, id, installments } = await contract();
    const today = todayInBrazil();
    const late = installments.find((i) => isoDate(i.dueDate) < today)!;
    const future = installments.find((i) => isoDate(i.dueDate) > today)!;
    const charge = async (ids: string[]) => {
      const res = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: id, method: "pix", installment_ids: ids } });
      expect(res.status).toBe(201);
      return res.body as { pix: { kind: string; fine_rate: string; interest_rate_monthly: string }; breakdown: { fine: number; late_interest: number }[] };
    };

    const onTime = await charge([future.id]);
    expect(onTime.breakdown).toMatchObject([{ fine: 0, late_interest: 0 }]);
    expect(onTime.pix).toMatchObject({ kind: "cobv", fine_rate: "0.02", interest_rate_monthly: "0.01" });

    const overdue = await charge([late.id]);
    expect(overdue.breakdown[0]!.fine).toBeGreaterThan(0);
    expect(overdue.pix).toMatchObject({ kind: "cobv", fine_rate: "0", interest_rate_monthly: "0" });
    // Mixed: the late installment's fine is in the amount, so none is added on the whole.
    expect((await charge([late.id, future.id])).pix).toMatchObject({ fine_rate: "0", interest_rate_monthly: "0" });
  });

  it("0 on a settlement's charge: a payoff paid a day late must not get a fine on installments not yet due", async () => {
    const { t, id } = await contract();
    const made = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: id, type: "full", payment_method: "pix" } });
    expect(made.status).toBe(201);
    const charge = await db().charge.findUniqueOrThrow({ where: { id: made.body.charge_id } });
    expect(charge.pix).toMatchObject({ kind: "cobv", fine_rate: "0", interest_rate_monthly: "0" });
  });
});
