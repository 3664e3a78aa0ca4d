import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";

// Settings → Collection account: an owner sets the production account (a wrong CNPJ is refused on its field),
// sees it saved after a reload, and the sandbox keeps the shared default; support staff cannot see or change it.

type Fixture = { owner: { email: string; password: string }; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

test("an owner sets the production collection account; support staff are refused", async ({ page }) => {
  const { owner, support } = fixture();
  await signIn(page, owner);
  await page.getByRole("link", { name: "Collection account" }).click();
  await expect(page.getByRole("heading", { name: "Settings → Collection account" })).toBeVisible();
  await page.getByLabel("Environment").selectOption("production");
  await expect(page.getByTestId("environment-badge")).toHaveText("Production · live data");
  await expect(page.getByTestId("account-state")).toHaveText("No collection account yet: charges in this environment answer 409 until one is saved.");

  const agreement = String(3_000_000 + Math.floor(Math.random() * 6_000_000));
  await page.getByLabel("Agreement (convênio)").fill("123"); // wrong too: both errors come back at once
  await page.getByLabel("Beneficiary name").fill("E2E Crédito SCD S.A.");
  await page.getByLabel("Beneficiary CNPJ").fill("11.222.333/0001-82");
  await page.getByLabel("City").fill("Curitiba");
  await page.getByLabel("Pix location base").fill("pix.e2e-psp.example/qr/v2");
  await page.getByRole("button", { name: "Save collection account" }).click();
  await expect(page.getByText("7 digits").first()).toBeVisible();
  await expect(page.getByText("The CNPJ's check digits do not match").first()).toBeVisible();
  await page.getByLabel("Agreement (convênio)").fill(agreement);
  await page.getByLabel("Beneficiary name").fill("E2E Crédito SCD S.A.");
  await page.getByLabel("Beneficiary CNPJ").fill("11.222.333/0001-82");
  await page.getByLabel("City").fill("Curitiba");
  await page.getByLabel("Pix location base").fill("pix.e2e-psp.example/qr/v2");
  await page.getByRole("button", { name: "Save collection account" }).click();
  await expect(page.getByText("The CNPJ's check digits do not match").first()).toBeVisible();

  await page.getByLabel("Beneficiary CNPJ").fill("11.222.333/0001-81");
  await page.getByRole("button", { name: "Save collection account" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Collection account saved for production." })).toBeVisible();
  await expect(page.getByTestId("account-state")).toHaveText(/^Saved /);

  await page.reload();
  await expect(page.getByLabel("Agreement (convênio)")).toHaveValue(agreement);
  await expect(page.getByLabel("Beneficiary CNPJ")).toHaveValue("11.222.333/0001-81");
  await expect(page.getByTestId("environment-badge")).toHaveText("Production · live data"); // kept across reloads
  await page.getByLabel("Environment").selectOption("sandbox");
  await expect(page.getByTestId("environment-badge")).toHaveText("Sandbox · test data");
  await expect(page.getByTestId("account-state")).toHaveText("Using the shared sandbox account (agreement 1234567). Save your own to replace it.");

  await page.context().clearCookies();
  await signIn(page, support);
  await expect(page.getByRole("link", { name: "Collection account" })).toHaveCount(0);
  await page.goto("/settings/collection-account");
  await expect(page.getByText("Only owners and admins manage the collection account.")).toBeVisible();
  const put = await page.evaluate(async () => {
    const r = await fetch("/api/panel/collection-account", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ environment: "production" }) });
    return r.status;
  });
  expect(put).toBe(403);
});
