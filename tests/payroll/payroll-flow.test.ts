import { describe, expect, it } from "vitest";
import { POST as createMarginQuery, GET as listMarginQueries } from "@/app/v1/payroll/margin-queries/route";
import { GET as getMarginQuery } from "@/app/v1/payroll/margin-queries/[id]/route";
import { POST as createReservation, GET as listReservations } from "@/app/v1/payroll/margin-reservations/route";
import { GET as getReservation } from "@/app/v1/payroll/margin-reservations/[id]/route";
import { POST as cancelReservation } from "@/app/v1/payroll/margin-reservations/[id]/cancel/route";
import { POST as createEndorsement, GET as listEndorsements } from "@/app/v1/payroll/endorsements/route";
import { GET as getEndorsement } from "@/app/v1/payroll/endorsements/[id]/route";
import { POST as createProposal } from "@/app/v1/proposals/route";
import { POST as createSimulation } from "@/app/v1/simulations/route";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { POST as approve } from "@/app/v1/proposals/[id]/approve/route";
import { POST as sign } from "@/app/v1/proposals/[id]/sign/route";
import { POST as cancel } from "@/app/v1/proposals/[id]/cancel/route";
import { POST as reject } from "@/app/v1/proposals/[id]/reject/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { Prisma } from "@prisma/client";
import { db } from "@/lib/db/client";
import { expireProposals } from "@/lib/proposals/expire-proposals";
import { expireReservations } from "@/lib/payroll/reservations";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { problem } from "../helpers/problem";
import { creditTenant, newCustomer, newSimulation, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// The payroll-loan flow through /v1 against the sandbox simulator: margin query → proposal → submission
// (risk + reservation) → review → signature → endorsement → contract, every trigger value and every exit.

const DATES = { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" };

async function customerWithBenefit(t: CreditTenant, benefitNumber: string) {
  const customer = await newCustomer(t);
  await db().customer.update({ where: { id: customer.id }, data: { payroll: { type: "inss", benefit_number: benefitNumber } } });
  return customer;
}

const post = (t: CreditTenant, handler: Parameters<typeof call>[0], path: string, json?: unknown, params?: Record<string, string>) =>
  call(handler, { base: t.base, path, headers: t.headers, json, params });
const act = (t: CreditTenant, handler: Parameters<typeof call>[0], id: string, json?: unknown) => post(t, handler, `/v1/proposals/${id}/x`, json, { id });

async function proposalFor(t: CreditTenant, benefitNumber: string) {
  const customer = await customerWithBenefit(t, benefitNumber);
  const query = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id });
  expect(query.status).toBe(201);
  const simulation = await newSimulation(t, customer.id, DATES);
  const proposal = await post(t, createProposal, "/v1/proposals", { customer_id: customer.id, simulation_id: simulation.id, margin_query_id: query.body.id });
  expect(proposal.status, proposal.text).toBe(201);
  return { customer, query: query.body, simulation, proposal: proposal.body };
}

/** "previous→current" of a status_changed event's payload. */
const transitionOf = (payload: unknown) => {
  const p = payload as { previous_status: string; status: string };
  return `${p.previous_status}→${p.status}`;
};

async function reservationsOf(proposalId: string) {
  return db().marginReservation.findMany({ where: { proposalId }, orderBy: { createdAt: "asc" } });
}

