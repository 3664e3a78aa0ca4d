import { afterAll, describe, expect, it } from "vitest";
import { GET as getProposal } from "@/app/v1/proposals/[id]/route";
import { POST as createProposal, GET as listProposals } from "@/app/v1/proposals/route";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { POST as approve } from "@/app/v1/proposals/[id]/approve/route";
import { POST as reject } from "@/app/v1/proposals/[id]/reject/route";
import { POST as sign } from "@/app/v1/proposals/[id]/sign/route";
import { POST as cancel } from "@/app/v1/proposals/[id]/cancel/route";
import { POST as createCustomerRoute } from "@/app/v1/customers/route";
import { POST as createSimulationRoute } from "@/app/v1/simulations/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import type { RouteHandler } from "@/lib/api/route";
import { Prisma } from "@prisma/client";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { PROPOSAL_AUDIT_ACTIONS, PROPOSAL_TRANSITIONS, PROPOSAL_STATUSES, type ProposalStatus } from "@/lib/proposals/transitions";
import { transitions } from "@/lib/state-machine";
import { expireProposals } from "@/lib/proposals/expire-proposals";
import { PRODUCTS } from "@/lib/products";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { problem } from "../helpers/problem";
import { creditTenant, newCustomer, newMarginQuery, newProposal, newSimulation, type CreditTenant } from "./flow-helpers";

afterAll(() => stopListener());

const ACTIONS: Record<string, { handler: RouteHandler; body?: Record<string, string> }> = {
  submit: { handler: submit },
  approve: { handler: approve },
  reject: { handler: reject, body: { reason: "Income does not cover the installment" } },
  sign: { handler: sign },
  cancel: { handler: cancel, body: { reason: "Customer gave up" } },
};

/** A reserved margin reservation for a payroll proposal, as its submission makes (the sandbox's 5 days). */
async function holdMargin(t: CreditTenant, proposalId: string) {
  const p = await db().proposal.findUniqueOrThrow({ where: { id: proposalId } });
  await db().marginReservation.create({
    data: {
      id: `mgr_${proposalId.slice(4)}`,
      tenantId: t.tenant.id,
      environment: "sandbox",
      customerId: p.customerId,
      marginQueryId: p.marginQueryId!,
      proposalId,
      kind: "loan",
      installmentAmount: 1000n,
      term: 12,
      status: "reserved",
      authorityReservationId: "SIMR-OK-TEST",
      expiresAt: new Date(Date.now() + 5 * 24 * 3600 * 1000),
    },
  });
}

const getProposalBody = async (t: CreditTenant, id: string) =>
  (await call(getProposal, { base: t.base, path: `/v1/proposals/${id}`, headers: t.headers, params: { id } })).body as { status: string };

const act = (t: CreditTenant, id: string, action: string, headers: Record<string, string> = {}) =>
  call(ACTIONS[action]!.handler, { base: t.base, path: `/v1/proposals/${id}/${action}`, headers: { ...t.headers, ...headers }, params: { id }, json: ACTIONS[action]!.body });

