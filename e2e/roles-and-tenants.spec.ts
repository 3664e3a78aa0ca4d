import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { signIn } from "./sign-in";
import { v1Client } from "./v1-client";

// Issue 12's promises about who sees what: a member of two tenants sees only the active tenant's data, right after a
// switch (no previous tenant's rows from the cache) and acts on it without a 404; a viewer reads a proposal waiting for
// review but gets no approve/reject buttons, and the server refuses the review anyway.

const stamp = () => Date.now().toString(36);

test("switching tenant shows only that tenant's keys, at once, and revoking there works", async ({ page }) => {
  const id = stamp();
  const email = `both-${id}@example.test`;
  cli("tenants", ["create", "--slug", `alpha-${id}`, "--name", `Alpha ${id}`, "--owner-email", email, "--owner-password", "both-password-123"]);
  cli("tenants", ["create", "--slug", `beta-${id}`, "--name", `Beta ${id}`, "--owner-email", email]); // the same account: its password stays
  cli("keys", ["create", "--tenant", `alpha-${id}`, "--environment", "sandbox", "--name", "Alpha integration"]);
  cli("keys", ["create", "--tenant", `beta-${id}`, "--environment", "sandbox", "--name", "Beta integration"]);

  await signIn(page, { email, password: "both-password-123" });
  await page.getByLabel("Tenant").selectOption({ label: `Alpha ${id}` });
  await expect(page.getByRole("heading", { name: `Alpha ${id}` })).toBeVisible();
  await page.getByRole("link", { name: "API Keys" }).click();
  await expect(page.getByRole("cell", { name: "Alpha integration" })).toBeVisible();

  await page.getByLabel("Tenant").selectOption({ label: `Beta ${id}` });
  await expect(page.getByRole("cell", { name: "Beta integration" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Alpha integration" })).toHaveCount(0);
  const row = page.getByRole("row").filter({ hasText: "Beta integration" });
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Confirm revoke" }).click();
  await expect(row).toContainText("Revoked");
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);

  await page.getByLabel("Tenant").selectOption({ label: `Alpha ${id}` });
  await expect(page.getByRole("cell", { name: "Alpha integration" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Beta integration" })).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: "Alpha integration" })).not.toContainText("Revoked");
});

test("a tab still showing the previous tenant after another tab switched reloads instead of writing to the new one", async ({ page }) => {
  const id = stamp();
  const email = `tabs-${id}@example.test`;
  cli("tenants", ["create", "--slug", `tab-a-${id}`, "--name", `Tab A ${id}`, "--owner-email", email, "--owner-password", "tabs-password-123"]);
  const b = cli("tenants", ["create", "--slug", `tab-b-${id}`, "--name", `Tab B ${id}`, "--owner-email", email]);
  cli("keys", ["create", "--tenant", `tab-b-${id}`, "--environment", "sandbox", "--name", "B integration"]);

  await signIn(page, { email, password: "tabs-password-123" });
  await page.getByLabel("Tenant").selectOption({ label: `Tab A ${id}` });
  await expect(page.getByRole("heading", { name: `Tab A ${id}` })).toBeVisible();
  await page.getByRole("link", { name: "API Keys" }).click();
  await page.getByLabel("Name").fill("Meant for A");
  await page.getByRole("checkbox", { name: "read (every resource)", exact: true }).check();

  // Another tab of the same browser switches to B.
  const other = await page.context().newPage();
  await other.goto("/");
  await other.getByLabel("Tenant").selectOption({ label: `Tab B ${id}` });
  await expect(other.getByRole("heading", { name: `Tab B ${id}` })).toBeVisible();

  // The first tab still shows A's form: its write is refused and the page reloads into B, the active tenant.
  await page.getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByRole("cell", { name: "B integration" })).toBeVisible();
  await expect(page.getByLabel("Tenant")).toHaveValue(String(b.tenant_id));
  await expect(page.getByRole("cell", { name: "Meant for A" })).toHaveCount(0);
  await expect(page.getByTestId("secret-API key")).toHaveCount(0);
  // Nor was it made in A.
  await page.getByLabel("Tenant").selectOption({ label: `Tab A ${id}` });
  await expect(page.getByRole("heading", { name: "Settings → API Keys" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Meant for A" })).toHaveCount(0);
  await other.close();
});

test("a viewer reads a proposal waiting for review but cannot approve or reject it", async ({ page }) => {
  const id = stamp();
  const slug = `view-${id}`;
  const created = cli("tenants", ["create", "--slug", slug, "--name", "Viewer Crédito", "--owner-email", `owner@${slug}.test`, "--owner-password", "owner-password-123"]);
  cli("tenants", ["add-member", "--tenant", slug, "--email", `viewer@${slug}.test`, "--role", "viewer", "--password", "viewer-password-123"]);
  const key = cli("keys", ["create", "--tenant", slug, "--environment", "sandbox", "--permissions", "read write", "--name", "viewer test"]);
  const api = v1Client(page.request, String(key.key), String(created.tenant_id));
  const { proposal } = await api.submittedProposal("Valéria Visualização");

  await signIn(page, { email: `viewer@${slug}.test`, password: "viewer-password-123" });
  await page.getByRole("link", { name: "Proposals" }).click();
  await page.getByRole("link", { name: "Valéria Visualização" }).click();
  await expect(page.getByTestId("proposal-status")).toHaveText("pending review");
  await expect(page.getByTestId("schedule-row")).toHaveCount(6);
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Reject" })).toHaveCount(0);
  const status = await page.evaluate(async (proposalId) => {
    const r = await fetch(`/api/panel/proposals/${proposalId}/review?environment=sandbox`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ decision: "approve", reason: "forged" }) });
    return r.status;
  }, proposal.id);
  expect(status).toBe(403);
  const after = await api.get(`/v1/proposals/${proposal.id}`);
  expect(after.status).toBe("pending_review");
});