describe("margin queries", () => {
  it("stores the authority's answer: margins per kind add up, the 1.4.0 fields are there, an event is written", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1234567890");
    const res = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id });
    expect(res.status).toBe(201);
    const q = res.body;
    expect(Object.keys(q)).toEqual([
      "id", "object", "customer_id", "source", "authority", "authority_query_id", "margin_base", "margins", "available_loan_margin",
      "source_type", "source_status", "blocks", "paying_institution", "existing_loans", "valid_until", "status", "environment", "created_at",
    ]);
    expect(q).toMatchObject({ object: "margin_query", customer_id: customer.id, source: { type: "inss", benefit_number: "1234567890" }, authority: "sandbox_simulator", source_status: "active", blocks: [], status: "valid", environment: "sandbox" });
    expect(q.margins.map((m: { kind: string; share: string }) => [m.kind, m.share])).toEqual([["loan", "0.35"], ["credit_card", "0.05"], ["benefit_card", "0.05"]]);
    for (const m of q.margins) {
      const percent = Number(m.share.slice(2)); // "0.35" → 35: integer arithmetic, as the authority's
      expect(m.total).toBe(Math.floor((q.margin_base * percent) / 100));
      expect(m.available).toBe(m.total - m.used - m.reserved);
    }
    const loan = q.margins[0];
    expect(loan.used).toBe(q.existing_loans.reduce((s: number, l: { installment_amount: number }) => s + l.installment_amount, 0));
    expect(q.available_loan_margin).toBe(loan.available);
    expect(q.paying_institution).toEqual({ code: "001", name: "Banco do Brasil S.A." });
    expect(Date.parse(q.valid_until) - Date.parse(q.created_at)).toBeGreaterThan(23 * 3600 * 1000);

    // Deterministic: the same CPF and benefit give the same margin.
    const again = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id });
    expect({ ...again.body, id: q.id, authority_query_id: q.authority_query_id, valid_until: q.valid_until, created_at: q.created_at }).toEqual(q);
    expect((await call(getMarginQuery, { base: t.base, path: `/v1/payroll/margin-queries/${q.id}`, headers: t.headers, params: { id: q.id } })).body).toEqual(q);
    const list = await call(listMarginQueries, { base: t.base, path: `/v1/payroll/margin-queries?customer_id=${customer.id}&limit=1`, headers: t.headers });
    expect(list.body).toMatchObject({ object: "list", has_more: true, data: [{ id: again.body.id }] });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "margin_query.completed" } });
    expect(events.map((e) => (e.payload as { id: string }).id).sort()).toEqual([q.id, again.body.id].sort());
  });

  it("queries a private-payroll link given as `source` (loan margin only)", async () => {
    const t = await creditTenant();
    const customer = await newCustomer(t);
    const res = await post(t, createMarginQuery, "/v1/payroll/margin-queries", {
      customer_id: customer.id,
      source: { type: "private", employer_cnpj: "11.222.333/0001-81", registration: "A-42" },
    });
    expect(res.status).toBe(201);
    expect(res.body.source).toEqual({ type: "private", employer_cnpj: "11222333000181", registration: "A-42" });
    expect(res.body.margins.map((m: { kind: string }) => m.kind)).toEqual(["loan"]);
    expect(res.body.source_type).toBe("clt");
    // The employer's CNPJ is checked as a customer's is: wrong check digits are 400, and nothing is asked or stored.
    const before = await db().marginQuery.count({ where: { customerId: customer.id } });
    const bad = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id, source: { type: "private", employer_cnpj: "11.222.333/0001-82", registration: "A-42" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { param: string }) => e.param)).toEqual(["source.employer_cnpj"]);
    expect(await db().marginQuery.count({ where: { customerId: customer.id } })).toBe(before);
  });

  it("triggers …0001–0003: low margin, blocked and ceased benefits are answered, and proposals on them refused with nothing stored", async () => {
    const t = await creditTenant();
    const cases = [
      ["1000000001", "insufficient_margin", 422, "The available payroll margin does not cover the installment"],
      ["1000000002", "payroll_source_unavailable", 422, "The benefit or employment link cannot take new deductions"],
      ["1000000003", "payroll_source_unavailable", 422, "The benefit or employment link cannot take new deductions"],
    ] as const;
    for (const [benefit, code, status, title] of cases) {
      const customer = await customerWithBenefit(t, benefit);
      const q = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
      if (benefit.endsWith("1")) {
        // The loans listed take what the loan margin shows as used: a statement an integrator can reconcile.
        const loan = q.margins[0];
        expect({ available: q.available_loan_margin, used: loan.used, loans: q.existing_loans.length }).toEqual({ available: 5000, used: loan.total - 5000, loans: 2 });
        expect(q.existing_loans.reduce((s: number, l: { installment_amount: number }) => s + l.installment_amount, 0)).toBe(loan.used);
      }
      if (benefit.endsWith("2")) expect(q.blocks).toEqual([{ code: "blocked_for_loans", description: "Benefit blocked for loans: the beneficiary must unblock it first" }]);
      if (benefit.endsWith("3")) expect({ status: q.source_status, available: q.available_loan_margin, loans: q.existing_loans }).toEqual({ status: "ceased", available: 0, loans: [] });
      const simulation = await newSimulation(t, customer.id, DATES);
      const before = await db().proposal.count({ where: { tenantId: t.tenant.id } });
      const res = await post(t, createProposal, "/v1/proposals", { customer_id: customer.id, simulation_id: simulation.id, margin_query_id: q.id });
      expect(res.status, benefit).toBe(status);
      expect(res.body).toMatchObject({ code, title });
      expect(await db().proposal.count({ where: { tenantId: t.tenant.id } })).toBe(before);
    }
  });

  it("triggers …0006 and …0007: authority timeout is 504 and unavailable 503 with Retry-After, retryable, nothing stored", async () => {
    const t = await creditTenant();
    const slow = await customerWithBenefit(t, "1000000006");
    const timeout = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: slow.id });
    expect(timeout.status).toBe(504);
    expect(timeout.body).toEqual(problem("authority_timeout", 504, "The payroll authority did not answer in time", "Sandbox: the payroll authority did not answer in time (trigger …0006)", { retryable: true }));
    const down = await customerWithBenefit(t, "1000000007");
    const unavailable = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: down.id });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("retry-after")).toBe("30");
    expect(unavailable.body).toEqual(problem("authority_unavailable", 503, "The payroll authority is unavailable", "Sandbox: the payroll authority is unavailable (trigger …0007)", { retryable: true }));
    expect(await db().marginQuery.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("trigger …0008: a margin query the authority refuses is 422 margin_query_refused with its refusal, nothing stored", async () => {
    const t = await creditTenant();
    const unauthorized = await customerWithBenefit(t, "1000000008");
    const before = await db().outboxEvent.count({ where: { tenantId: t.tenant.id } });
    const refused = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: unauthorized.id });
    expect(refused.body).toEqual(
      problem(
        "margin_query_refused",
        422,
        "The payroll authority refused the margin query",
        "The payroll authority refused the margin query: The beneficiary has not authorized this institution to query the benefit (Meu INSS)",
        { refusal: { code: "authorization_missing", message: "The beneficiary has not authorized this institution to query the benefit (Meu INSS)" } },
      ),
    );
    expect(await db().marginQuery.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id } })).toBe(before);
  });

  it("needs a payroll link (or source), a person, and a margin query on payroll proposals", async () => {
    const t = await creditTenant();
    const customer = await newCustomer(t);
    await db().customer.update({ where: { id: customer.id }, data: { payroll: Prisma.DbNull } });
    const res = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id });
    expect(res.body).toMatchObject({ status: 400, code: "payroll_link_required" });
    const linked = await customerWithBenefit(t, "1234567890");
    const simulation = await newSimulation(t, linked.id, DATES);
    const without = await post(t, createProposal, "/v1/proposals", { customer_id: linked.id, simulation_id: simulation.id });
    expect(without.body).toEqual(
      problem("margin_query_required", 400, "Payroll products need a margin query of the customer", "A payroll proposal needs `margin_query_id`: query the customer's margin first (POST /v1/payroll/margin-queries)"),
    );
  });

  it("an expired margin query backs nothing (422 margin_query_expired)", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1234567890");
    const q = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    await db().marginQuery.update({ where: { id: q.id }, data: { validUntil: new Date(Date.now() - 1000) } });
    const res = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.id, installment_amount: 10000, term: 12 });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("margin_query_expired");
    expect((await call(getMarginQuery, { base: t.base, path: `/v1/payroll/margin-queries/${q.id}`, headers: t.headers, params: { id: q.id } })).body.status).toBe("expired");
  });
});

