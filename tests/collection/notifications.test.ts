import { beforeAll, describe, expect, it } from "vitest";
import { POST as cancelCharge } from "@/app/v1/charges/[id]/cancel/route";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as notify } from "@/app/v1/charges/notifications/[provider]/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { sign } from "@/lib/collection/provider-signature";
import { db } from "@/lib/db/client";
import { call, PRODUCTION } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// Inbound provider notifications: HMAC over the raw body with a timestamp, idempotent by event id.

const SECRET = "provider-secret-0123456789abcdefghijklmnop";
const OTHER_SECRET = "another-provider-secret-0123456789abcdefgh";
const PRODUCTION_SECRET = "acme-production-secret-0123456789abcdefgh";
let t: CreditTenant;

beforeAll(async () => {
  // Read once by lib/env.ts on first use, which comes after this point in this file's process.
  process.env.COLLECTION_PROVIDER_SECRETS = JSON.stringify({ sandbox: { "acme-bank": SECRET, "beta-pay": OTHER_SECRET }, production: { "acme-bank": PRODUCTION_SECRET } });
  t = await creditTenant();
});

async function pixCharge(method: "pix" | "boleto" = "pix") {
  const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
  const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body;
  return (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method } })).body as {
    id: string;
    amount: number;
    pix: { txid: string };
    boleto: { our_number: string };
  };
}

function send(provider: string, body: unknown, options: { secret?: string; at?: number; header?: string; base?: string } = {}) {
  const raw = JSON.stringify(body);
  const at = options.at ?? Math.floor(Date.now() / 1000);
  const header = options.header ?? `t=${at},v1=${sign(options.secret ?? SECRET, at, raw)}`;
  return call(notify, { base: options.base ?? t.base, path: `/v1/charges/notifications/${provider}`, headers: { "content-type": "application/json", "x-provider-signature": header }, rawBody: raw, params: { provider } });
}

