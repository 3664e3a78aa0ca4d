import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { POST as createRoute, GET as listRoute } from "@/app/v1/webhook-endpoints/route";
import { GET as getRoute, PATCH as patchRoute, DELETE as deleteRoute } from "@/app/v1/webhook-endpoints/[id]/route";
import { POST as rotateRoute } from "@/app/v1/webhook-endpoints/[id]/rotate-secret/route";
import { POST as testRoute } from "@/app/v1/webhook-endpoints/[id]/test/route";
import { POST as resendRoute } from "@/app/v1/webhook-deliveries/[id]/resend/route";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { GET as getEventRoute } from "@/app/v1/events/[id]/route";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { signingSecrets } from "@/lib/webhooks/endpoints";
import { purgeDeletedEndpoints } from "@/lib/webhooks/retention";
import { MAX_ENDPOINTS_PER_ENVIRONMENT } from "@/lib/webhooks/schemas";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION, SANDBOX } from "../helpers/http";

// `read`: events carry every module's objects, and a credential reads (or subscribes to) only what it may read.
async function webhookTenant(permissions: Parameters<typeof newKey>[2] = ["read", "webhooks:write"]) {
  const { tenant } = await newTenant();
  const { key } = await newKey(tenant.id, "sandbox", permissions);
  return { tenant, headers: bearer(key, tenant.id) };
}
type T = Awaited<ReturnType<typeof webhookTenant>>;

const create = (t: T, json: unknown, base = SANDBOX, headers = t.headers) => call(createRoute, { base, path: "/v1/webhook-endpoints", headers, json });
const one = (handler: Parameters<typeof call>[0], t: T, id: string, extra: { json?: unknown; base?: string; headers?: Record<string, string>; suffix?: string } = {}) =>
  call(handler, { base: extra.base ?? SANDBOX, path: `/v1/webhook-endpoints/${id}${extra.suffix ?? ""}`, headers: extra.headers ?? t.headers, params: { id }, json: extra.json });

