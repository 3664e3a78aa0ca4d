import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as eraseRoute, GET as getCustomerRoute, PATCH as updateCustomerRoute } from "@/app/v1/customers/[id]/route";
import { POST as createCustomerRoute } from "@/app/v1/customers/route";
import { POST as createRiskAssessmentRoute } from "@/app/v1/risk-assessments/route";
import { POST as createEndpointRoute } from "@/app/v1/webhook-endpoints/route";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { creditTenant, newMarginQuery, newProposal, newSimulation, uniqueCpf, type CreditTenant } from "../credit/flow-helpers";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { drainWebhooks } from "../helpers/webhook-drain";
import { startReceiver } from "../helpers/webhook-receiver";
import { backendPid, untilBlockedBy } from "../helpers/lock-waits";
import { attemptOrHandBack, claimDeliveries, dispatchEvents, recordSafely } from "@/lib/webhooks/worker";

// DELETE /v1/customers/{id} (lib/customers/erase-customer.ts): a customer no credit operation holds is erased — its
// rows, the data of its events and of the webhook attempts that carried them, the values in its audit rows, the stored
// answers holding it — and nothing of anyone else's; one a proposal holds is 409 and nothing changes.

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
  await drainWebhooks();
});
afterAll(() => receiver.close());

/** Erasing needs customers:erase, granted only by name (never by write or customers:write). */
const eraser = async (t: CreditTenant) => bearer((await newKey(t.tenant.id, "sandbox", ["customers:erase"])).key, t.tenant.id);
const erase = async (t: CreditTenant, id: string, headers?: Record<string, string>) =>
  call(eraseRoute, { base: t.base, path: `/v1/customers/${id}`, headers: headers ?? (await eraser(t)), params: { id } });

/** A customer with everything a lead leaves: an update, a simulation, a margin query, a risk assessment — made with
 *  request ids (their answers stored) and delivered to a webhook endpoint. */
async function lead(t: CreditTenant, document: string) {
  const made = await call(createCustomerRoute, {
    base: t.base,
    path: "/v1/customers",
    headers: { ...t.headers, "x-request-id": `create-${document}` },
    json: { document, name: "Maria da Silva", birth_date: "1960-05-10", monthly_income: 450_000, payroll: { type: "inss", benefit_number: "1234567890" } },
  });
  expect(made.status, made.text).toBe(201);
  const id = made.body.id as string;
  expect((await call(updateCustomerRoute, { base: t.base, path: `/v1/customers/${id}`, headers: t.headers, params: { id }, json: { email: `${document}@example.com` } })).status).toBe(200);
  const simulation = await newSimulation(t, id);
  const marginQuery = await newMarginQuery(t, id);
  const risk = await call(createRiskAssessmentRoute, { base: t.base, path: "/v1/risk-assessments", headers: t.headers, json: { customer_id: id, simulation_id: simulation.id, margin_query_id: marginQuery.id } });
  expect(risk.status, risk.text).toBe(201);
  return { id, objects: [id, simulation.id, marginQuery.id, risk.body.id as string] };
}

/** Every place the document could be kept, and how many rows hold it there. */
async function whereDocumentIs(tenantId: string, document: string) {
  const like = `%${document}%`;
  const [row] = await db().$queryRaw<Record<string, number>[]>`
    SELECT (SELECT count(*)::int FROM customers WHERE tenant_id = ${tenantId} AND document = ${document}) AS customers,
           (SELECT count(*)::int FROM outbox_events WHERE tenant_id = ${tenantId} AND payload::text LIKE ${like}) AS events,
           (SELECT count(*)::int FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
             WHERE d.tenant_id = ${tenantId} AND (a.request_body LIKE ${like} OR a.response_body LIKE ${like})) AS attempts,
           (SELECT count(*)::int FROM audit_logs WHERE tenant_id = ${tenantId} AND metadata::text LIKE ${like}) AS audit,
           (SELECT count(*)::int FROM idempotency_records WHERE tenant_id = ${tenantId} AND response_body LIKE ${like}) AS stored_answers,
           (SELECT count(*)::int FROM margin_queries WHERE tenant_id = ${tenantId} AND (source::text LIKE ${like} OR result::text LIKE ${like})) AS margin_queries`;
  return row!;
}