describe("a draft outliving its margin query", () => {
  it("is submitted with a newer margin query of the customer (the reservation is made against it); not with another customer's or on a personal loan", async () => {
    const t = await creditTenant();
    const { customer, query, proposal } = await proposalFor(t, "1234567890");
    await db().marginQuery.update({ where: { id: query.id }, data: { validUntil: new Date(Date.now() - 1000) } });
    const stale = await act(t, submit, proposal.id);
    expect(stale.body).toMatchObject({ status: 422, code: "margin_query_expired" });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("draft");

    const stranger = await customerWithBenefit(t, "1234567891");
    const theirs = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: stranger.id })).body;
    expect((await act(t, submit, proposal.id, { margin_query_id: theirs.id })).body).toMatchObject({ status: 400, errors: [{ param: "margin_query_id", message: "The margin query belongs to another customer" }] });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).marginQueryId).toBe(query.id);

    // The customer's, but of another benefit (the averbação would land on it), or no newer than the proposal's: refused.
    const otherBenefit = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    await db().marginQuery.update({ where: { id: otherBenefit.id }, data: { source: { kind: "inss", benefitNumber: "9876543210" } } });
    expect((await act(t, submit, proposal.id, { margin_query_id: otherBenefit.id })).body).toMatchObject({ status: 400, errors: [{ param: "margin_query_id", message: "The margin query is of another benefit or employment link than the proposal's" }] });
    const older = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    const proposalsQuery = await db().marginQuery.findUniqueOrThrow({ where: { id: query.id } });
    await db().marginQuery.update({ where: { id: older.id }, data: { createdAt: new Date(proposalsQuery.createdAt.getTime() - 1000) } });
    expect((await act(t, submit, proposal.id, { margin_query_id: older.id })).body).toMatchObject({ status: 400, errors: [{ param: "margin_query_id", message: "The margin query is not newer than the proposal's" }] });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).marginQueryId).toBe(query.id);

    const fresh = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    const submitted = await act(t, submit, proposal.id, { margin_query_id: fresh.id });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body).toMatchObject({ id: proposal.id, margin_query_id: fresh.id, status: expect.stringMatching(/^(approved|pending_review)$/) });
    expect((await reservationsOf(proposal.id)).map((r) => [r.marginQueryId, r.status])).toEqual([[fresh.id, "reserved"]]);
    // The submission's event names the margin query it reserved against.
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "proposal.status_changed" }, orderBy: { createdAt: "asc" } });
    const submittedEvent = events.map((e) => e.payload as { id: string; previous_status: string; margin_query_id: string }).find((p) => p.id === proposal.id && p.previous_status === "draft");
    expect(submittedEvent?.margin_query_id).toBe(fresh.id);

    const personal = (await post(t, createSimulation, "/v1/simulations", { product: "personal_loan", requested_amount: 100000, term: 6, monthly_rate: "0.0250", customer_id: stranger.id })).body;
    const loan = (await post(t, createProposal, "/v1/proposals", { customer_id: stranger.id, simulation_id: personal.id })).body;
    expect((await act(t, submit, loan.id, { margin_query_id: theirs.id })).body).toMatchObject({ status: 400, errors: [{ param: "margin_query_id", message: "Only for inss_payroll and private_payroll" }] });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: loan.id } })).status).toBe("draft");
  });
});

