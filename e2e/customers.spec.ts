import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { randomCpf } from "./random-cpf";
import { signIn } from "./sign-in";
import { v1Client } from "./v1-client";

// Erasing a customer's data at the person's request (LGPD) from the customer's file: an owner erases a lead (a customer
// with a simulation, no proposal) after confirming, and the API no longer knows it; support staff are not offered it and
// the server refuses them; a customer with a proposal is not offered it.

type Fixture = { tenantId: string; sandboxKey: string; owner: { email: string; password: string }; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

test("an owner erases a lead's data from its file after confirming; the API then answers 404", async ({ page }) => {
  const { tenantId, sandboxKey, owner } = fixture();
  const { post } = v1Client(page.request, sandboxKey, tenantId);
  const lead = await post("/v1/customers", { document: randomCpf(), name: "Lia Apagada", birth_date: "1985-03-04" });
  await post("/v1/simulations", { product: "personal_loan", requested_amount: 100_000, term: 6, monthly_rate: "0.0250", customer_id: lead.id });

  await signIn(page, owner);
  await page.goto(`/customers/${lead.id}?environment=sandbox`);
  await expect(page.getByRole("heading", { name: "Lia Apagada" })).toBeVisible();
  await page.getByRole("button", { name: "Erase customer data" }).click();
  await expect(page.getByRole("alertdialog", { name: "Erase Lia Apagada's data for good? This cannot be undone." })).toBeVisible();
  await page.getByRole("button", { name: "Erase", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "The customer's data was erased." })).toBeVisible();

  const after = await page.request.get(`/v1/customers/${lead.id}`, { headers: { authorization: `Bearer ${sandboxKey}`, "x-tenant-id": tenantId } });
  expect(after.status()).toBe(404);
});

test("support staff are not offered the erasure and the server refuses them; a customer with a proposal is not offered it", async ({ page }) => {
  const { tenantId, sandboxKey, owner, support } = fixture();
  const { post, submittedProposal } = v1Client(page.request, sandboxKey, tenantId);
  const lead = await post("/v1/customers", { document: randomCpf(), name: "Rui Mantido" });
  const { customer: borrower } = await submittedProposal("Bia Proposta");

  await signIn(page, support);
  await page.goto(`/customers/${lead.id}?environment=sandbox`);
  await expect(page.getByRole("heading", { name: "Rui Mantido" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Erase customer data" })).toHaveCount(0);
  const refused = await page.evaluate(async (id) => {
    const r = await fetch(`/api/panel/customers/${id}/erase?environment=sandbox`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    return { status: r.status, code: (await r.json()).code };
  }, lead.id);
  expect(refused).toEqual({ status: 403, code: "forbidden" });

  await page.context().clearCookies();
  await signIn(page, owner);
  await page.goto(`/customers/${borrower.id}?environment=sandbox`);
  await expect(page.getByRole("heading", { name: "Bia Proposta" })).toBeVisible();
  await expect(page.getByTestId("customer-proposal")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Erase customer data" })).toHaveCount(0);
  const kept = await page.request.get(`/v1/customers/${lead.id}`, { headers: { authorization: `Bearer ${sandboxKey}`, "x-tenant-id": tenantId } });
  expect(kept.status()).toBe(200);
});