describe("proposals", () => {
  it("creates a draft that freezes the simulation's terms", async () => {
    const t = await creditTenant();
    const { proposal, simulation, customer, marginQuery } = await newProposal(t);
    expect(proposal).toEqual({
      id: expect.stringMatching(/^prp_/),
      object: "proposal",
      status: "draft",
      allowed_actions: ["submit", "cancel"],
      customer_id: customer.id,
      simulation_id: simulation.id,
      margin_query_id: marginQuery.id,
      risk_assessment_id: null,
      terms: expect.objectContaining({ product: "inss_payroll", principal: simulation.principal, term: 12, monthly_rate: "0.018" }),
      reason: null,
      expires_at: expect.any(String),
      contract_id: null,
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "proposal.created" } });
    expect(events.map((e) => (e.payload as { id: string }).id)).toEqual([proposal.id]);
  });

  it("accepts inline terms: the simulation is stored and frozen, and exactly one of simulation_id and terms is required", async () => {
    const t = await creditTenant();
    const customer = await newCustomer(t);
    const terms = { product: "inss_payroll", requested_amount: 500000, term: 24, monthly_rate: "0.0179", disbursement_date: "2026-03-02" };
    const margin_query_id = (await newMarginQuery(t, customer.id)).id;
    const res = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, terms, margin_query_id } });
    expect(res.status).toBe(201);
    expect(res.body.simulation_id).toMatch(/^sim_/);
    expect(res.body.terms).toMatchObject({ product: "inss_payroll", term: 24, monthly_rate: "0.0179", released_amount: 500000 });
    const stored = await db().simulation.findFirstOrThrow({ where: { id: res.body.simulation_id } });
    expect(stored.customerId).toBe(customer.id);
    const both = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, simulation_id: res.body.simulation_id, terms, margin_query_id } });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([{ param: "simulation_id", in: "body", message: "Send exactly one of simulation_id and terms" }]);
    const badTerms = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, terms: { ...terms, monthly_rate: "0.05" }, margin_query_id } });
    expect(badTerms.status).toBe(400);
    expect(badTerms.body.code).toBe("product_rule_violation");
    expect(await db().proposal.count({ where: { tenantId: t.tenant.id } })).toBe(1);
    expect(res.headers.get("deprecation")).toBeNull();
    // The deprecated tax_rate in inline terms is answered as a simulation's is.
    const { monthly_rate: rate, ...old } = terms;
    const deprecated = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, terms: { ...old, tax_rate: rate }, margin_query_id } });
    expect(deprecated.status).toBe(201);
    expect([deprecated.headers.get("deprecation"), deprecated.headers.get("warning")]).toEqual(["@1701388800", '299 - "tax_rate is deprecated; use monthly_rate"']);
  });

  it("inline terms refused after they were priced (no margin query) store no simulation and send no event", async () => {
    const t = await creditTenant();
    const customer = await newCustomer(t);
    const stored = async () => ({
      simulations: await db().simulation.count({ where: { tenantId: t.tenant.id } }),
      events: await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id }, select: { type: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    });
    const before = await stored();
    const terms = { product: "inss_payroll", requested_amount: 500000, term: 24, monthly_rate: "0.0179", disbursement_date: "2026-03-02" };
    const refused = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, terms } });
    expect([refused.status, refused.body.code]).toEqual([400, "margin_query_required"]);
    expect(await stored()).toEqual(before);
    // The same inline terms with the margin query: one simulation, one proposal, their two events.
    const margin_query_id = (await newMarginQuery(t, customer.id)).id;
    const afterQuery = await stored();
    const made = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, terms, margin_query_id } });
    expect(made.status).toBe(201);
    expect(await stored()).toEqual({ simulations: afterQuery.simulations + 1, events: [...afterQuery.events, { type: "simulation.created" }, { type: "proposal.created" }] });
  });

  it("a simulation priced for a person is not a company's proposal (the IOF rate differs), nothing stored", async () => {
    const t = await creditTenant();
    const company = await call(createCustomerRoute, { path: "/v1/customers", headers: t.headers, json: { document: "11222333000181", name: "Padaria Pão Quente Ltda" } });
    expect(company.status).toBe(201);
    const simulation = await call(createSimulationRoute, { path: "/v1/simulations", headers: t.headers, json: { product: "personal_loan", requested_amount: 500000, term: 12, monthly_rate: "0.0299" } });
    expect(simulation.body.borrower_kind).toBe("PF");
    const res = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: company.body.id, simulation_id: simulation.body.id } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ param: "simulation_id", in: "body", message: "Simulated for a person (PF): simulate again for this customer" }]);
    expect(await db().proposal.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("payroll products: the proposal's customer needs the matching payroll link (400 payroll_link_required), nothing stored", async () => {
    const t = await creditTenant();
    const linked = await newCustomer(t);
    const unlinked = await newCustomer(t);
    await db().customer.update({ where: { id: unlinked.id }, data: { payroll: Prisma.DbNull } });
    const counts = async () => ({
      proposals: await db().proposal.count({ where: { tenantId: t.tenant.id } }),
      simulations: await db().simulation.count({ where: { tenantId: t.tenant.id } }),
      audit: await db().auditLog.count({ where: { tenantId: t.tenant.id } }),
      events: await db().outboxEvent.count({ where: { tenantId: t.tenant.id } }),
    });
    const expected = problem("payroll_link_required", 400, "The product needs a customer with a matching payroll link", "inss_payroll requires a customer with a payroll link of type inss", {
      errors: [{ param: "customer_id", in: "body", message: "The customer has no inss payroll link, which inss_payroll requires" }],
    });
    const terms = { product: "inss_payroll", requested_amount: 500000, term: 24, monthly_rate: "0.0179", disbursement_date: "2026-03-02" };

    // A stored simulation from before the rule (no customer), and one whose customer has since lost the link.
    const old = await newSimulation(t, linked.id);
    await db().simulation.update({ where: { id: old.id }, data: { customerId: null } });
    const lost = await newSimulation(t, linked.id);
    const before = await counts();

    const inline = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: unlinked.id, terms } });
    expect(inline.status).toBe(400);
    expect(inline.body).toEqual(expected);
    const fromOld = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: unlinked.id, simulation_id: old.id } });
    expect(fromOld.body).toEqual(expected);
    await db().customer.update({ where: { id: linked.id }, data: { payroll: { type: "private", employer_cnpj: "11222333000181", registration: "42" } } });
    const fromLost = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: linked.id, simulation_id: lost.id } });
    expect(fromLost.body).toEqual(expected);
    expect(await counts()).toEqual(before);

    // With the link back, the same simulations make proposals.
    await db().customer.update({ where: { id: linked.id }, data: { payroll: { type: "inss", benefit_number: "1234567890" } } });
    const margin_query_id = (await newMarginQuery(t, linked.id)).id;
    expect((await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: linked.id, simulation_id: lost.id, margin_query_id } })).status).toBe(201);
    expect((await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: linked.id, simulation_id: old.id, margin_query_id } })).status).toBe(201);
  });

  it("applies every allowed transition of the table, with an audit row and an outbox event each", async () => {
    const t = await creditTenant();
    const endpointActions = transitions(PROPOSAL_TRANSITIONS).filter(([, a]) => a !== "issue_contract" && a !== "expire" && a !== "refuse_endorsement");
    expect(endpointActions.length).toBe(8);
    for (const [from, action, to] of endpointActions) {
      const { proposal } = await newProposal(t);
      await db().proposal.update({ where: { id: proposal.id }, data: { status: from } });
      await holdMargin(t, proposal.id); // a payroll proposal is approved and signed only while its margin is held
      const res = await act(t, proposal.id, action);
      expect(res.status, `${from} --${action}--> ${to}`).toBe(200);
      expect(res.body.status).toBe(to);
      const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
      expect(row.status).toBe(to);
      const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, targetId: proposal.id, action: PROPOSAL_AUDIT_ACTIONS[action] } });
      expect(audit.metadata).toMatchObject({ from, to });
      const event = await db().outboxEvent.findFirstOrThrow({ where: { tenantId: t.tenant.id, type: "proposal.status_changed" }, orderBy: { createdAt: "desc" } });
      expect(event.payload).toMatchObject({ id: proposal.id, status: to, previous_status: from });
    }
  });

  it("refuses every action the table does not allow with 409, changing nothing", async () => {
    // What the 409 offers instead: the actions with an endpoint, never the platform's own (expire, issue_contract,
    // refuse_endorsement), which a client cannot ask for.
    const offered: Record<ProposalStatus, string[]> = {
      draft: ["submit", "cancel"],
      pending_review: ["approve", "reject", "cancel"],
      approved: ["sign", "cancel"],
      signed: ["cancel"],
      rejected: [],
      contract_issued: [],
      canceled: [],
      expired: [],
    };
    const t = await creditTenant();
    const { proposal } = await newProposal(t);
    for (const status of PROPOSAL_STATUSES) {
      await db().proposal.update({ where: { id: proposal.id }, data: { status } });
      for (const action of Object.keys(ACTIONS)) {
        if ((PROPOSAL_TRANSITIONS[status as ProposalStatus] as Record<string, string>)[action]) continue;
        const before = await db().auditLog.count({ where: { targetId: proposal.id } });
        const res = await act(t, proposal.id, action);
        expect(res.status, `${status} --${action}`).toBe(409);
        expect(res.body).toEqual({
          type: "urn:credit-platform:problem:invalid_transition",
          title: "The action is not allowed in the resource's current state",
          status: 409,
          detail: `Cannot ${action} a proposal that is ${status}`,
          code: "invalid_transition",
          request_id: expect.any(String),
          current_status: status,
          action,
          allowed_actions: offered[status as ProposalStatus],
        });
        expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe(status);
        expect(await db().auditLog.count({ where: { targetId: proposal.id } })).toBe(before);
      }
    }
  });

  it("the expiry job closes open and signed proposals past expires_at, and only those", async () => {
    const t = await creditTenant();
    const made = await Promise.all([newProposal(t), newProposal(t), newProposal(t), newProposal(t)]);
    const [draft, approved, signed, fresh] = made.map((m) => m.proposal.id);
    const past = new Date(Date.now() - 1000);
    await db().proposal.update({ where: { id: draft }, data: { expiresAt: past } });
    await db().proposal.update({ where: { id: approved }, data: { expiresAt: past, status: "approved" } });
    await db().proposal.update({ where: { id: signed }, data: { expiresAt: past, status: "signed" } });
    const { expired } = await expireProposals();
    expect(expired).toBeGreaterThanOrEqual(3);
    const status = async (id: string) => (await db().proposal.findUniqueOrThrow({ where: { id } })).status;
    expect([await status(draft!), await status(approved!), await status(signed!), await status(fresh!)]).toEqual(["expired", "expired", "expired", "draft"]);
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "proposal.status_changed" } });
    const expiredEvents = events.filter((e) => (e.payload as { status: string }).status === "expired").map((e) => e.payload);
    expect(expiredEvents).toHaveLength(3);
    // A signed proposal past expires_at can no longer become a contract: closed too, saying so.
    const reasons = expiredEvents.map((p) => [(p as { previous_status: string }).previous_status, (p as { reason: string }).reason]).sort();
    expect(reasons).toEqual([["approved", "Expired before signature"], ["draft", "Expired before signature"], ["signed", "Expired before its contract was issued"]]);
    for (const payload of expiredEvents) expect(payload).toMatchObject({ status: "expired", allowed_actions: [] });
    const audit = await db().auditLog.findFirstOrThrow({ where: { targetId: draft, action: "proposal.expired" } });
    expect([audit.actorType, audit.actorLabel]).toEqual(["system", "proposal-expiry"]);
    const late = await act(t, draft!, "submit");
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ current_status: "expired", allowed_actions: [] });
  });

  it("a proposal past expires_at cannot be submitted, approved or signed before the job runs: 409, and it is closed as expired", async () => {
    const t = await creditTenant();
    const past = new Date(Date.now() - 1000);
    // Plain, and as an idempotent request (X-Request-Id: the action runs in the request's transaction, which the 409
    // rolls back — the proposal is closed all the same, and the stored 409 is what a replay answers).
    const cases = [["draft", "submit"], ["pending_review", "approve"], ["approved", "sign"]] as const;
    for (const [[status, action], idempotent] of cases.flatMap((c) => [[c, false], [c, true]] as const)) {
      const { proposal } = await newProposal(t);
      await db().proposal.update({ where: { id: proposal.id }, data: { status, expiresAt: past } });
      const headers: Record<string, string> = idempotent ? { "x-request-id": `lapse-${proposal.id}` } : {};
      const res = await act(t, proposal.id, action, headers);
      expect(res.status, `${status} --${action}`).toBe(409);
      expect(res.body).toEqual({
        type: "urn:credit-platform:problem:invalid_transition",
        title: "The action is not allowed in the resource's current state",
        status: 409,
        detail: `The proposal expired at ${past.toISOString()}`,
        code: "invalid_transition",
        request_id: expect.any(String),
        current_status: "expired",
        action,
        allowed_actions: [],
      });
      const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
      expect([row.status, row.reason, row.riskAssessmentId]).toEqual(["expired", "Expired before signature", null]);
      const audit = await db().auditLog.findMany({ where: { targetId: proposal.id }, orderBy: { createdAt: "asc" } });
      expect(audit.map((a) => [a.action, a.actorLabel]).slice(-1)).toEqual([["proposal.expired", "proposal-expiry"]]);
      expect(audit.some((a) => a.action === PROPOSAL_AUDIT_ACTIONS[action])).toBe(false);
      expect((await getProposalBody(t, proposal.id)).status).toBe("expired");
      if (idempotent) expect((await act(t, proposal.id, action, headers)).headers.get("idempotent-replayed")).toBe("true");
    }
    // Cancel still works on a lapsed proposal the job has not reached (it is the borrower giving up either way).
    const { proposal } = await newProposal(t);
    await db().proposal.update({ where: { id: proposal.id }, data: { expiresAt: past } });
    expect((await act(t, proposal.id, "cancel")).status).toBe(200);
  });

  it("lapse is judged before anything else: a lapsed draft with a lapsed margin query, a production signed one at its contract", async () => {
    const t = await creditTenant();
    const past = new Date(Date.now() - 1000);
    // A payroll draft outlives its margin query (24 h against 30 days): submitted after both lapsed, the answer is the
    // proposal's own lapse (409, closed) — not the margin query's 422, which left it a draft.
    const draft = await newProposal(t);
    await db().proposal.update({ where: { id: draft.proposal.id }, data: { expiresAt: past } });
    await db().marginQuery.update({ where: { id: draft.marginQuery.id }, data: { validUntil: past } });
    const submitted = await act(t, draft.proposal.id, "submit");
    expect([submitted.status, submitted.body.code, submitted.body.current_status]).toEqual([409, "invalid_transition", "expired"]);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: draft.proposal.id } })).status).toBe("expired");
    // In production a signed proposal's expires_at is the end of its disbursement day: past it, POST /v1/contracts is the
    // lapse's 409 (and the proposal closed), not the disbursement date's 422 that left it signed.
    const signed = await newProposal(t);
    const row = await db().proposal.findUniqueOrThrow({ where: { id: signed.proposal.id } });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await db().proposal.update({
      where: { id: signed.proposal.id },
      data: { environment: "production", status: "signed", expiresAt: past, terms: { ...(row.terms as object), disbursement_date: yesterday } },
    });
    const { key } = await newKey(t.tenant.id, "production", ["read", "write"]);
    const issued = await call(issueContract, { base: PRODUCTION, path: "/v1/contracts", headers: bearer(key, t.tenant.id), json: { proposal_id: signed.proposal.id } });
    expect([issued.status, issued.body.code, issued.body.current_status, issued.body.action]).toEqual([409, "invalid_transition", "expired", "issue_contract"]);
    const closed = await db().proposal.findUniqueOrThrow({ where: { id: signed.proposal.id } });
    expect([closed.status, closed.reason]).toEqual(["expired", "Expired before its contract was issued"]);
  });

  it("needs proposals:review to approve or reject, and a reason to reject", async () => {
    const t = await creditTenant();
    const { proposal } = await newProposal(t);
    expect((await act(t, proposal.id, "submit")).status).toBe(200);
    const { key } = await newKey(t.tenant.id, "sandbox", ["read", "write"]);
    const res = await call(approve, { path: `/v1/proposals/${proposal.id}/approve`, headers: bearer(key, t.tenant.id), params: { id: proposal.id } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("This operation requires the proposals:review permission");
    const noReason = await call(reject, { path: `/v1/proposals/${proposal.id}/reject`, headers: t.headers, params: { id: proposal.id }, json: {} });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual([{ param: "reason", in: "body", message: "Invalid input: expected string, received undefined" }]);
  });

  it("validates the body and refuses another tenant's or environment's customer and simulation (404)", async () => {
    const t = await creditTenant();
    const other = await creditTenant();
    const customer = await newCustomer(t);
    const theirSimulation = await newSimulation(other, (await newCustomer(other)).id);
    const bad = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: "nope", simulation_id: theirSimulation.id, status: "approved" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { param: "customer_id", in: "body", message: "Must be a customer id (cus_…)" },
      { param: "status", in: "body", message: "Unknown field" },
    ]);
    const foreign = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, simulation_id: theirSimulation.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe("Simulation not found");
    expect(await db().proposal.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("hides proposals across tenants and environments (404) and pages without gaps", async () => {
    const t = await creditTenant();
    const other = await creditTenant();
    const live = await creditTenant("production");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newProposal(t)).proposal.id);
    const theirs = await call(getProposal, { path: `/v1/proposals/${ids[0]}`, headers: other.headers, params: { id: ids[0]! } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.detail).toBe("Proposal not found");
    const { key: liveKey } = await newKey(t.tenant.id, "production");
    const crossEnv = await call(getProposal, { base: live.base, path: `/v1/proposals/${ids[0]}`, headers: bearer(liveKey, t.tenant.id), params: { id: ids[0]! } });
    expect(crossEnv.status).toBe(404);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; next_cursor: string | null } } = await call(listProposals, { path: `/v1/proposals?limit=2${cursor ? `&cursor=${cursor}` : ""}`, headers: t.headers });
      seen.push(...page.body.data.map((p) => p.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });
});

