import pg from "pg";
import { describe, expect, it } from "vitest";
import { GET as getAccount, PUT as putAccount } from "@/app/v1/collection-account/route";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as createCustomer } from "@/app/v1/customers/route";
import { POST as createProposal } from "@/app/v1/proposals/route";
import { POST as sign } from "@/app/v1/proposals/[id]/sign/route";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { POST as createSimulation } from "@/app/v1/simulations/route";
import { barcodeFromLine } from "@/lib/collection/boleto";
import { POST as sandboxPay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { loadPaymentPage } from "@/lib/collection/payment-page-data";
import { parseBrCode } from "@/lib/collection/pix-brcode";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addMonths } from "@/lib/finance";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION, SANDBOX } from "../helpers/http";
import { creditTenant, signedProposal, uniqueCpf, type CreditTenant } from "../credit/flow-helpers";
import { untilLockWaiters } from "../helpers/lock-waits";

// The tenant's own collection account (PUT /v1/collection-account, collections:admin): production charges are
// issued under it, its agreement is the tenant's alone, every change is audited; and the printable page a
// charge links to.

let agreementSeed = 2_000_000 + Math.floor(Math.random() * 7_000_000);
const account = (overrides: Record<string, unknown> = {}) => ({
  bank_code: "001",
  agreement: String(agreementSeed++),
  wallet: "18",
  beneficiary_name: "Crédito Fácil Sociedade de Crédito Direto S.A.",
  beneficiary_document: "11.222.333/0001-81",
  city: "São José dos Campos",
  pix_location_base: "pix.example-psp.com.br/qr/v2",
  ...overrides,
});

/** A production contract without the payroll authority: a personal loan through the action endpoints. */
/** Dated today: production refuses a back-dated disbursement (lib/contracts/issue-contract.ts). */
async function personalLoanContract(t: CreditTenant, dates: Record<string, string> = { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) }) {
  const created = await call(createCustomer, { base: t.base, path: "/v1/customers", headers: t.headers, json: { document: uniqueCpf(), name: "Maria da Silva", birth_date: "1980-05-10", monthly_income: 2_000_000 } });
  const customer = created.body as { id: string };
  const simulation = await call(createSimulation, {
    base: t.base,
    path: "/v1/simulations",
    headers: t.headers,
    json: { product: "personal_loan", requested_amount: 500000, term: 12, monthly_rate: "0.0300", customer_id: customer.id, ...dates },
  });
  expect(simulation.status).toBe(201);
  const proposal = await call(createProposal, { base: t.base, path: "/v1/proposals", headers: t.headers, json: { customer_id: customer.id, simulation_id: simulation.body.id } });
  expect(proposal.status).toBe(201);
  // A declared income well above the installment: the risk engine approves on submit.
  for (const handler of [submit, sign]) {
    const res = await call(handler, { base: t.base, path: `/v1/proposals/${proposal.body.id}/x`, headers: t.headers, params: { id: proposal.body.id } });
    expect(res.status, res.text).toBe(200);
  }
  const contract = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.body.id } });
  expect(contract.status).toBe(201);
  return contract;
}

async function admin(t: CreditTenant, environment: "sandbox" | "production") {
  const { key } = await newKey(t.tenant.id, environment, ["read", "write", "collections:admin", "proposals:review"]);
  return { base: environment === "sandbox" ? SANDBOX : PRODUCTION, headers: bearer(key, t.tenant.id) };
}

