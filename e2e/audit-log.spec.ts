import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { randomCpf } from "./random-cpf";
import { signIn } from "./sign-in";

// Settings → Audit log: an owner sees who did what (the CLI onboarding the tenant and making the integrator's key),
// filters by action prefix; support staff neither see the page nor pass the server's check.

type Fixture = { tenantId: string; sandboxKey: string; owner: { email: string; password: string }; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

test("an owner reads and filters the audit log; support staff are refused", async ({ page }) => {
  const { tenantId, sandboxKey, owner, support } = fixture();
  // The integrator's key writes something (a customer), so the log has an entry of its own.
  const made = await page.request.post("/v1/customers", {
    headers: { authorization: `Bearer ${sandboxKey}`, "x-tenant-id": tenantId, "content-type": "application/json" },
    data: { document: randomCpf(), name: "Auditada da Silva" },
  });
  expect(made.status()).toBe(201);
  await signIn(page, owner);
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Settings → Audit log" })).toBeVisible();
  await expect(page.getByTestId("audit-row").filter({ hasText: "tenant.created" })).toHaveCount(1);
  await page.getByLabel("Action").fill("api_key.");
  await page.getByRole("button", { name: "Apply" }).click();
  const rows = page.getByTestId("audit-row");
  await expect(rows.first()).toContainText("api_key.created");
  // Details as "name: value" lines, not raw JSON.
  await expect(rows.first().getByTestId("audit-details")).toContainText(/permissions: \S/);
  await expect(rows.first().getByTestId("audit-details")).not.toContainText("{");
  await expect(rows.filter({ hasText: "tenant.created" })).toHaveCount(0);
  // A key's own actions, found by the key's name and shown by it (its id below).
  await page.getByLabel("Action").fill("");
  await page.getByLabel("Actor").fill("e2e INTEGRATOR");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows.first()).toContainText(/E2E integrator \(…[^)]{4}\)api_key:key_/); // the last four may be - or _
  await expect(rows.filter({ hasNotText: "E2E integrator" })).toHaveCount(0);
  await page.getByLabel("Actor").fill("nobody-at-all");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No entries match these filters.")).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, support);
  await expect(page.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await page.goto("/settings/audit-log");
  await expect(page.getByText("Only owners and admins manage the audit log.")).toBeVisible();
  expect(await page.evaluate(async () => (await fetch("/api/panel/audit-log")).status)).toBe(403);
});
