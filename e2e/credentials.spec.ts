import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";

type Fixture = { tenantId: string; owner: { email: string; password: string }; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;


test("an admin creates a sandbox key, calls /v1/health with it, revokes it and gets 401", async ({ page, request }) => {
  const { tenantId, owner } = fixture();
  await signIn(page, owner);
  await expect(page.getByTestId("tenant-id")).toHaveText(tenantId);

  await page.getByRole("link", { name: "API Keys" }).click();
  await page.getByLabel("Name").fill("E2E integration");
  await page.getByRole("radio", { name: "sandbox" }).check();
  await page.getByRole("checkbox", { name: "read (every resource)", exact: true }).check();
  await page.getByRole("button", { name: "Create API key" }).click();
  const secret = page.getByTestId("secret-API key");
  await expect(secret).toHaveText(/^sk_test_/);
  const key = (await secret.textContent())!;
  await page.getByRole("button", { name: "Copy" }).click();

  const row = page.getByRole("row", { name: /E2E integration/ });
  await expect(row).toContainText("sandbox");
  await expect(row).toContainText(`…${key.slice(-4)}`);
  await expect(row).toContainText(owner.email);

  const headers = { authorization: `Bearer ${key}`, "x-tenant-id": tenantId };
  const ok = await request.get("/v1/health", { headers });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toEqual({ status: "ok", environment: "sandbox", version: "1.4.0", tenant: tenantId });

  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("secret-API key")).toHaveCount(0);
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Confirm revoke" }).click();
  await expect(row).toContainText("Revoked");

  const after = await request.get("/v1/health", { headers });
  expect(after.status()).toBe(401);
  expect((await after.json()).code).toBe("invalid_api_key");
});

test("the key form starts in the environment on screen: a key made while production is shown is a production key", async ({ page }) => {
  const { owner } = fixture();
  await signIn(page, owner);
  await page.getByRole("link", { name: "API Keys" }).click();
  await expect(page.getByRole("radio", { name: "sandbox" })).toBeChecked();
  await page.getByRole("combobox", { name: "Environment" }).selectOption("production");
  await expect(page.getByTestId("environment-badge")).toHaveText("Production · live data");
  await expect(page.getByRole("radio", { name: "production" })).toBeChecked();
  await page.getByLabel("Name").fill("E2E ERP production");
  await page.getByRole("checkbox", { name: "read (every resource)", exact: true }).check();
  await page.getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByText("API key created (production)")).toBeVisible();
  await expect(page.getByTestId("secret-API key")).toHaveText(/^sk_live_/);
  await expect(page.getByRole("row", { name: /E2E ERP production/ })).toContainText("production");
  await page.getByRole("button", { name: "I have stored it" }).click();
  await page.getByRole("combobox", { name: "Environment" }).selectOption("sandbox");
  await expect(page.getByRole("radio", { name: "sandbox" })).toBeChecked();
});

test("an admin creates an OAuth client whose token works on /v1/health", async ({ page, request }) => {
  const { tenantId, owner } = fixture();
  await signIn(page, owner);
  await page.getByRole("link", { name: "OAuth clients" }).click();
  await page.getByLabel("Name").fill("E2E server");
  await page.getByRole("button", { name: "Create OAuth client" }).click();
  const clientId = (await page.getByTestId("secret-client_id").textContent())!;
  const clientSecret = (await page.getByTestId("secret-client_secret").textContent())!;
  expect(clientId).toMatch(/^ci_test_/);

  const token = await request.post("/v1/auth/token", {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret, scope: "read" },
  });
  expect(token.status()).toBe(200);
  const { access_token } = await token.json();
  const ok = await request.get("/v1/health", { headers: { authorization: `Bearer ${access_token}`, "x-tenant-id": tenantId } });
  expect(await ok.json()).toEqual({ status: "ok", environment: "sandbox", version: "1.4.0", tenant: tenantId });
});

test("support staff see no credential settings and the server refuses them", async ({ page }) => {
  const { support } = fixture();
  await signIn(page, support);
  await expect(page.getByRole("link", { name: "API Keys" })).toHaveCount(0);
  await page.goto("/settings/api-keys");
  // (not getByRole("alert"): Next's route announcer is an alert too)
  await expect(page.getByText("Only owners and admins manage credentials.")).toBeVisible();
  const listed = await page.evaluate(async () => {
    const r = await fetch("/api/panel/api-keys");
    return { status: r.status, body: await r.json() };
  });
  expect(listed.status).toBe(403);
  expect(listed.body.code).toBe("forbidden");
  const created = await page.evaluate(async () => {
    const r = await fetch("/api/panel/api-keys", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "x", environment: "sandbox", permissions: ["read"] }) });
    return r.status;
  });
  expect(created).toBe(403);
});
