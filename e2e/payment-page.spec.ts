import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { barWidths, decodeI2of5 } from "../tests/helpers/i2of5";
import { FIXTURE } from "./global-setup";

// The borrower's printable payment page, opened from a charge's `payment_page_url` in a real browser with no
// session: the boleto's linha digitável and its barcode (read back bar by bar), the Pix QR code (read back
// from the rendered pixels by a QR reader), and nothing for a tampered link.

type Fixture = { tenantId: string; sandboxKey: string };

async function api(request: APIRequestContext, method: "GET" | "POST", path: string, json?: unknown) {
  const { tenantId, sandboxKey } = JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;
  const res = await request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${sandboxKey}`, "x-tenant-id": tenantId, "content-type": "application/json", "x-request-id": crypto.randomUUID() },
    data: json === undefined ? undefined : JSON.stringify(json),
  });
  const body = await res.json();
  if (res.status() >= 300) throw new Error(`${method} ${path}: ${res.status()} ${JSON.stringify(body)}`);
  return body;
}

/** An active INSS payroll contract built through /v1, as an integrator would (sandbox authority). */
async function activeContract(request: APIRequestContext): Promise<string> {
  const base = String(100_000_000 + Math.floor(Math.random() * 899_999_999)).slice(0, 9);
  const digits = [...base].map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((s, d, i) => s + d * (length + 1 - i), 0);
    digits.push(((sum * 10) % 11) % 10);
  }
  const customer = await api(request, "POST", "/v1/customers", {
    document: digits.join(""),
    name: "Maria da Silva",
    birth_date: "1960-05-10",
    payroll: { type: "inss", benefit_number: "1234567890" },
  });
  const margin = await api(request, "POST", "/v1/payroll/margin-queries", { customer_id: customer.id });
  const simulation = await api(request, "POST", "/v1/simulations", {
    product: "inss_payroll",
    requested_amount: 500000,
    term: 12,
    monthly_rate: "0.0180",
    customer_id: customer.id,
  });
  const proposal = await api(request, "POST", "/v1/proposals", { customer_id: customer.id, simulation_id: simulation.id, margin_query_id: margin.id });
  for (const action of ["submit", "approve", "sign"]) await api(request, "POST", `/v1/proposals/${proposal.id}/${action}`);
  await api(request, "POST", "/v1/payroll/endorsements", { proposal_id: proposal.id });
  return (await api(request, "POST", "/v1/contracts", { proposal_id: proposal.id })).id;
}

test("a borrower opens and prints a boleto and a Pix charge; a tampered link is not found", async ({ page, request }) => {
  const contractId = await activeContract(request);
  const boleto = await api(request, "POST", "/v1/charges", { contract_id: contractId, method: "boleto" });

  await page.goto(boleto.payment_page_url);
  await expect(page.getByRole("heading", { name: "Boleto de pagamento" })).toBeVisible();
  await expect(page.getByTestId("digitable-line")).toHaveText(boleto.boleto.digitable_line);
  const reais = String(boleto.amount).padStart(3, "0");
  await expect(page.getByTestId("amount")).toHaveText(`R$ ${reais.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${reais.slice(-2)}`);
  const barcode = page.getByTestId("barcode");
  await expect(barcode).toBeVisible();
  const box = (await barcode.locator("svg").boundingBox())!;
  expect(box.width).toBeGreaterThan(350); // 103 mm at 96 dpi ≈ 389 px
  expect(decodeI2of5(barWidths(await barcode.innerHTML()))).toBe(boleto.boleto.barcode);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Imprimir" })).toBeHidden();
  await expect(barcode).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  const pix = await api(request, "POST", "/v1/charges", { contract_id: contractId, method: "pix", pix: { kind: "cob", expires_in: 3600 } });
  await page.goto(pix.payment_page_url);
  await expect(page.getByRole("heading", { name: "Pagamento por Pix" })).toBeVisible();
  await expect(page.getByTestId("brcode")).toHaveValue(pix.pix.brcode);
  const shot = PNG.sync.read(await page.getByTestId("qr-code").screenshot());
  expect(jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data).toBe(pix.pix.brcode);

  await api(request, "POST", `/v1/charges/${pix.id}/cancel`);
  await page.reload();
  await expect(page.getByTestId("charge-status")).toHaveText("Esta cobrança foi cancelada. Peça uma nova ao credor.");
  await expect(page.getByTestId("qr-code")).toHaveCount(0);
  await expect(page.getByTestId("amount")).toHaveCount(0); // no amount (nor payer) once it cannot be paid

  const tampered = boleto.payment_page_url.replace(/.$/, (c: string) => (c === "A" ? "B" : "A"));
  const missing = await page.goto(tampered);
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("digitable-line")).toHaveCount(0);
});