describe("a stored simulation proposed later", () => {
  it("is held to today's product rules, and to its age: a cap lowered since, or a quote over 30 days old, is 400 and nothing is stored", async () => {
    const t = await creditTenant();
    const customer = await newCustomer(t);
    const margin_query_id = (await newMarginQuery(t, customer.id)).id;
    const simulation = (await call(createSimulationRoute, { path: "/v1/simulations", headers: t.headers, json: { product: "inss_payroll", requested_amount: 500000, term: 24, monthly_rate: "0.0185", customer_id: customer.id } })).body;
    const inss = PRODUCTS.inss_payroll as { maxMonthlyRate: string };
    const cap = inss.maxMonthlyRate;
    inss.maxMonthlyRate = "0.0180"; // the INSS cap lowered after the quote
    try {
      const res = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, simulation_id: simulation.id, margin_query_id } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "product_rule_violation", errors: [{ param: "simulation_id", in: "body", message: "Breaks the product's rules now (monthly_rate: Must be at most 0.0180 (monthly) for inss_payroll): simulate again" }] });
    } finally {
      inss.maxMonthlyRate = cap;
    }
    await db().simulation.update({ where: { id: simulation.id }, data: { createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) } });
    const stale = await call(createProposal, { path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, simulation_id: simulation.id, margin_query_id } });
    expect(stale.body.errors).toEqual([{ param: "simulation_id", in: "body", message: "Simulated more than 30 days ago: simulate again" }]);
    expect(await db().proposal.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });
});
