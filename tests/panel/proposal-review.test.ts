import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { proposalDossier, reviewProposal, reviewQueue, ReviewBody, ReviewQueueQuery } from "@/lib/panel/proposal-review";
import { POST as createProposal } from "@/app/v1/proposals/route";
import { POST as createSimulation } from "@/app/v1/simulations/route";
import { creditTenant, newProposal } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";
import { actor } from "../helpers/factory";
import { call } from "../helpers/http";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";

// The panel's review queue and dossier (issue 12) on the real services: filters and search, tenant and
// environment isolation, and the review being the API's own transition with its audit row.

const query = (q: Partial<ReviewQueueQuery> = {}) => ReviewQueueQuery.parse({ ...q });

describe("the proposal review queue", () => {
  it("filters by status and product, searches by id, document and name, and never shows another tenant's", async () => {
    const t = await creditTenant();
    const other = await creditTenant();
    const a = await newProposal(t);
    const b = await newProposal(t);
    await newProposal(other);
    await call(submit, { base: t.base, path: `/v1/proposals/${a.proposal.id}/submit`, headers: t.headers, params: { id: a.proposal.id } });
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const ids = async (q: Partial<ReviewQueueQuery>) => (await reviewQueue(scope, query(q))).data.map((p) => p.id);

    expect((await ids({})).sort()).toEqual([a.proposal.id, b.proposal.id].sort());
    expect(await ids({ status: "pending_review" })).toEqual([a.proposal.id]);
    expect(await ids({ status: "draft", order: "oldest" })).toEqual([b.proposal.id]);
    expect((await ids({ product: "inss_payroll" })).length).toBe(2);
    expect(await ids({ product: "personal_loan" })).toEqual([]);
    expect(await ids({ q: a.proposal.id })).toEqual([a.proposal.id]);
    const customer = await db().customer.findUniqueOrThrow({ where: { id: b.customer.id } });
    const formatted = customer.document.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, "$1.$2.$3-$4");
    expect(await ids({ q: formatted })).toEqual([b.proposal.id]);
    expect((await ids({ q: "maria da" })).length).toBe(2);
    expect(await ids({ q: "nobody" })).toEqual([]);
    expect(await ids({ from: "2199-12-31" })).toEqual([]);
    const page = await reviewQueue(scope, query({ limit: 1 }));
    expect(page).toMatchObject({ has_more: true, data: [{ customer: { name: "Maria da Silva" } }] });
    const next = await reviewQueue(scope, query({ limit: 1, cursor: page.next_cursor! }));
    expect(next.data.map((p) => p.id)).not.toEqual(page.data.map((p) => p.id));
    expect((await reviewQueue({ tenantId: t.tenant.id, environment: "production" }, query())).data).toEqual([]);
    await expect(proposalDossier({ tenantId: other.tenant.id, environment: "sandbox" }, a.proposal.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(proposalDossier(scope, "prp_\u0000")).rejects.toMatchObject({ code: "not_found" });
  });

  it("the dossier gathers the proposal, customer, schedule, risk and history; a review is the API's transition", async () => {
    const t = await creditTenant();
    const { proposal } = await newProposal(t);
    await call(submit, { base: t.base, path: `/v1/proposals/${proposal.id}/submit`, headers: t.headers, params: { id: proposal.id } });
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const dossier = await proposalDossier(scope, proposal.id);
    expect(dossier.proposal.status).toBe("pending_review");
    expect(dossier.simulation!.schedule).toHaveLength(12);
    expect(dossier.risk!.reasons.map((r) => r.code)).toContain("income_not_declared");
    expect(dossier.reservations.map((r) => r.status)).toEqual(["reserved"]);
    const reviewer = { ...actor, type: "user" as const, id: "usr_x", label: "support@example.test" };
    // The reason is mandatory (the panel's buttons wait for it; the route validates the body with this schema).
    expect(ReviewBody.safeParse({ decision: "approve", reason: "  ok " }).error?.issues.map((i) => i.message)).toEqual(["Give the reason (at least 3 characters)"]);
    const rejected = await reviewProposal(scope, reviewer, proposal.id, { decision: "reject", reason: "Income not proven" });
    expect(rejected).toMatchObject({ status: "rejected", reason: "Income not proven" });
    const after = await proposalDossier(scope, proposal.id);
    expect(after.history.map((h) => h.action)).toContain("proposal.rejected");
    expect(after.history.find((h) => h.action === "proposal.rejected")).toMatchObject({ actor: "support@example.test", metadata: { reason: "Income not proven", from: "pending_review", to: "rejected" } });
    expect(after.reservations.map((r) => r.status)).toEqual(["released"]);
    // The API key that submitted it, by the name it was given and its last four characters.
    expect(after.history.find((h) => h.action === "proposal.submitted")).toMatchObject({ actor: `test key (…${t.key.slice(-4)})`, actor_type: "api_key" });
    await expect(reviewProposal(scope, reviewer, proposal.id, { decision: "approve", reason: "Changed my mind" })).rejects.toMatchObject({ code: "invalid_transition" });
    expect(dossier.exposure).toEqual({ contracts: 0, outstanding: 0, late_contracts: 0 }); // a new customer
  });

  it("the dossier shows what the customer already owes: contracts in collection, their balance, how many are late", async () => {
    const t = await creditTenant();
    const [contractId] = await contractsOf(t, 1); // disbursed 2026-03-02: installments late today
    const contract = await db().contract.findUniqueOrThrow({ where: { id: contractId! } });
    // A personal loan this time (a second payroll one could find the sandbox's margin taken by the first).
    const simulation = await call(createSimulation, {
      base: t.base,
      path: "/v1/simulations",
      headers: t.headers,
      json: { product: "personal_loan", requested_amount: 100_000, term: 6, monthly_rate: "0.0250", customer_id: contract.customerId },
    });
    expect(simulation.status, simulation.text).toBe(201);
    const proposal = await call(createProposal, { base: t.base, path: "/v1/proposals", headers: t.headers, json: { customer_id: contract.customerId, simulation_id: simulation.body.id } });
    expect(proposal.status, proposal.text).toBe(201);
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    expect((await proposalDossier(scope, proposal.body.id)).exposure).toEqual({ contracts: 1, outstanding: Number(contract.outstandingBalance), late_contracts: 1 });
    // Written off, it is the lender's loss but still the borrower's debt: still exposure.
    await db().contract.update({ where: { id: contractId! }, data: { status: "written_off" } });
    expect((await proposalDossier(scope, proposal.body.id)).exposure).toEqual({ contracts: 1, outstanding: Number(contract.outstandingBalance), late_contracts: 1 });
    // A contract no longer collected (settled) is no exposure.
    await db().contract.update({ where: { id: contractId! }, data: { status: "settled" } });
    expect((await proposalDossier(scope, proposal.body.id)).exposure).toEqual({ contracts: 0, outstanding: 0, late_contracts: 0 });
  });
});