describe("erasing a customer (LGPD)", () => {
  it("erases a lead's rows, its events' data and their deliveries' bodies, its audit values and stored answers — and nothing of anyone else's", async () => {
    const t = await creditTenant();
    const endpoint = await call(createEndpointRoute, { base: t.base, path: "/v1/webhook-endpoints", headers: t.headers, json: { url: receiver.url(`/${t.tenant.id}`), event_types: ["*"] } });
    expect(endpoint.status).toBe(201);
    const [document, otherDocument] = [uniqueCpf(), uniqueCpf()];
    const person = await lead(t, document);
    await lead(t, otherDocument);
    await drainWebhooks();
    expect(await whereDocumentIs(t.tenant.id, document)).toEqual({ customers: 1, events: 2, attempts: 2, audit: 1, stored_answers: 1, margin_queries: 0 });
    const eventsBefore = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id }, orderBy: { id: "asc" } });
    const othersBefore = eventsBefore.filter((e) => !person.objects.includes((e.payload as { id?: string }).id ?? ""));

    const res = await erase(t, person.id);
    expect([res.status, res.body]).toEqual([200, { id: person.id, object: "customer", deleted: true }]);

    expect(await whereDocumentIs(t.tenant.id, document)).toEqual({ customers: 0, events: 0, attempts: 0, audit: 0, stored_answers: 0, margin_queries: 0 });
    expect(await db().customer.count({ where: { id: person.id } })).toBe(0);
    expect([await db().simulation.count({ where: { customerId: person.id } }), await db().marginQuery.count({ where: { customerId: person.id } }), await db().riskAssessment.count({ where: { customerId: person.id } })]).toEqual([0, 0, 0]);
    // Its events keep id, type and time; their data is the object's id and kind only.
    const eventsAfter = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, id: { in: eventsBefore.map((e) => e.id) } }, orderBy: { id: "asc" } });
    const erasedEvents = eventsBefore.filter((e) => person.objects.includes((e.payload as { id?: string }).id ?? ""));
    expect(erasedEvents.map((e) => e.type).sort()).toEqual(["customer.created", "customer.updated", "margin_query.completed", "risk_assessment.created", "simulation.created"]);
    expect(eventsAfter.filter((e) => erasedEvents.some((x) => x.id === e.id))).toEqual(
      erasedEvents.map((e) => ({ ...e, payload: { id: (e.payload as { id: string }).id, object: (e.payload as { object: string }).object, erased: true } })),
    );
    expect(eventsAfter.filter((e) => othersBefore.some((x) => x.id === e.id))).toEqual(othersBefore);
    const attempts = await db().webhookAttempt.findMany({ where: { delivery: { eventId: { in: erasedEvents.map((e) => e.id) } } } });
    expect(attempts.length).toBe(erasedEvents.length);
    expect(new Set(attempts.map((a) => JSON.stringify([a.requestBody, a.responseBody])))).toEqual(new Set([JSON.stringify(['{"erased":true}', null])]));
    // The other customer keeps everything, the document in its events and deliveries included.
    expect(await whereDocumentIs(t.tenant.id, otherDocument)).toEqual({ customers: 1, events: 2, attempts: 2, audit: 1, stored_answers: 1, margin_queries: 0 });
    // Audit: who did what and when stays, without the values; the erasure itself is audited with counts.
    const audit = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, targetId: { in: person.objects } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.metadata])).toEqual([
      ["customer.created", { erased: true }],
      ["customer.updated", { erased: true }],
      ...audit.filter((a) => a.action === "risk_assessment.created").map(() => ["risk_assessment.created", { erased: true }]),
      ["customer.deleted", { erased: { simulations: 1, risk_assessments: 1, margin_queries: 1, events: 5, webhook_attempts: 5, audit_rows: audit.length - 1, idempotency_records: 1, reservation_recoveries: 0 } }],
    ]);
    const deletedEvent = await db().outboxEvent.findFirstOrThrow({ where: { tenantId: t.tenant.id, type: "customer.deleted" } });
    expect(deletedEvent.payload).toEqual({ id: person.id, object: "customer", deleted: true });

    // The creation's request id replayed (an integration's retry queue): 404, not the person registered anew.
    const replay = await call(createCustomerRoute, {
      base: t.base,
      path: "/v1/customers",
      headers: { ...t.headers, "x-request-id": `create-${document}` },
      json: { document, name: "Maria da Silva", birth_date: "1960-05-10", monthly_income: 450_000, payroll: { type: "inss", benefit_number: "1234567890" } },
    });
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.body]).toEqual([
      404,
      "true",
      { type: "urn:credit-platform:problem:not_found", title: "The resource was not found", status: 404, code: "not_found", detail: `Customer ${person.id} was erased at its subject's request (LGPD): what this request made no longer exists` },
    ]);
    expect(await db().customer.count({ where: { tenantId: t.tenant.id, document } })).toBe(0);
    // Gone: 404 on read and on a second erasure; the document can be registered again, as a new customer.
    expect((await call(getCustomerRoute, { base: t.base, path: `/v1/customers/${person.id}`, headers: t.headers, params: { id: person.id } })).status).toBe(404);
    expect((await erase(t, person.id)).status).toBe(404);
    const again = await call(createCustomerRoute, { base: t.base, path: "/v1/customers", headers: t.headers, json: { document, name: "Maria da Silva" } });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(person.id);
  });

  it("refuses a customer a credit operation holds (409 naming it): nothing is erased", async () => {
    const t = await creditTenant();
    const { customer, proposal } = await newProposal(t);
    const before = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id }, orderBy: { id: "asc" } });
    const res = await erase(t, customer.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: "conflict",
      proposal_id: proposal.id,
      detail: `Customer ${customer.id} has proposal ${proposal.id}: the records of a credit operation are kept for the legal retention period (at least five years after the relationship ends) and cannot be erased`,
    });
    expect(await db().customer.count({ where: { id: customer.id } })).toBe(1);
    expect(await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("refuses while a reservation call to the authority is still being recovered (it may hold a reservation under the CPF); a settled one keeps no CPF", async () => {
    const t = await creditTenant();
    const document = uniqueCpf();
    const person = await lead(t, document);
    const request = { document, source: { kind: "inss", benefitNumber: "1234567890" }, kind: "loan", installmentAmount: 30_000 };
    const recovery = (id: string, status: string) => db().$executeRaw`
      INSERT INTO reservation_recoveries (id, tenant_id, environment, base_key, authority_key, request, status, next_attempt_at, updated_at)
      VALUES (${id}, ${t.tenant.id}, 'sandbox', ${id}, ${id}, ${JSON.stringify(request)}::jsonb, ${status}, now(), now())`;
    const [pending, settled] = [`rrc_${document}P`, `rrc_${document}S`];
    await recovery(pending, "pending");
    await recovery(settled, "released");
    const refused = await erase(t, person.id);
    expect([refused.status, refused.body.code, refused.body.reservation_recovery_id]).toEqual([409, "conflict", pending]);
    await db().reservationRecovery.update({ where: { id: pending }, data: { status: "refused" } });
    expect((await erase(t, person.id)).status).toBe(200);
    const kept = await db().reservationRecovery.findMany({ where: { id: { in: [pending, settled] } }, select: { request: true } });
    expect(kept.map((r) => r.request)).toEqual([{ kind: "loan", installmentAmount: 30_000 }, { kind: "loan", installmentAmount: 30_000 }]);
  });

  it("another tenant's or environment's customer is 404; write or customers:write without customers:erase 403; nothing is erased", async () => {
    const t = await creditTenant();
    const { id } = await lead(t, uniqueCpf());
    const other = await creditTenant();
    expect((await erase(other, id)).status).toBe(404);
    const live = { ...t, base: PRODUCTION, headers: bearer((await newKey(t.tenant.id, "production", ["customers:erase"])).key, t.tenant.id) };
    expect((await erase(live, id, live.headers)).status).toBe(404);
    for (const permissions of [["customers:read"], ["read", "write"], ["customers:write"]] as const) {
      const refused = await erase(t, id, bearer((await newKey(t.tenant.id, "sandbox", [...permissions])).key, t.tenant.id));
      expect([refused.status, refused.body.detail]).toEqual([403, "This operation requires the customers:erase permission"]);
    }
    expect(await db().customer.count({ where: { id } })).toBe(1);
  });

  it("an attempt in flight while the customer is erased is recorded without the body it sent nor the answer", async () => {
    const t = await creditTenant();
    await drainWebhooks();
    const endpoint = await call(createEndpointRoute, { base: t.base, path: "/v1/webhook-endpoints", headers: t.headers, json: { url: receiver.url(`/${t.tenant.id}`), event_types: ["customer.created"] } });
    expect(endpoint.status).toBe(201);
    const document = uniqueCpf();
    const made = await call(createCustomerRoute, { base: t.base, path: "/v1/customers", headers: t.headers, json: { document, name: "Maria da Silva", monthly_income: 450_000 } });
    expect(made.status).toBe(201);
    while ((await dispatchEvents()) > 0);
    // The worker has claimed the delivery (its body read) and sent it when the erasure commits; it records afterwards.
    const claimed = await claimDeliveries(100);
    expect(claimed.filter((c) => c.tenant_id === t.tenant.id).map((c) => c.event_type)).toEqual(["customer.created"]);
    const results = await Promise.all(claimed.map((c) => attemptOrHandBack(c, {}, new Date())));
    expect((await erase(t, made.body.id)).status).toBe(200);
    await recordSafely(results, new Date());
    const attempts = await db().webhookAttempt.findMany({ where: { delivery: { tenantId: t.tenant.id } } });
    expect(attempts.map((a) => [a.requestBody, a.responseBody])).toEqual([['{"erased":true}', null]]);
    expect(await whereDocumentIs(t.tenant.id, document)).toMatchObject({ events: 0, attempts: 0 });
  });

  it("waits for what is being made for the customer and erases it too; once erased, nothing more can be made for it", async () => {
    const t = await creditTenant();
    const person = await lead(t, uniqueCpf());
    // A simulation being made at this moment: its transaction holds the customer (FOR KEY SHARE) and has written it.
    const maker = new pg.Client({ connectionString: getEnv().DATABASE_URL });
    await maker.connect();
    try {
      await maker.query("BEGIN");
      await maker.query(`SELECT id FROM customers WHERE id = $1 FOR KEY SHARE`, [person.id]);
      await maker.query(`INSERT INTO simulations SELECT (jsonb_populate_record(s, jsonb_build_object('id', s.id || 'X'))).* FROM simulations s WHERE customer_id = $1`, [person.id]);
      const erasing = erase(t, person.id);
      await untilBlockedBy(await backendPid(maker), erasing, "the erasure");
      await maker.query("COMMIT");
      expect((await erasing).status).toBe(200);
    } finally {
      await maker.end();
    }
    expect(await db().simulation.count({ where: { customerId: person.id } })).toBe(0);
    // After it: a margin query, a simulation or a proposal for it finds no customer.
    await expect(newMarginQuery(t, person.id)).rejects.toThrow(/margin query: 404/);
    await expect(newSimulation(t, person.id)).rejects.toThrow(/simulation: 404 .*Customer not found/);
    expect(await db().marginQuery.count({ where: { customerId: person.id } })).toBe(0);
  });
});
