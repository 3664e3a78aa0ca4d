import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";

// Settings → Audit log: an owner sees who did what (the CLI onboarding the tenant and making the integrator's key),
// filters by action prefix; support staff neither see the page nor pass the server's check.

type Fixture = { owner: { email: string; password: string }; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

test("an owner reads and filters the audit log; support staff are refused", async ({ page }) => {
  const { owner, support } = fixture();
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