describe("POST /v1/charges/notifications/{provider}", () => {
  it("applies a signed payment once: a repeated event answers the same payment", async () => {
    const charge = await pixCharge();
    const event = { event_id: "evt-acme-1", type: "payment.confirmed", txid: charge.pix.txid, amount: charge.amount, paid_on: new Date().toISOString().slice(0, 10) };
    const first = await send("acme-bank", event);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ received: true, replayed: false, payment: { charge_id: charge.id, amount: charge.amount, source: "pix" } });
    expect((await db().charge.findUniqueOrThrow({ where: { id: charge.id } })).status).toBe("paid");
    const again = await send("acme-bank", event);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await db().payment.count({ where: { chargeId: charge.id } })).toBe(1);
  });

  it("an event id is unique per provider: two providers' event \"1\" are two payments", async () => {
    const a = await pixCharge();
    const b = await pixCharge();
    const today = new Date().toISOString().slice(0, 10);
    const fromAcme = await send("acme-bank", { event_id: "1", type: "payment.confirmed", txid: a.pix.txid, amount: a.amount, paid_on: today });
    const fromBeta = await send("beta-pay", { event_id: "1", type: "payment.confirmed", txid: b.pix.txid, amount: b.amount, paid_on: today }, { secret: OTHER_SECRET });
    expect([fromAcme.body.replayed, fromBeta.body.replayed]).toEqual([false, false]);
    expect(fromBeta.body.payment).toMatchObject({ charge_id: b.id, amount: b.amount });
    const rows = await db().payment.findMany({ where: { chargeId: { in: [a.id, b.id] } }, orderBy: { provider: "asc" } });
    expect(rows.map((p) => [p.chargeId, p.provider, p.providerEventId])).toEqual([
      [a.id, "acme-bank", "1"],
      [b.id, "beta-pay", "1"],
    ]);
    // Each provider's own repeat is still a replay.
    expect((await send("beta-pay", { event_id: "1", type: "payment.confirmed", txid: b.pix.txid, amount: b.amount, paid_on: today }, { secret: OTHER_SECRET })).body.replayed).toBe(true);
  });

  it("records money for a charge that can no longer be paid (paid twice, paid after its cancellation) as the contract's credit", async () => {
    const charge = await pixCharge("boleto");
    const today = new Date().toISOString().slice(0, 10);
    const event = { event_id: "evt-acme-twice-1", type: "payment.confirmed", our_number: charge.boleto.our_number, amount: charge.amount, paid_on: today };
    expect((await send("acme-bank", event)).status).toBe(200);
    const contractId = (await db().charge.findUniqueOrThrow({ where: { id: charge.id } })).contractId;
    const before = await db().contract.findUniqueOrThrow({ where: { id: contractId } });

    // The same boleto paid a second time: 200, a payment with nothing allocated and all of it as credit.
    const twice = await send("acme-bank", { ...event, event_id: "evt-acme-twice-2", amount: 12_345 });
    expect(twice.status).toBe(200);
    expect(twice.body).toMatchObject({ received: true, replayed: false, payment: { charge_id: charge.id, contract_id: contractId, source: "boleto", amount: 12_345, allocations: [], credit: 12_345 } });
    const after = await db().contract.findUniqueOrThrow({ where: { id: contractId } });
    expect({ credit: after.creditBalance - before.creditBalance, paid: after.amountPaid - before.amountPaid, outstanding: after.outstandingBalance - before.outstandingBalance }).toEqual({ credit: 12_345n, paid: 0n, outstanding: 0n });
    const closed = await db().charge.findUniqueOrThrow({ where: { id: charge.id } });
    expect({ status: closed.status, amountPaid: closed.amountPaid }).toEqual({ status: "paid", amountPaid: BigInt(charge.amount) });
    const paymentId = (twice.body as { payment: { id: string } }).payment.id;
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "payment.received" } });
    expect(events.filter((e) => (e.payload as { id: string }).id === paymentId)).toHaveLength(1);
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, targetId: paymentId } });
    expect({ action: audit.action, actor: audit.actorLabel, metadata: audit.metadata }).toEqual({
      action: "payment.received",
      actor: "provider:acme-bank",
      metadata: { charge_id: charge.id, charge_status: "paid", amount: 12_345, credit: 12_345 },
    });
    // Replayed, it is the same payment and nothing more.
    const again = await send("acme-bank", { ...event, event_id: "evt-acme-twice-2", amount: 12_345 });
    expect(again.body).toEqual({ ...twice.body, replayed: true });
    expect((await db().contract.findUniqueOrThrow({ where: { id: contractId } })).creditBalance).toBe(after.creditBalance);

    // Paid after its cancellation reached us: the same.
    const canceled = await pixCharge("boleto");
    expect((await call(cancelCharge, { base: t.base, path: `/v1/charges/${canceled.id}/cancel`, headers: t.headers, json: {}, params: { id: canceled.id } })).status).toBe(200);
    const late = await send("acme-bank", { event_id: "evt-acme-canceled-1", type: "payment.confirmed", our_number: canceled.boleto.our_number, amount: canceled.amount, paid_on: today });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ payment: { charge_id: canceled.id, amount: canceled.amount, allocations: [], credit: canceled.amount } });
    expect((await db().charge.findUniqueOrThrow({ where: { id: canceled.id } })).status).toBe("canceled");
  });

  it("refuses bad, missing, other-secret and stale signatures (401) and unknown providers (404), changing nothing", async () => {
    const charge = await pixCharge();
    const event = { event_id: "evt-acme-3", type: "payment.confirmed", txid: charge.pix.txid, amount: 100, paid_on: "2026-11-20" };
    const now = Math.floor(Date.now() / 1000);
    for (const options of [{ secret: "another-secret-0123456789abcdefghijklmn" }, { at: now - 301 }, { at: now + 301 }, { header: "" }, { header: "t=1,v1=zz" }]) {
      const res = await send("acme-bank", event, options);
      expect(res.status, JSON.stringify(options)).toBe(401);
      expect(res.body.code).toBe("invalid_signature");
      expect(res.headers.get("www-authenticate")).toBe('HMAC-SHA256 realm="credit-platform", header="X-Provider-Signature"'); // RFC 9110: a 401 names its scheme
    }
    expect((await send("unknown-psp", event)).status).toBe(404);
    // Names of Object's own members are no providers either (404, never a 500).
    for (const provider of ["constructor", "hasownproperty", "tostring"]) {
      const res = await send(provider, event, { header: `t=${now},v1=${"0".repeat(64)}` });
      expect([res.status, res.body.code], provider).toEqual([404, "not_found"]);
    }
    expect(await db().payment.count({ where: { chargeId: charge.id } })).toBe(0);
  });

  it("reads a body without Content-Length no further than 1 MiB before checking its signature: 413", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 64 * 1024 * 1024) return controller.close(); // 64 MiB, if anyone read it all
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const request = new Request(`${t.base}/v1/charges/notifications/acme-bank`, { method: "POST", headers: { "content-type": "application/json", "x-provider-signature": "t=1,v1=00" }, body, duplex: "half" } as RequestInit);
    const res = await notify(request, { params: Promise.resolve({ provider: "acme-bank" }) });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("payload_too_large");
    expect(sent).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it("an unknown charge is 404; a malformed body (signed) is 400", async () => {
    const unknown = await send("acme-bank", { event_id: "evt-acme-4", type: "payment.confirmed", txid: "A".repeat(32), amount: 100, paid_on: "2026-11-20" });
    expect(unknown.status).toBe(404);
    const both = await send("acme-bank", { event_id: "evt-acme-5", type: "payment.confirmed", amount: 100, paid_on: "2026-11-20" });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([{ param: "txid", in: "body", message: "Send exactly one of txid and our_number" }]);
  });

  it("secrets are per environment, and the charge is found only in the environment of the address called; a boleto by its nosso número", async () => {
    const boleto = await pixCharge("boleto");
    const event = { event_id: "evt-acme-6", type: "payment.confirmed", our_number: boleto.boleto.our_number, amount: boleto.amount, paid_on: new Date().toISOString().slice(0, 10) };
    // A notification signed for the sandbox, sent to the production address: production's secret for the provider is another.
    expect((await send("acme-bank", event, { base: PRODUCTION })).body).toMatchObject({ status: 401, code: "invalid_signature" });
    // A provider configured for the sandbox only is unknown in production.
    expect((await send("beta-pay", event, { base: PRODUCTION, secret: OTHER_SECRET })).body).toMatchObject({ status: 404, code: "not_found", detail: expect.stringContaining("Payment provider") });
    // Signed with production's secret: production has no such charge.
    const elsewhere = await send("acme-bank", event, { base: PRODUCTION, secret: PRODUCTION_SECRET });
    expect(elsewhere.body).toMatchObject({ status: 404, code: "not_found" });
    expect(await db().payment.count({ where: { chargeId: boleto.id } })).toBe(0);
    expect((await db().charge.findUniqueOrThrow({ where: { id: boleto.id } })).status).toBe("pending");
    const here = await send("acme-bank", event); // the refused delivery recorded nothing, not even its event id
    expect(here.body).toMatchObject({ received: true, replayed: false, payment: { charge_id: boleto.id, source: "boleto", amount: boleto.amount } });
  });

  it("finds the charge by its identifier's index, not by reading every charge of the environment", async () => {
    const plan = async (statement: string) =>
      db().$transaction(async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off"); // a small test table: make the planner show what it can use
        const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${statement}`);
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
    expect(await plan(`SELECT id FROM charges WHERE environment = 'production' AND pix IS NOT NULL AND pix ->> 'txid' = 'X' LIMIT 2`)).toContain("charges_environment_pix_txid_idx");
    expect(await plan(`SELECT id FROM charges WHERE environment = 'production' AND boleto IS NOT NULL AND boleto ->> 'our_number' = 'X' LIMIT 2`)).toContain("charges_environment_boleto_our_number_idx");
  });
});