describe("collection account", () => {
  it("sandbox shows the shared default until set; production is 404, then charges carry the tenant's own account", async () => {
    const t = await creditTenant("production");
    const sandbox = await admin(t, "sandbox");
    const shared = await call(getAccount, { ...sandbox, path: "/v1/collection-account" });
    expect(shared.body).toEqual({
      object: "collection_account",
      bank_code: "001",
      agreement: "1234567",
      wallet: "17",
      beneficiary_name: "Credit Platform Sandbox",
      beneficiary_document: "11222333000181",
      city: "Sao Paulo",
      pix_location_base: "pix.sandbox.credit-platform.example/qr/v2",
      shared_default: true,
      environment: "sandbox",
      updated_at: null,
    });
    const live = await admin(t, "production");
    expect((await call(getAccount, { ...live, path: "/v1/collection-account" })).status).toBe(404);

    const body = account();
    const put = await call(putAccount, { ...live, path: "/v1/collection-account", method: "PUT", json: body });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      object: "collection_account",
      bank_code: "001",
      agreement: body.agreement,
      wallet: "18",
      beneficiary_name: "Crédito Fácil Sociedade de Crédito Direto S.A.",
      beneficiary_document: "11222333000181",
      city: "São José dos Campos",
      pix_location_base: "pix.example-psp.com.br/qr/v2",
      shared_default: false,
      environment: "production",
      updated_at: expect.any(String),
    });
    expect((await call(getAccount, { ...live, path: "/v1/collection-account" })).body).toEqual(put.body);
    // The sandbox is untouched: data of the two environments never mix.
    expect((await call(getAccount, { ...sandbox, path: "/v1/collection-account" })).body.shared_default).toBe(true);

    const contract = await personalLoanContract(t);
    const boletos = [];
    for (let i = 0; i < 2; i++) {
      const res = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.body.id, method: "boleto" } });
      expect(res.status).toBe(201);
      boletos.push(res.body);
    }
    // Nosso número: the agreement and its own sequence from 1; the free field carries the wallet.
    expect(boletos.map((b) => b.boleto.our_number)).toEqual([`${body.agreement}0000000001`, `${body.agreement}0000000002`]);
    expect(barcodeFromLine(boletos[0].boleto.digitable_line).slice(19)).toBe(`000000${body.agreement}000000000118`);
    expect(boletos[0].beneficiary).toEqual({ name: body.beneficiary_name, document: "11222333000181", city: "São José dos Campos", bank_code: "001", agreement: body.agreement });
    expect(boletos[0].payment_page_url).toMatch(new RegExp(`^${PRODUCTION}/pay/${boletos[0].id}\\.`));

    const pix = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.body.id, method: "pix" } });
    const fields = parseBrCode(pix.body.pix.brcode);
    expect(fields["59"]).toBe("CREDITO FACIL SOCIEDADE D"); // 25 characters, no accents
    expect(fields["60"]).toBe("SAO JOSE DOS CA"); // 15
    expect((fields["26"] as Record<string, string>)["25"]).toMatch(/^pix\.example-psp\.com\.br\/qr\/v2\/[0-9a-f]{32}$/);
    expect(pix.body.pix.qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);

    // A change is audited with the values before it; charges already issued keep their beneficiary.
    const changed = await call(putAccount, { ...live, path: "/v1/collection-account", method: "PUT", json: { ...body, beneficiary_name: "Outro Nome S.A." } });
    expect(changed.body.beneficiary_name).toBe("Outro Nome S.A.");
    const audits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, targetType: "collection_account" }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => [a.action, a.environment])).toEqual([["collection_account.created", "production"], ["collection_account.updated", "production"]]);
    expect((audits[1]!.metadata as { before: { beneficiary_name: string } }).before.beneficiary_name).toBe(body.beneficiary_name);
    expect((await db().charge.findUniqueOrThrow({ where: { id: boletos[0].id } })).beneficiary).toMatchObject({ name: body.beneficiary_name });
  });

  it("needs collections:admin (never the coarse write); validates; an agreement belongs to one tenant; bad input changes nothing", async () => {
    const t = await creditTenant();
    const writer = await newKey(t.tenant.id, "sandbox", ["read", "write", "collections:write"]);
    const denied = await call(putAccount, { base: t.base, path: "/v1/collection-account", method: "PUT", headers: bearer(writer.key, t.tenant.id), json: account() });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("This operation requires the collections:admin permission");

    const me = await admin(t, "sandbox");
    const bad = await call(putAccount, { ...me, path: "/v1/collection-account", method: "PUT", json: account({ agreement: "12345", wallet: "11", pix_location_base: "https://x.example/qr", extra: 1 }) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(["agreement", "extra", "pix_location_base", "wallet"]);
    const badCnpj = await call(putAccount, { ...me, path: "/v1/collection-account", method: "PUT", json: account({ beneficiary_document: "11.222.333/0001-82" }) });
    expect(badCnpj.body).toMatchObject({ status: 400, code: "invalid_document" });
    const reserved = await call(putAccount, { ...me, path: "/v1/collection-account", method: "PUT", json: account({ agreement: "1234567" }) });
    expect(reserved.body.errors).toEqual([{ param: "agreement", in: "body", message: "1234567 is the shared sandbox account's agreement" }]);

    // Nothing left for the Pix BR Code once accents and symbols go (its name and city fields would be empty: invalid).
    const unprintable = await call(putAccount, { ...me, path: "/v1/collection-account", method: "PUT", json: account({ beneficiary_name: "株式会社 — ★", city: "—" }) });
    expect([unprintable.status, unprintable.body.errors]).toEqual([
      400,
      [
        { param: "beneficiary_name", in: "body", message: "Must contain a letter (A to Z, accents allowed) or a digit: the Pix BR Code carries the name without other characters" },
        { param: "city", in: "body", message: "Must contain a letter (A to Z, accents allowed) or a digit: the Pix BR Code carries the city without other characters" },
      ],
    ]);
    expect(await db().collectionAccount.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    // One letter is enough, accented or not.
    const mine = account({ beneficiary_name: "Ç — Crédito", city: "Itú" });
    const saved = await call(putAccount, { ...me, path: "/v1/collection-account", method: "PUT", json: mine });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ beneficiary_name: "Ç — Crédito", city: "Itú" });
    const other = await creditTenant();
    const theirs = await admin(other, "sandbox");
    const taken = await call(putAccount, { ...theirs, path: "/v1/collection-account", method: "PUT", json: account({ agreement: mine.agreement }) });
    expect(taken.body.errors).toEqual([{ param: "agreement", in: "body", message: "This agreement belongs to another collection account" }]);
    expect(await db().collectionAccount.count({ where: { tenantId: other.tenant.id } })).toBe(0);
    expect((await call(getAccount, { ...theirs, path: "/v1/collection-account" })).body.shared_default).toBe(true);
  });

  it("an agreement a tenant issued boletos under stays theirs after they move to another one", async () => {
    const t = await creditTenant();
    const me = await admin(t, "sandbox");
    const first = account();
    expect((await call(putAccount, { ...me, path: "/v1/collection-account", json: first })).status).toBe(200);
    const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const contract = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
    const boleto = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.body.id, method: "boleto" } });
    expect(boleto.body.boleto.our_number).toBe(`${first.agreement}0000000001`);
    expect((await call(putAccount, { ...me, path: "/v1/collection-account", json: account() })).status).toBe(200);

    const other = await creditTenant();
    const taken = await call(putAccount, { ...(await admin(other, "sandbox")), path: "/v1/collection-account", json: account({ agreement: first.agreement }) });
    expect(taken.body.errors).toEqual([{ param: "agreement", in: "body", message: "This agreement belongs to another collection account" }]);
    // Its owner may come back to it, and goes on numbering where it stopped.
    expect((await call(putAccount, { ...me, path: "/v1/collection-account", json: first })).status).toBe(200);
    const next = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.body.id, method: "boleto" } });
    expect(next.body.boleto.our_number).toBe(`${first.agreement}0000000002`);
  });

  it("an agreement moved to another tenant while its first boleto is being numbered: its owner keeps it, no nosso número is issued twice", async () => {
    const a = await creditTenant();
    const adminA = await admin(a, "sandbox");
    const x = account();
    expect((await call(putAccount, { ...adminA, path: "/v1/collection-account", json: x })).status).toBe(200);
    const { proposal } = await signedProposal(a, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const contract = (await call(issueContract, { base: a.base, path: "/v1/contracts", headers: a.headers, json: { proposal_id: proposal.id } })).body;
    const b = await creditTenant();
    const adminB = await admin(b, "sandbox");

    // Another first use of A's sequence in flight (uncommitted): A's first boleto, read under agreement X, waits to number.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    let boleto: Promise<Awaited<ReturnType<typeof call>>>;
    let moved: Promise<Awaited<ReturnType<typeof call>>>;
    let takenByB: Awaited<ReturnType<typeof call>>;
    try {
      await other.query("BEGIN");
      await other.query(`INSERT INTO sequences (tenant_id, environment, name, value) VALUES ($1, 'sandbox', $2, 0)`, [a.tenant.id, `boleto-our-number:001:${x.agreement}`]);
      boleto = call(createCharge, { base: a.base, path: "/v1/charges", headers: a.headers, json: { contract_id: contract.id, method: "boleto" } });
      await untilLockWaiters(1, boleto);
      // Meanwhile A moves to another agreement, and B asks for X.
      moved = call(putAccount, { ...adminA, path: "/v1/collection-account", json: account() });
      await untilLockWaiters(2, moved); // A's move waits for the boleto numbered under X (or, unguarded, is done)
      takenByB = await call(putAccount, { ...adminB, path: "/v1/collection-account", json: account({ agreement: x.agreement }) });
    } finally {
      await other.query("ROLLBACK");
      await other.end();
    }
    expect([takenByB.status, takenByB.body.errors]).toEqual([400, [{ param: "agreement", in: "body", message: "This agreement belongs to another collection account" }]]);
    const issued = await boleto;
    expect([issued.status, issued.body.boleto?.our_number]).toEqual([201, `${x.agreement}0000000001`]);
    expect((await moved).status).toBe(200);
    // X stays A's (it numbered a boleto under it): B is refused now too, and never numbered anything under it.
    const again = await call(putAccount, { ...adminB, path: "/v1/collection-account", json: account({ agreement: x.agreement }) });
    expect(again.body.errors).toEqual([{ param: "agreement", in: "body", message: "This agreement belongs to another collection account" }]);
    expect(await db().collectionAccount.count({ where: { tenantId: b.tenant.id } })).toBe(0);
    expect(await db().sequence.findMany({ where: { name: `boleto-our-number:001:${x.agreement}` }, select: { tenantId: true, value: true } })).toEqual([{ tenantId: a.tenant.id, value: 1 }]);
  });

  it("a boleto read under an agreement its tenant left before numbering under it: 409 to issue it again, under the account as it is now", async () => {
    const a = await creditTenant();
    const adminA = await admin(a, "sandbox");
    const x = account();
    expect((await call(putAccount, { ...adminA, path: "/v1/collection-account", json: x })).status).toBe(200);
    const { proposal } = await signedProposal(a, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const contract = (await call(issueContract, { base: a.base, path: "/v1/contracts", headers: a.headers, json: { proposal_id: proposal.id } })).body;
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    let boleto: Promise<Awaited<ReturnType<typeof call>>>;
    const y = account();
    try {
      // A's account is being changed to Y (its row locked, as a PUT does): A's boleto, read under X, reaches its numbering.
      await other.query("BEGIN");
      await other.query(`SELECT 1 FROM collection_accounts WHERE tenant_id = $1 AND environment = 'sandbox' FOR UPDATE`, [a.tenant.id]);
      boleto = call(createCharge, { base: a.base, path: "/v1/charges", headers: a.headers, json: { contract_id: contract.id, method: "boleto" } });
      await untilLockWaiters(1, boleto); // guarded, it waits for the change; unguarded, it is issued under X at once
      await other.query(`UPDATE collection_accounts SET agreement = $2 WHERE tenant_id = $1 AND environment = 'sandbox'`, [a.tenant.id, y.agreement]);
      await other.query("COMMIT");
    } finally {
      await other.end();
    }
    const refused = await boleto;
    expect([refused.status, refused.body.code, refused.body.retryable]).toEqual([409, "conflict", true]);
    expect(await db().charge.count({ where: { contractId: contract.id } })).toBe(0);
    expect(await db().sequence.count({ where: { name: `boleto-our-number:001:${x.agreement}` } })).toBe(0);
    const again = await call(createCharge, { base: a.base, path: "/v1/charges", headers: a.headers, json: { contract_id: contract.id, method: "boleto" } });
    expect([again.status, again.body.boleto.our_number]).toEqual([201, `${y.agreement}0000000001`]);
  });

  it("the payment page data: only with the charge's signed token, only on its environment, payer CPF masked", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const contract = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
    const charge = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.body.id, method: "boleto" } })).body;
    const token = charge.payment_page_url.split("/pay/")[1];
    const page = await loadPaymentPage(token, "sandbox");
    expect(page).toMatchObject({ payable: true, notice: null, payer: { name: "Maria da Silva", document: expect.stringMatching(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/) } });
    // The document date is the day of issue in Brasília: 21:30 there on 10 May is already 11 May in UTC.
    await db().charge.update({ where: { id: charge.id }, data: { createdAt: new Date("2026-05-11T00:30:00Z") } });
    expect((await loadPaymentPage(token, "sandbox"))!.documentDate).toBe("10/05/2026");
    expect(page!.barcodeSvg).toMatch(/^<svg /);
    expect(await loadPaymentPage(token, "production")).toBeNull();
    expect(await loadPaymentPage(token, null)).toBeNull();
    expect(await loadPaymentPage(`${charge.id}.${"A".repeat(43)}`, "sandbox")).toBeNull();
    expect(await loadPaymentPage(charge.id, "sandbox")).toBeNull();

    // Partly paid: its codes (of the whole amount) are no longer shown — paying them again would bring the whole amount in.
    const paid = await call(sandboxPay, { base: t.base, path: `/v1/sandbox/charges/${charge.id}/pay`, headers: t.headers, params: { id: charge.id }, json: { amount: 1000 } });
    expect(paid.body.charge.status).toBe("partially_paid");
    const partlyPaid = "Esta cobrança já recebeu um pagamento parcial: o código dela, do valor inteiro, não vale mais. Peça ao credor uma nova cobrança do que falta.";
    expect(await loadPaymentPage(token, "sandbox")).toMatchObject({ payable: false, notice: partlyPaid, payer: { name: "", document: "" }, barcodeSvg: null, qrSvg: null });
    // Marked overdue by the job after that part was paid: still not payable by its whole-amount codes.
    await db().charge.update({ where: { id: charge.id }, data: { status: "overdue" } });
    expect(await loadPaymentPage(token, "sandbox")).toMatchObject({ payable: false, notice: partlyPaid, barcodeSvg: null, qrSvg: null });

    // An immediate Pix past its expiry, before the job has marked it: the PSP no longer takes it, nor does the page.
    const cob = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.body.id, method: "pix", pix: { kind: "cob", expires_in: 3600 } } })).body;
    const cobToken = cob.payment_page_url.split("/pay/")[1];
    expect(await loadPaymentPage(cobToken, "sandbox")).toMatchObject({ payable: true });
    await db().charge.update({ where: { id: cob.id }, data: { expiresAt: new Date(Date.now() - 1000), pix: { ...cob.pix, expires_at: new Date(Date.now() - 1000).toISOString() } } });
    expect(await loadPaymentPage(cobToken, "sandbox")).toMatchObject({ payable: false, notice: "Esta cobrança expirou. Peça uma nova ao credor.", qrSvg: null });
  });
});