describe("margin reservations", () => {
  it("two credentials of a tenant sending the same X-Request-Id make two reservations, each its own at the authority", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1234567890");
    const q = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    const other = bearer((await newKey(t.tenant.id, "sandbox", ["read", "write"])).key, t.tenant.id);
    const reserve = (headers: Record<string, string>) =>
      call(createReservation, { base: t.base, path: "/v1/payroll/margin-reservations", headers: { ...headers, "x-request-id": "same-tracing-id" }, json: { margin_query_id: q.id, installment_amount: 10000, term: 12 } });
    const first = await reserve(t.headers);
    const second = await reserve(other);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.authority_reservation_id).not.toBe(first.body.authority_reservation_id);
  });

  it("a payroll proposal needs a margin query on the source its product deducts from (an INSS benefit for inss_payroll)", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1234567890");
    const query = await post(t, createMarginQuery, "/v1/payroll/margin-queries", {
      customer_id: customer.id,
      source: { type: "private", employer_cnpj: "11222333000181", registration: "778899" },
    });
    expect(query.status).toBe(201);
    const simulation = await newSimulation(t, customer.id, DATES);
    const before = await db().proposal.count({ where: { tenantId: t.tenant.id } });
    const proposal = await post(t, createProposal, "/v1/proposals", { customer_id: customer.id, simulation_id: simulation.id, margin_query_id: query.body.id });
    expect(proposal.status).toBe(400);
    expect(proposal.body).toMatchObject({
      code: "validation_error",
      errors: [{ param: "margin_query_id", in: "body", message: "The product deducts from an INSS benefit: query the margin of one" }],
    });
    expect(await db().proposal.count({ where: { tenantId: t.tenant.id } })).toBe(before);
  });

  it("reserve → counted against the query → a second one beyond the margin is 422 → cancel releases → cancel again is 409", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1234567890");
    const q = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    const amount = Math.floor(q.available_loan_margin / 2) + 1;
    const res = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.id, installment_amount: amount, term: 24 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^mgr_/),
      object: "margin_reservation",
      status: "reserved",
      customer_id: customer.id,
      margin_query_id: q.id,
      proposal_id: null,
      kind: "loan",
      installment_amount: amount,
      term: 24,
      authority_reservation_id: expect.stringMatching(/^SIMR-OK-/),
      refusal: null,
      expires_at: expect.any(String),
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const after = (await call(getMarginQuery, { base: t.base, path: `/v1/payroll/margin-queries/${q.id}`, headers: t.headers, params: { id: q.id } })).body;
    expect(after.available_loan_margin).toBe(q.available_loan_margin - amount);
    expect(after.margins[0].reserved).toBe(amount);

    const second = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.id, installment_amount: amount, term: 24 });
    expect(second.status).toBe(422);
    expect(second.body).toMatchObject({ code: "insufficient_margin", available_loan_margin: q.available_loan_margin - amount, installment_amount: amount });

    // A second query of the same benefit cannot spend it again: the simulator keeps no state, so what this platform
    // holds on the source is taken off every query's answer.
    const q2 = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    expect([q2.available_loan_margin, q2.margins[0].reserved]).toEqual([q.available_loan_margin - amount, amount]);
    const viaQ2 = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q2.id, installment_amount: amount, term: 24 });
    expect(viaQ2.body).toMatchObject({ code: "insufficient_margin", available_loan_margin: q.available_loan_margin - amount });
    // A real authority counts the reservations made before its answer in `reserved`: those are not taken off twice.
    await db().marginQuery.update({ where: { id: q2.id }, data: { authority: "http" } });
    const q2Http = (await call(getMarginQuery, { base: t.base, path: `/v1/payroll/margin-queries/${q2.id}`, headers: t.headers, params: { id: q2.id } })).body;
    expect(q2Http.available_loan_margin).toBe(q.available_loan_margin);
    await db().marginQuery.update({ where: { id: q2.id }, data: { authority: "sandbox_simulator" } });

    const released = await post(t, cancelReservation, `/v1/payroll/margin-reservations/${res.body.id}/cancel`, undefined, { id: res.body.id });
    expect(released.status).toBe(200);
    expect(released.body.status).toBe("released");
    const again = await post(t, cancelReservation, `/v1/payroll/margin-reservations/${res.body.id}/cancel`, undefined, { id: res.body.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "invalid_transition", current_status: "released", allowed_actions: [] });
    const changes = (await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { startsWith: "margin_reservation." } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => [e.type, transitionOf(e.payload)]);
    expect(changes).toEqual([
      ["margin_reservation.status_changed", "requested→reserved"],
      ["margin_reservation.status_changed", "reserved→released"],
    ]);
    const list = await call(listReservations, { base: t.base, path: `/v1/payroll/margin-reservations?status=released`, headers: t.headers });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([res.body.id]);
  });

  it("a card reservation is held against its own margin (credit card 5%), not the loan margin", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1234567891");
    const q = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    const card = q.margins.find((m: { kind: string }) => m.kind === "credit_card");
    expect(card.available).toBeLessThan(q.available_loan_margin);
    // Above the card margin but within the loan margin: refused.
    const tooMuch = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.id, installment_amount: card.available + 1, term: 24, kind: "credit_card" });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({ code: "insufficient_margin", kind: "credit_card", available_margin: card.available, installment_amount: card.available + 1 });
    const ok = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.id, installment_amount: card.available, term: 24, kind: "credit_card" });
    expect(ok.status).toBe(201);
    // Held against the card margin only: the loan margin is untouched.
    const after = (await call(getMarginQuery, { base: t.base, path: `/v1/payroll/margin-queries/${q.id}`, headers: t.headers, params: { id: q.id } })).body;
    expect(after.available_loan_margin).toBe(q.available_loan_margin);
    expect(after.margins.find((m: { kind: string }) => m.kind === "credit_card")).toMatchObject({ reserved: card.reserved + card.available, available: 0 });
    const second = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.id, installment_amount: 100, term: 24, kind: "credit_card" });
    expect(second.status).toBe(422);
  });

  it("the expiry job expires reservations past expires_at, with an event", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1234567890");
    const q = (await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id })).body;
    const r = (await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.id, installment_amount: 1000, term: 12 })).body;
    await db().marginReservation.update({ where: { id: r.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await expireReservations()).expired).toBeGreaterThanOrEqual(1);
    expect((await call(getReservation, { base: t.base, path: `/v1/payroll/margin-reservations/${r.id}`, headers: t.headers, params: { id: r.id } })).body.status).toBe("expired");
    const expired = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "margin_reservation.status_changed" } });
    expect(expired.map((e) => transitionOf(e.payload)).filter((x) => x.endsWith("→expired"))).toEqual(["reserved→expired"]);
  });
});

