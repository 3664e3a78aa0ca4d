import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";

// /docs: the interactive API reference, reached from the panel, served entirely by the app (no request leaves
// for another host), and its "Test Request" calls the sandbox with the key and tenant id the reader pastes.

type Fixture = { tenantId: string; sandboxKey: string; owner: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

test("the API reference is linked from the panel, loads nothing from elsewhere, and tries GET /v1/health on the sandbox", async ({ page }) => {
  const { owner, tenantId, sandboxKey } = fixture();
  const foreign: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith("http") && !["localhost", "127.0.0.1"].includes(url.hostname)) foreign.push(r.url());
  });
  const violations: string[] = [];
  page.on("console", (m) => m.text().includes("Content Security Policy") && violations.push(m.text()));

  await signIn(page, owner);
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs/);
  await expect(page.getByRole("heading", { name: "Credit Platform API", level: 1 })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText("Webhooks").first()).toBeVisible();

  await page.goto("/docs#tag/platform/GET/v1/health");
  await page.getByRole("button", { name: "Test Request" }).first().click();
  const client = page.getByRole("dialog");
  await client.getByPlaceholder("Token").fill(sandboxKey);
  const tenantValue = client.getByRole("row").filter({ hasText: "X-Tenant-Id" }).getByRole("combobox", { name: "Value" });
  await tenantValue.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(tenantId);
  await client.getByRole("button", { name: /^Send get request/ }).click();
  await expect(client.getByRole("link", { name: "200 OK" })).toBeVisible();
  await expect(client.getByRole("region", { name: "Body" })).toContainText(`"tenant": "${tenantId}"`);

  expect(foreign).toEqual([]);
  expect(violations).toEqual([]);
});
