import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";
import { v1Client } from "./v1-client";

// Every panel page (issue 12) at 1280 px and 390 px: a screenshot kept with the test's artifacts, no serious or critical
// accessibility violation (axe), no horizontal scrolling at phone width, and not one console error (hydration included).

type Fixture = { tenantId: string; sandboxKey: string; owner: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;
const WIDTHS = [1280, 390] as const;

async function check(page: Page, name: string, path: string, heading: string | RegExp) {
  for (const width of WIDTHS) {
    await test.step(`${name} at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState("networkidle");
      await expect(page.getByText("Loading…")).toHaveCount(0);
      const file = test.info().outputPath(`${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      await test.info().attach(`${name}-${width}`, { path: file, contentType: "image/png" });
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect.soft(serious.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) })), `${name} at ${width} px`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect.soft(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    });
  }
}

test("every panel page: screenshots at two widths, no serious accessibility violation, no sideways scroll, no console error", async ({ page }) => {
  test.setTimeout(480_000);
  const { tenantId, sandboxKey, owner } = fixture();
  const errors: string[] = [];
  page.on("console", (message) => {
    // The unknown page's own 404 is the one expected "failed to load".
    if (message.type() === "error" && !new URL(message.location().url, "http://x").pathname.endsWith("/no-such-page")) errors.push(`${message.location().url}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(error.message));

  // One object of each kind to open: a contract (with its proposal and customer) made through /v1.
  const api = v1Client(page.request, sandboxKey, tenantId);
  const { customer, proposal, contract } = await api.issuedContract("Quésia Qualidade de Almeida Figueiredo Nascimento Junqueira", 150_000);
  await api.post("/v1/charges", { contract_id: contract.id, method: "pix" });

  await check(page, "login", "/login", "Credit Platform");
  await check(page, "forgot-password", "/forgot-password", "Forgot your password?");
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, owner);
  const pages: [string, string, string | RegExp][] = [
    ["overview", "/", "E2E Crédito"],
    ["proposals", "/proposals", "Proposals"],
    ["proposal", `/proposals/${proposal.id}?environment=sandbox`, /Proposal/],
    ["contracts", "/contracts", "Contracts"],
    ["contract", `/contracts/${contract.id}?environment=sandbox`, `Contract ${contract.number}`],
    ["customers", "/customers", "Customers"],
    ["customer", `/customers/${customer.id}?environment=sandbox`, customer.name],
    ["api-keys", "/settings/api-keys", /API Keys/],
    ["oauth-clients", "/settings/oauth-clients", /OAuth clients/],
    ["collection-account", "/settings/collection-account", /Collection account/],
    ["webhooks", "/settings/webhooks", /Webhooks/],
    ["members", "/settings/members", /Members/],
    ["audit-log", "/settings/audit-log", /Audit log/],
    ["account", "/settings/account", "Your account"],
    ["not-found", "/no-such-page", "Page not found"],
  ];
  for (const [name, path, heading] of pages) await check(page, name, path, heading);
  expect(errors).toEqual([]);
});