describe("the payroll proposal flow", () => {
  it("happy path: submit reserves, staff approve, sign, contract refused before endorsement, endorse consumes, contract under the endorsed number", async () => {
    const t = await creditTenant();
    const { proposal, query } = await proposalFor(t, "1234567890");
    expect(proposal.margin_query_id).toBe(query.id);
    const submitted = await act(t, submit, proposal.id);
    expect(submitted.body).toMatchObject({ status: "pending_review", risk_assessment_id: expect.stringMatching(/^rsk_/) });
    const [reservation] = await reservationsOf(proposal.id);
    // The paying source deducts one fixed amount: the largest installment is reserved (Price's last absorbs rounding).
    const stored = (await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).terms as { schedule: { payment: number }[] };
    const largest = Math.max(...stored.schedule.map((r) => r.payment));
    expect(proposal.terms.max_installment_amount).toBe(largest);
    expect(largest).toBeGreaterThanOrEqual(proposal.terms.installment_amount);
    expect(reservation).toMatchObject({ status: "reserved", marginQueryId: query.id, installmentAmount: BigInt(largest) });
    expect((await act(t, approve, proposal.id)).body.status).toBe("approved");
    expect((await act(t, sign, proposal.id)).body.status).toBe("signed");

    const early = await post(t, issueContract, "/v1/contracts", { proposal_id: proposal.id });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("endorsement_required");

    const endorsement = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: proposal.id });
    expect(endorsement.status).toBe(201);
    expect(endorsement.body).toEqual({
      id: expect.stringMatching(/^end_/),
      object: "endorsement",
      status: "endorsed",
      proposal_id: proposal.id,
      reservation_id: reservation!.id,
      contract_number: "CCB-2026-000001",
      authority_endorsement_id: expect.stringMatching(/^SIME-/),
      refusal: null,
      endorsed_at: expect.any(String),
      termination: null,
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await reservationsOf(proposal.id))[0]!.status).toBe("consumed");
    const twice = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: proposal.id });
    expect(twice.status).toBe(409);

    const contract = await post(t, issueContract, "/v1/contracts", { proposal_id: proposal.id });
    expect(contract.status).toBe(201);
    expect(contract.body.number).toBe("CCB-2026-000001");
    const events = (await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).filter((e) => /^(margin_reservation|endorsement|contract)\./.test(e.type));
    expect(events.map((e) => [e.type, e.type.endsWith(".status_changed") ? transitionOf(e.payload) : null])).toEqual([
      ["margin_reservation.status_changed", "requested→reserved"],
      ["margin_reservation.status_changed", "reserved→consumed"],
      ["endorsement.status_changed", "submitted→endorsed"],
      ["contract.issued", null],
    ]);
    expect((await call(getEndorsement, { base: t.base, path: `/v1/payroll/endorsements/${endorsement.body.id}`, headers: t.headers, params: { id: endorsement.body.id } })).body).toEqual(endorsement.body);
    const stranger = await creditTenant();
    expect((await call(getEndorsement, { base: stranger.base, path: `/v1/payroll/endorsements/${endorsement.body.id}`, headers: stranger.headers, params: { id: endorsement.body.id } })).status).toBe(404);
  });

  it("cancel, reject and expiry each release the proposal's reservation", async () => {
    const t = await creditTenant();
    const exits: [string, (id: string) => Promise<unknown>][] = [
      ["cancel", (id) => act(t, cancel, id, { reason: "Customer gave up" })],
      ["reject", (id) => act(t, reject, id, { reason: "Documents do not match" })],
      ["expire", async (id) => {
        await db().proposal.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
        await expireProposals();
      }],
    ];
    for (const [name, exit] of exits) {
      const { proposal } = await proposalFor(t, "1234567890");
      await act(t, submit, proposal.id);
      expect((await reservationsOf(proposal.id)).map((r) => r.status), name).toEqual(["reserved"]);
      await exit(proposal.id);
      expect((await reservationsOf(proposal.id)).map((r) => r.status), name).toEqual(["released"]);
    }
    const changes = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "margin_reservation.status_changed" } });
    expect(changes.filter((e) => transitionOf(e.payload) === "reserved→released")).toHaveLength(3);
  });

  it("the expiry job goes past a proposal whose reservation the authority cannot release now, and expires the rest", async () => {
    const t = await creditTenant();
    const { proposal: stuck } = await proposalFor(t, "1234567890");
    await act(t, submit, stuck.id);
    // The simulator answers 503 for a reservation made under trigger …0007.
    await db().marginReservation.updateMany({ where: { proposalId: stuck.id }, data: { authorityReservationId: "SIMR-0007-AAAAAAAAAAAAAAAA" } });
    const { proposal: other } = await proposalFor(t, "1234567891");
    await db().proposal.update({ where: { id: stuck.id }, data: { expiresAt: new Date(Date.now() - 2000) } }); // first in the job's order
    await db().proposal.update({ where: { id: other.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const status = async (id: string) => (await db().proposal.findUniqueOrThrow({ where: { id } })).status;
    const before = await status(stuck.id);
    const result = await expireProposals();
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect([await status(stuck.id), await status(other.id)]).toEqual([before, "expired"]);
    expect((await reservationsOf(stuck.id)).map((r) => r.status)).toEqual(["reserved"]);
    // Once the authority answers again, the next run closes it.
    await db().marginReservation.updateMany({ where: { proposalId: stuck.id }, data: { authorityReservationId: "SIMR-OK-AAAAAAAAAAAAAAAA" } });
    await expireProposals();
    expect(await status(stuck.id)).toBe("expired");
    expect((await reservationsOf(stuck.id)).map((r) => r.status)).toEqual(["released"]);
  });

  it("trigger …0005: the endorsement is refused, the proposal rejected with the reason, the reservation released", async () => {
    const t = await creditTenant();
    const { proposal } = await proposalFor(t, "1000000005");
    for (const handler of [submit, approve, sign]) expect((await act(t, handler, proposal.id)).status).toBe(200);
    const res = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: proposal.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "refused", refusal: { code: "beneficiary_consent_refused", message: "The beneficiary did not confirm the loan" }, authority_endorsement_id: null });
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect({ status: row.status, reason: row.reason }).toEqual({ status: "rejected", reason: "Endorsement refused by the payroll authority: beneficiary_consent_refused" });
    expect((await reservationsOf(proposal.id)).map((r) => r.status)).toEqual(["released"]);
    expect((await post(t, issueContract, "/v1/contracts", { proposal_id: proposal.id })).status).toBe(409);
  });

  it("a proposal's lapsed reservation: approve and sign refused (409) whether or not the job ran; a signed one's averbação refused either way", async () => {
    const t = await creditTenant();
    const lapse = async (proposalId: string, runJob: boolean) => {
      await db().marginReservation.updateMany({ where: { proposalId }, data: { expiresAt: new Date(Date.now() - 1000) } });
      if (runJob) await expireReservations();
    };
    for (const runJob of [false, true]) {
      const { proposal } = await proposalFor(t, "1234567890");
      expect((await act(t, submit, proposal.id)).body.status).toBe("pending_review");
      await lapse(proposal.id, runJob);
      const approved = await act(t, approve, proposal.id);
      expect(approved.status).toBe(409);
      expect(approved.body).toMatchObject({ code: "conflict", action: "approve", detail: expect.stringContaining("margin reservation is no longer held") });
      expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("pending_review");

      const { proposal: signed } = await proposalFor(t, "1234567890");
      for (const handler of [submit, approve, sign]) expect((await act(t, handler, signed.id)).status).toBe(200);
      await lapse(signed.id, runJob);
      const res = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: signed.id });
      expect(res.body, `job ran: ${runJob}`).toMatchObject({ status: "refused", refusal: { code: "reservation_expired" } });
      expect((await reservationsOf(signed.id)).map((r) => r.status)).toEqual(["expired"]);
      expect((await db().proposal.findUniqueOrThrow({ where: { id: signed.id } })).status).toBe("rejected");
    }
  });

  it("a proposal's reservation is not canceled on its own (409): it goes with its proposal", async () => {
    const t = await creditTenant();
    const { proposal } = await proposalFor(t, "1234567890");
    await act(t, submit, proposal.id);
    const [held] = await reservationsOf(proposal.id);
    const res = await post(t, cancelReservation, `/v1/payroll/margin-reservations/${held!.id}/cancel`, undefined, { id: held!.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "conflict", proposal_id: proposal.id, detail: `The reservation belongs to proposal ${proposal.id}: cancel the proposal instead` });
    expect((await reservationsOf(proposal.id)).map((r) => r.status)).toEqual(["reserved"]);
  });

  it("trigger …0004: the reservation expires before the endorsement, which is refused with reservation_expired", async () => {
    const t = await creditTenant();
    const { proposal } = await proposalFor(t, "1000000004");
    for (const handler of [submit, approve, sign]) expect((await act(t, handler, proposal.id)).status).toBe(200);
    const res = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: proposal.id });
    expect(res.body).toMatchObject({ status: "refused", refusal: { code: "reservation_expired" } });
    expect((await reservationsOf(proposal.id)).map((r) => r.status)).toEqual(["expired"]);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("rejected");
  });

  it("trigger …0009: the query answers normally, the reservation is refused (margin_unavailable): 201 refused; a proposal's submission is rejected", async () => {
    const t = await creditTenant();
    const customer = await customerWithBenefit(t, "1000000009");
    const q = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id });
    expect(q.body).toMatchObject({ source_status: "active", blocks: [] });
    expect(q.body.available_loan_margin).toBeGreaterThan(10000);
    const res = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: q.body.id, installment_amount: 10000, term: 12 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "refused", authority_reservation_id: null, refusal: { code: "margin_unavailable", message: "The margin was reserved by another institution after the query" } });

    const { proposal } = await proposalFor(t, "2000000009");
    const submitted = await act(t, submit, proposal.id);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: "rejected", reason: "Margin reservation refused by the payroll authority: margin_unavailable" });
    expect((await reservationsOf(proposal.id)).map((r) => r.status)).toEqual(["refused"]);
  });

  it("trigger …0010: the reservation times out (504): nothing stored, the proposal stays a draft", async () => {
    const t = await creditTenant();
    const { proposal, query } = await proposalFor(t, "1000000010");
    const direct = await post(t, createReservation, "/v1/payroll/margin-reservations", { margin_query_id: query.id, installment_amount: 10000, term: 12 });
    expect(direct.status).toBe(504);
    expect(direct.body).toEqual(problem("authority_timeout", 504, "The payroll authority did not answer in time", "Sandbox: the payroll authority did not answer in time (trigger …0010)", { retryable: true }));
    const submitted = await act(t, submit, proposal.id);
    expect(submitted.status).toBe(504);
    expect(submitted.body).toMatchObject({ code: "authority_timeout", retryable: true });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("draft");
    expect(await db().marginReservation.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("triggers …0011 and …0012: the averbação times out (504) or finds the authority unavailable (503): the proposal stays signed, its reservation held; canceling releases it", async () => {
    const t = await creditTenant();
    for (const [benefit, status, code] of [["1000000011", 504, "authority_timeout"], ["1000000012", 503, "authority_unavailable"]] as const) {
      const { proposal } = await proposalFor(t, benefit);
      for (const handler of [submit, approve, sign]) expect((await act(t, handler, proposal.id)).status, benefit).toBe(200);
      const res = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: proposal.id });
      expect(res.status, benefit).toBe(status);
      expect(res.body).toMatchObject({ code, retryable: true, detail: expect.stringContaining(`(trigger …${benefit.slice(-4)})`) });
      if (status === 503) expect(res.headers.get("retry-after")).toBe("30");
      expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("signed");
      expect(await db().endorsement.count({ where: { proposalId: proposal.id } })).toBe(0);
      expect((await reservationsOf(proposal.id)).map((r) => r.status)).toEqual(["reserved"]);
      expect((await act(t, cancel, proposal.id, { reason: "averbação unavailable" })).body.status).toBe("canceled");
      expect((await reservationsOf(proposal.id)).map((r) => r.status)).toEqual(["released"]);
    }
  });

  it("an authority outage during submission changes nothing (503), and a retry after it succeeds", async () => {
    const t = await creditTenant();
    const { proposal, customer } = await proposalFor(t, "1234567890");
    // The benefit now answers "unavailable": the submission's reservation call fails.
    await db().marginQuery.updateMany({ where: { customerId: customer.id }, data: { source: { type: "inss", benefit_number: "1000000007" } } });
    const res = await act(t, submit, proposal.id);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: "authority_unavailable", retryable: true });
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    expect({ status: row.status, risk: row.riskAssessmentId }).toEqual({ status: "draft", risk: null });
    expect(await db().riskAssessment.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect(await reservationsOf(proposal.id)).toEqual([]);
    await db().marginQuery.updateMany({ where: { customerId: customer.id }, data: { source: { type: "inss", benefit_number: "1234567890" } } });
    expect((await act(t, submit, proposal.id)).body.status).toBe("pending_review");
  });

  it("an endorsement retried after a timeout asks for the averbação under the same CCB number, taken once", async () => {
    const t = await creditTenant();
    const { proposal } = await proposalFor(t, "1234567890");
    for (const handler of [submit, approve, sign]) expect((await act(t, handler, proposal.id)).status).toBe(200);
    // The simulator times out (504) on the averbação of a reservation made under trigger …0011.
    const [held] = await reservationsOf(proposal.id);
    await db().marginReservation.update({ where: { id: held!.id }, data: { authorityReservationId: "SIMR-0011-AAAAAAAAAAAAAAAA" } });
    const timedOut = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: proposal.id });
    expect(timedOut.status).toBe(504);
    const taken = (await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).contractNumber;
    expect(taken).toMatch(/^CCB-2026-\d{6}$/);
    expect(await db().endorsement.count({ where: { proposalId: proposal.id } })).toBe(0);
    // Meanwhile another contract of the tenant gets the next number, not this one.
    const other = await signedProposal(t, DATES);
    const issued = await post(t, issueContract, "/v1/contracts", { proposal_id: other.proposal.id });
    expect(issued.status).toBe(201);
    expect(issued.body.number).not.toBe(taken);
    await db().marginReservation.update({ where: { id: held!.id }, data: { authorityReservationId: held!.authorityReservationId } });
    const endorsed = await post(t, createEndorsement, "/v1/payroll/endorsements", { proposal_id: proposal.id });
    expect(endorsed.body).toMatchObject({ status: "endorsed", contract_number: taken });
    const contract = await post(t, issueContract, "/v1/contracts", { proposal_id: proposal.id });
    expect(contract.body.number).toBe(taken);
  });
});