describe("webhook endpoints", () => {
  it("registers an endpoint, returns its secret once and stores it sealed", async () => {
    const t = await webhookTenant();
    const res = await create(t, { url: "http://localhost:4999/hook", event_types: ["charge.paid", "contract.issued"], description: "ledger" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^whe_[0-9A-Z]{26}$/),
      object: "webhook_endpoint",
      url: "http://localhost:4999/hook",
      description: "ledger",
      event_types: ["charge.paid", "contract.issued"],
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      previous_secret_expires_at: null,
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.secretCiphertext).not.toContain(res.body.secret.slice(6));
    expect(signingSecrets(row)).toEqual([res.body.secret]);
    const shown = { ...res.body };
    delete shown.secret;
    expect((await one(getRoute, t, res.body.id)).body).toEqual(shown);
    expect((await call(listRoute, { path: "/v1/webhook-endpoints", headers: t.headers })).body.data).toEqual([shown]);
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "webhook_endpoint.created" } });
    expect(audit).toMatchObject({ targetId: res.body.id, environment: "sandbox" });
    expect(JSON.stringify(audit.metadata)).not.toContain("whsec_");
  });

  it('subscribes to every event with ["*"], and refuses unknown, repeated or mixed event types', async () => {
    const t = await webhookTenant();
    expect((await create(t, { url: "http://localhost:4999/a", event_types: ["*"] })).body.event_types).toEqual(["*"]);
    for (const event_types of [[], ["charge.exploded"], ["charge.paid", "charge.paid"], ["*", "charge.paid"], ["webhook_endpoint.test"]]) {
      const res = await create(t, { url: "http://localhost:4999/a", event_types });
      expect(res.status, JSON.stringify(event_types)).toBe(400);
      expect(res.body.code).toBe("validation_error");
    }
    expect(await db().webhookEndpoint.count({ where: { tenantId: t.tenant.id } })).toBe(1);
  });

  it("refuses URLs that could reach the platform's own network (SSRF), changing nothing", async () => {
    const t = await webhookTenant();
    const { key } = await newKey(t.tenant.id, "production", ["read", "webhooks:write"]);
    const live = bearer(key, t.tenant.id);
    const refusedInProduction = [
      "http://8.8.8.8/hook", // production: https only
      "https://127.0.0.1/hook",
      "https://localhost/hook",
      "https://10.1.2.3/hook",
      "https://172.16.0.1/hook",
      "https://192.168.0.10/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/hook",
      "https://[::1]/hook",
      "https://[fd00::1]/hook",
      "https://[fe80::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://2130706433/hook", // 127.0.0.1 in decimal
      "https://0177.0.0.1/hook", // …in octal
      "https://0x7f000001/hook", // …in hex
      "https://224.0.0.1/hook",
      "https://0.0.0.0/hook",
      "https://user:pass@8.8.8.8/hook",
      "ftp://8.8.8.8/hook",
      "not a url",
    ];
    for (const url of refusedInProduction) {
      const res = await create(t, { url, event_types: ["*"] }, PRODUCTION, live);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({ code: "validation_error", errors: [{ param: "url", in: "body" }] });
    }
    // The sandbox takes loopback receivers (the deployment's switch is on in tests), never private networks.
    for (const url of ["https://10.1.2.3/hook", "http://169.254.169.254/", "http://192.168.1.1/"]) expect((await create(t, { url, event_types: ["*"] })).status, url).toBe(400);
    expect(await db().webhookEndpoint.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    const ok = await create(t, { url: "https://8.8.8.8/hook", event_types: ["*"] }, PRODUCTION, live);
    expect(ok.status).toBe(201);
    expect(ok.body.environment).toBe("production");
  });

  it("updates, disables (ending pending deliveries), enables and deletes", async () => {
    const t = await webhookTenant();
    const made = (await create(t, { url: "http://localhost:4999/a", event_types: ["charge.paid"] })).body;
    const test = await one(testRoute, t, made.id, { suffix: "/test" });
    expect(test.status).toBe(202);
    // Changing its types keeps a queued test event (never a subscribed type, always sent).
    expect((await one(patchRoute, t, made.id, { json: { event_types: ["charge.paid", "charge.created"] } })).status).toBe(200);
    expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: test.body.id } })).status).toBe("pending");
    const patched = await one(patchRoute, t, made.id, { json: { url: "http://127.0.0.1:4998/b", event_types: ["*"], description: "new", enabled: false } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ url: "http://127.0.0.1:4998/b", event_types: ["*"], description: "new", enabled: false, disabled_reason: "manual", disabled_at: expect.any(String) });
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: test.body.id } })).toMatchObject({ status: "failed", lastError: "The endpoint was disabled", nextAttemptAt: null });
    expect((await one(testRoute, t, made.id, { suffix: "/test" })).status).toBe(409);
    expect((await one(patchRoute, t, made.id, { json: { url: "https://10.0.0.1/x" } })).status).toBe(400);
    expect((await one(patchRoute, t, made.id, { json: {} })).status).toBe(400);
    expect((await one(patchRoute, t, made.id, { json: { secret: "whsec_x" } })).status).toBe(400);
    const enabled = await one(patchRoute, t, made.id, { json: { enabled: true, description: null } });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null, description: null });
    const deleted = await one(deleteRoute, t, made.id);
    expect(deleted.body).toEqual({ id: made.id, object: "webhook_endpoint", deleted: true });
    expect((await one(getRoute, t, made.id)).status).toBe(404);
    // Its log goes in the background (the retention purger, in batches: tests/webhooks/endpoint-deletion.test.ts), then it.
    await purgeDeletedEndpoints();
    expect(await db().webhookDelivery.count({ where: { endpointId: made.id } })).toBe(0);
    expect(await db().webhookEndpoint.findUnique({ where: { id: made.id } })).toBeNull();
    const trail = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, targetId: made.id }, orderBy: { createdAt: "asc" } });
    expect(trail.map((a) => a.action)).toEqual([
      "webhook_endpoint.created",
      "webhook_endpoint.tested",
      "webhook_endpoint.updated",
      "webhook_endpoint.updated",
      "webhook_endpoint.updated",
      "webhook_endpoint.deleted",
    ]);
    // Where its events went and which, before and after.
    expect(trail.slice(2, 5).map((a) => a.metadata)).toEqual([
      { changed: ["event_types"], event_types_before: ["charge.paid"], event_types_after: ["charge.created", "charge.paid"] },
      {
        changed: ["url", "event_types", "description", "enabled"],
        url_before: "http://localhost:4999/a",
        url_after: "http://127.0.0.1:4998/b",
        event_types_before: ["charge.created", "charge.paid"],
        event_types_after: ["*"],
        enabled_before: true,
        enabled_after: false,
      },
      { changed: ["description", "enabled"], enabled_before: false, enabled_after: true },
    ]);
  });

  it("rotates the secret: both sign for the grace period, each verifiable by standardwebhooks; 0 drops the old one", async () => {
    const t = await webhookTenant();
    const made = (await create(t, { url: "http://localhost:4999/a", event_types: ["*"] })).body;
    const rotated = await one(rotateRoute, t, made.id, { suffix: "/rotate-secret", json: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(made.secret);
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(expires - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } });
    const secrets = signingSecrets(row);
    expect(secrets).toEqual([rotated.body.secret, made.secret]);
    const body = JSON.stringify({ id: "evt_1", type: "customer.created" });
    const headers = signatureHeaders("evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0", new Date(), body, secrets);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [made.secret, rotated.body.secret]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // After the grace period only the new secret signs.
    expect(signingSecrets(row, new Date(expires + 1))).toEqual([rotated.body.secret]);
    const now = await one(rotateRoute, t, made.id, { suffix: "/rotate-secret", json: { grace_period_seconds: 0 } });
    expect(now.body.previous_secret_expires_at).toBeNull();
    expect(signingSecrets(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } }))).toEqual([now.body.secret]);
    expect((await one(rotateRoute, t, made.id, { suffix: "/rotate-secret", json: { grace_period_seconds: 86_401 } })).status).toBe(400);
  });

  it("refuses a second rotation with a grace period while the previous secret's is running (it would drop that secret at once); 0 drops both", async () => {
    const t = await webhookTenant();
    const made = (await create(t, { url: "http://localhost:4999/a", event_types: ["*"] })).body;
    const first = (await one(rotateRoute, t, made.id, { suffix: "/rotate-secret", json: { grace_period_seconds: 3600 } })).body;
    const before = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } });
    for (const json of [{}, { grace_period_seconds: 60 }]) {
      const again = await one(rotateRoute, t, made.id, { suffix: "/rotate-secret", json });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        type: expect.any(String),
        title: expect.any(String),
        status: 409,
        code: "conflict",
        detail: "The previous secret is still in its grace period: rotate again after it ends, or with grace_period_seconds 0 to drop both old secrets now",
        previous_secret_expires_at: first.previous_secret_expires_at,
        request_id: expect.any(String),
      });
    }
    // Nothing changed: the original secret still signs beside the first rotation's.
    const unchanged = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } });
    expect(unchanged).toEqual(before);
    expect(signingSecrets(unchanged)).toEqual([first.secret, made.secret]);
    expect(await db().auditLog.count({ where: { targetId: made.id, action: "webhook_endpoint.secret_rotated" } })).toBe(1);
    // Once that grace period is over, a rotation with one is allowed again.
    await db().webhookEndpoint.update({ where: { id: made.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1) } });
    const later = await one(rotateRoute, t, made.id, { suffix: "/rotate-secret", json: {} });
    expect(later.status).toBe(200);
    expect(signingSecrets(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } }))).toEqual([later.body.secret, first.secret]);
    // 0 (a leaked secret) is always allowed, and only the new one signs.
    const leaked = await one(rotateRoute, t, made.id, { suffix: "/rotate-secret", json: { grace_period_seconds: 0 } });
    expect([leaked.status, leaked.body.previous_secret_expires_at]).toEqual([200, null]);
    expect(signingSecrets(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } }))).toEqual([leaked.body.secret]);
  });

  it(`allows ${MAX_ENDPOINTS_PER_ENVIRONMENT} endpoints per environment, even to racing requests`, async () => {
    const t = await webhookTenant();
    const results = await Promise.all(Array.from({ length: MAX_ENDPOINTS_PER_ENVIRONMENT + 3 }, (_, i) => create(t, { url: `http://localhost:4999/${i}`, event_types: ["*"] })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_ENDPOINTS_PER_ENVIRONMENT);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(["conflict", "conflict", "conflict"]);
  });

  it("isolation: another tenant's endpoint and a production credential on a sandbox endpoint are 404; read-only keys cannot write", async () => {
    const a = await webhookTenant();
    const b = await webhookTenant();
    const made = (await create(a, { url: "http://localhost:4999/a", event_types: ["*"] })).body;
    for (const [handler, extra] of [
      [getRoute, {}],
      [patchRoute, { json: { description: "x" } }],
      [deleteRoute, {}],
      [rotateRoute, { suffix: "/rotate-secret", json: {} }],
      [testRoute, { suffix: "/test" }],
    ] as const) {
      const res = await one(handler, b, made.id, extra);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect((await call(listRoute, { path: "/v1/webhook-endpoints", headers: b.headers })).body.data).toEqual([]);
    const { key } = await newKey(a.tenant.id, "production", ["webhooks:read", "webhooks:write"]);
    const live = bearer(key, a.tenant.id);
    expect((await one(getRoute, a, made.id, { base: PRODUCTION, headers: live })).status).toBe(404);
    expect((await call(listRoute, { base: PRODUCTION, path: "/v1/webhook-endpoints", headers: live })).body.data).toEqual([]);
    const reader = await newKey(a.tenant.id, "sandbox", ["webhooks:read"]);
    const readOnly = bearer(reader.key, a.tenant.id);
    expect((await create(a, { url: "http://localhost:4999/b", event_types: ["*"] }, SANDBOX, readOnly)).status).toBe(403);
    expect((await one(deleteRoute, a, made.id, { headers: readOnly })).status).toBe(403);
    expect((await one(getRoute, a, made.id, { headers: readOnly })).status).toBe(200);
    const unrelated = await newKey(a.tenant.id, "sandbox", ["customers:read"]);
    expect((await one(getRoute, a, made.id, { headers: bearer(unrelated.key, a.tenant.id) })).status).toBe(403);
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } })).toMatchObject({ description: null, enabled: true });
  });

  it("events carry their module's data: a webhooks-only credential neither reads nor subscribes to what it may not read", async () => {
    const t = await webhookTenant();
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const customerEvent = newId("event");
    await db().outboxEvent.createMany({
      data: [
        { id: customerEvent, ...scope, type: "customer.created", payload: { id: "cus_x", document: "52998224725", monthly_income: 900000 } },
        { id: newId("event"), ...scope, type: "charge.paid", payload: { id: "chg_x", amount: 100 } },
      ],
    });
    const hooksOnly = bearer((await newKey(t.tenant.id, "sandbox", ["webhooks:read", "webhooks:write", "collections:read"])).key, t.tenant.id);
    const events = (query = "") => call(listEventsRoute, { base: SANDBOX, path: `/v1/events${query}`, headers: hooksOnly });
    expect((await events()).body.data.map((e: { type: string }) => e.type)).toEqual(["charge.paid"]);
    const customers = await events("?type=customer.created");
    expect(customers.status).toBe(403);
    expect(customers.body.detail).toBe("Events of type customer.created carry customers data: this needs the customers:read permission");
    const one = await call(getEventRoute, { base: SANDBOX, path: `/v1/events/${customerEvent}`, headers: hooksOnly, params: { id: customerEvent } });
    expect(one.status).toBe(403);
    // Subscribing: only to what it may read; "*" needs every read permission.
    expect((await create(t, { url: "http://localhost:4999/c", event_types: ["charge.paid"] }, SANDBOX, hooksOnly)).status).toBe(201);
    const tooMuch = await create(t, { url: "http://localhost:4999/c", event_types: ["charge.paid", "customer.updated"] }, SANDBOX, hooksOnly);
    expect([tooMuch.status, tooMuch.body.code]).toEqual([403, "forbidden"]);
    const everything = await create(t, { url: "http://localhost:4999/c", event_types: ["*"] }, SANDBOX, hooksOnly);
    expect(everything.status).toBe(403);
    expect(everything.body.detail).toMatch(/^Every event \("\*"\) needs every resource's read permission \(or read\); missing: customers:read, simulations:read, /);
    expect(await db().webhookEndpoint.count({ where: scope })).toBe(1);
  });

  it("risk assessment and margin query events carry the customer's personal data: they need customers:read too", async () => {
    const t = await webhookTenant();
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const risk = newId("event");
    await db().outboxEvent.createMany({
      data: [
        { id: risk, ...scope, type: "risk_assessment.created", payload: { id: "rsk_x", inputs: { birth_date: "1985-04-12", monthly_income: 850000 } } },
        { id: newId("event"), ...scope, type: "margin_query.completed", payload: { id: "mgq_x", source: { type: "inss", benefit_number: "1234567890" } } },
      ],
    });
    const noCustomers = bearer((await newKey(t.tenant.id, "sandbox", ["webhooks:read", "webhooks:write", "risk:read", "payroll:read"])).key, t.tenant.id);
    expect((await call(listEventsRoute, { base: SANDBOX, path: "/v1/events", headers: noCustomers })).body.data).toEqual([]);
    const fetched = await call(getEventRoute, { base: SANDBOX, path: `/v1/events/${risk}`, headers: noCustomers, params: { id: risk } });
    expect([fetched.status, fetched.body.detail]).toEqual([403, "Events of type risk_assessment.created carry customers data: this needs the customers:read permission"]);
    const subscribed = await create(t, { url: "http://localhost:4999/r", event_types: ["margin_query.completed"] }, SANDBOX, noCustomers);
    expect([subscribed.status, subscribed.body.detail]).toEqual([403, "Events of type margin_query.completed carry customers data: this needs the customers:read permission"]);
    const withCustomers = bearer((await newKey(t.tenant.id, "sandbox", ["webhooks:read", "risk:read", "payroll:read", "customers:read"])).key, t.tenant.id);
    expect((await call(listEventsRoute, { base: SANDBOX, path: "/v1/events", headers: withCustomers })).body.data.map((e: { type: string }) => e.type).sort()).toEqual(["margin_query.completed", "risk_assessment.created"]);
  });

  it("contract.credit_applied carries a payment: it needs collections:read, not contracts:read", async () => {
    const t = await webhookTenant();
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const credit = newId("event");
    await db().outboxEvent.createMany({
      data: [
        { id: newId("event"), ...scope, type: "contract.issued", payload: { id: "ctr_x" } },
        { id: credit, ...scope, type: "contract.credit_applied", payload: { id: "pay_x", amount: 100, source: "contract_credit" } },
      ],
    });
    const contractsOnly = bearer((await newKey(t.tenant.id, "sandbox", ["webhooks:read", "webhooks:write", "contracts:read"])).key, t.tenant.id);
    expect((await call(listEventsRoute, { base: SANDBOX, path: "/v1/events", headers: contractsOnly })).body.data.map((e: { type: string }) => e.type)).toEqual(["contract.issued"]);
    const fetched = await call(getEventRoute, { base: SANDBOX, path: `/v1/events/${credit}`, headers: contractsOnly, params: { id: credit } });
    expect([fetched.status, fetched.body.code, fetched.body.detail]).toEqual([403, "forbidden", "Events of type contract.credit_applied carry collections data: this needs the collections:read permission"]);
    const subscribed = await create(t, { url: "http://localhost:4999/c", event_types: ["contract.issued", "contract.credit_applied"] }, SANDBOX, contractsOnly);
    expect([subscribed.status, subscribed.body.code]).toEqual([403, "forbidden"]);
    expect(await db().webhookEndpoint.count({ where: scope })).toBe(0);

    const payments = bearer((await newKey(t.tenant.id, "sandbox", ["webhooks:read", "webhooks:write", "collections:read"])).key, t.tenant.id);
    expect((await call(listEventsRoute, { base: SANDBOX, path: "/v1/events", headers: payments })).body.data.map((e: { type: string }) => e.type)).toEqual(["contract.credit_applied"]);
    expect((await create(t, { url: "http://localhost:4999/c", event_types: ["contract.credit_applied"] }, SANDBOX, payments)).status).toBe(201);
  });

  it("a webhooks-only credential can neither point elsewhere, re-enable, nor resend an endpoint carrying what it may not read", async () => {
    const t = await webhookTenant();
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const made = await create(t, { url: "http://localhost:4999/crm", event_types: ["customer.created", "charge.paid"] });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const hooksOnly = bearer((await newKey(t.tenant.id, "sandbox", ["webhooks:read", "webhooks:write", "collections:read"])).key, t.tenant.id);

    const redirected = await one(patchRoute, t, id, { headers: hooksOnly, json: { url: "https://attacker.example/x" } });
    expect([redirected.status, redirected.body.code, redirected.body.detail]).toEqual([403, "forbidden", "Events of type customer.created carry customers data: this needs the customers:read permission"]);
    // Its description is not a matter of who reads the events.
    expect((await one(patchRoute, t, id, { headers: hooksOnly, json: { description: "crm feed" } })).status).toBe(200);
    expect((await one(patchRoute, t, id, { json: { enabled: false } })).status).toBe(200);
    expect((await one(patchRoute, t, id, { headers: hooksOnly, json: { enabled: true } })).status).toBe(403);
    // Pointing it elsewhere while narrowing it in the same request is still a redirect of what it carries now.
    const both = await one(patchRoute, t, id, { headers: hooksOnly, json: { url: "https://attacker.example/x", event_types: ["charge.paid"] } });
    expect([both.status, both.body.code]).toEqual([403, "forbidden"]);
    // Nor may it take the endpoint's signing secret (it could sign customer.* events to the tenant's receiver).
    const rotate = await one(rotateRoute, t, id, { suffix: "/rotate-secret", headers: hooksOnly, json: {} });
    expect([rotate.status, rotate.body.code]).toEqual([403, "forbidden"]);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id } })).url).toBe("http://localhost:4999/crm");

    // A customer.created delivery queued for it (the receiver was failing): narrowing the endpoint to what the key may
    // read ends it, so that a later change of URL does not carry it along; then the URL may change.
    const event = newId("event");
    await db().outboxEvent.create({ data: { id: event, ...scope, type: "customer.created", payload: { id: "cus_x", document: "52998224725" } } });
    const queued = newId("webhookDelivery");
    await db().webhookDelivery.create({ data: { id: queued, ...scope, endpointId: id, eventId: event, eventType: "customer.created", status: "pending", nextAttemptAt: new Date() } });
    const narrowed = await one(patchRoute, t, id, { headers: hooksOnly, json: { event_types: ["charge.paid"] } });
    expect([narrowed.status, narrowed.body.event_types]).toEqual([200, ["charge.paid"]]);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: queued } })).toMatchObject({ status: "failed", lastError: "The endpoint no longer subscribes to this event type" });
    const moved = await one(patchRoute, t, id, { headers: hooksOnly, json: { url: "http://localhost:4999/pay", enabled: true } });
    expect([moved.status, moved.body.url, moved.body.enabled]).toEqual([200, "http://localhost:4999/pay", true]);

    const earlier = newId("event");
    await db().outboxEvent.create({ data: { id: earlier, ...scope, type: "customer.created", payload: { id: "cus_y", document: "52998224725" } } });
    const delivery = newId("webhookDelivery");
    await db().webhookDelivery.create({ data: { id: delivery, ...scope, endpointId: id, eventId: earlier, eventType: "customer.created", status: "failed", completedAt: new Date() } });
    const resend = (headers: Record<string, string>) => call(resendRoute, { base: SANDBOX, path: `/v1/webhook-deliveries/${delivery}/resend`, headers, params: { id: delivery } });
    expect((await resend(hooksOnly)).status).toBe(403);
    expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery } })).status).toBe("failed");
    expect((await resend(t.headers)).status).toBe(202);
  });
});