describe("production without a configured authority", () => {
  it("answers 503 authority_unavailable and stores nothing: production never gets simulated answers", async () => {
    const t = await creditTenant("production");
    const customer = await newCustomer(t);
    const res = await post(t, createMarginQuery, "/v1/payroll/margin-queries", { customer_id: customer.id });
    expect(res.body).toEqual(
      problem("authority_unavailable", 503, "The payroll authority is unavailable", "The payroll authority is not configured for production (PAYROLL_AUTHORITY_URL)", { retryable: true }),
    );
    expect(await db().marginQuery.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });
});

describe("isolation and permissions", () => {
  it("another tenant's or environment's margin query, reservation and endorsement are 404; payroll:write is needed to write", async () => {
    const t = await creditTenant();
    const { proposal, query } = await proposalFor(t, "1234567890");
    await act(t, submit, proposal.id);
    const [reservation] = await reservationsOf(proposal.id);
    const other = await creditTenant();
    const production = await newKey(t.tenant.id, "production", ["read", "write"]);
    const strangers = [
      { base: other.base, headers: other.headers },
      { base: PRODUCTION, headers: bearer(production.key, t.tenant.id) },
    ];
    for (const who of strangers) {
      expect((await call(getMarginQuery, { ...who, path: `/v1/payroll/margin-queries/${query.id}`, params: { id: query.id } })).status).toBe(404);
      expect((await call(getReservation, { ...who, path: `/v1/payroll/margin-reservations/${reservation!.id}`, params: { id: reservation!.id } })).status).toBe(404);
      expect((await call(cancelReservation, { ...who, path: `/v1/payroll/margin-reservations/${reservation!.id}/cancel`, params: { id: reservation!.id } })).status).toBe(404);
      expect((await call(createReservation, { ...who, path: "/v1/payroll/margin-reservations", json: { margin_query_id: query.id, installment_amount: 100, term: 12 } })).status).toBe(404);
      expect((await call(createEndorsement, { ...who, path: "/v1/payroll/endorsements", json: { proposal_id: proposal.id } })).status).toBe(404);
    }
    // The lists: another tenant's or environment's caller sees none of this tenant's objects.
    for (const who of strangers) {
      for (const [handler, path] of [
        [listMarginQueries, "/v1/payroll/margin-queries"],
        [listReservations, "/v1/payroll/margin-reservations"],
        [listEndorsements, "/v1/payroll/endorsements"],
      ] as const) {
        const res = await call(handler, { ...who, path: `${path}?limit=100` });
        expect(res.status, path).toBe(200);
        const mine = res.body.data.filter((o: { customer_id?: string; proposal_id?: string }) => o.customer_id === query.customer_id || o.proposal_id === proposal.id);
        expect(mine, path).toEqual([]);
      }
    }
    const readOnly = await newKey(t.tenant.id, "sandbox", ["payroll:read"]);
    const denied = await call(createReservation, { base: t.base, path: "/v1/payroll/margin-reservations", headers: bearer(readOnly.key, t.tenant.id), json: { margin_query_id: query.id, installment_amount: 100, term: 12 } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("insufficient_permissions");
    // A margin query carries the customer's benefit number and margin base: read (and asked) with customers:read too.
    const get = (key: string) => call(getMarginQuery, { base: t.base, path: `/v1/payroll/margin-queries/${query.id}`, headers: bearer(key, t.tenant.id), params: { id: query.id } });
    const withoutCustomers = await get(readOnly.key);
    expect(withoutCustomers.status).toBe(403);
    expect(withoutCustomers.body).toMatchObject({ code: "insufficient_permissions", detail: "This operation requires the payroll:read and customers:read permissions (its answer carries what customers:read reads)" });
    expect((await get((await newKey(t.tenant.id, "sandbox", ["payroll:read", "customers:read"])).key)).status).toBe(200);
    const writer = bearer((await newKey(t.tenant.id, "sandbox", ["payroll:write"])).key, t.tenant.id);
    const asked = await call(createMarginQuery, { base: t.base, path: "/v1/payroll/margin-queries", headers: writer, json: { customer_id: query.customer_id } });
    expect(asked.status).toBe(403);
    expect(await db().marginQuery.count({ where: { customerId: query.customer_id } })).toBe(1);
    expect((await call(listMarginQueries, { base: t.base, path: "/v1/payroll/margin-queries", headers: bearer(readOnly.key, t.tenant.id) })).status).toBe(403);
    expect((await db().marginReservation.findUniqueOrThrow({ where: { id: reservation!.id } })).status).toBe("reserved");
  });
});
