import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { randomCpf } from "./random-cpf";
import { signIn } from "./sign-in";

// The support staff's day: a proposal made and submitted through /v1 waits in the panel's queue; support finds it
// by CPF, reads the dossier (terms, schedule, risk reason codes), and approves it with a reason, confirmed first —
// the same transition and audit log as the API.

type Fixture = { tenantId: string; sandboxKey: string; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;


test("support finds a submitted proposal by CPF, reads its dossier and approves it with a reason", async ({ page }) => {
  const { tenantId, sandboxKey, support } = fixture();
  const api = { authorization: `Bearer ${sandboxKey}`, "x-tenant-id": tenantId, "content-type": "application/json" };
  const cpf = randomCpf();
  const name = `Joana Revisão ${cpf.slice(0, 4)}`;
  const customer = await (await page.request.post("/v1/customers", { headers: api, data: { document: cpf, name, birth_date: "1980-01-01" } })).json();
  const simulation = await (
    await page.request.post("/v1/simulations", { headers: api, data: { product: "personal_loan", requested_amount: 300_000, term: 12, monthly_rate: "0.0299", customer_id: customer.id } })
  ).json();
  const proposal = await (await page.request.post("/v1/proposals", { headers: api, data: { customer_id: customer.id, simulation_id: simulation.id } })).json();
  const submitted = await page.request.post(`/v1/proposals/${proposal.id}/submit`, { headers: api });
  expect((await submitted.json()).status).toBe("pending_review");

  await signIn(page, support);
  await page.getByRole("link", { name: "Proposals" }).click();
  await expect(page.getByRole("heading", { name: "Proposals" })).toBeVisible();
  await page.getByLabel("Search").fill(`${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`);
  await page.getByRole("button", { name: "Apply" }).click();
  const row = page.getByTestId("proposal-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("pending review");
  await row.getByRole("link", { name }).click();

  await expect(page.getByTestId("proposal-status")).toHaveText("pending review");
  await expect(page.getByTestId("schedule-row")).toHaveCount(12);
  await expect(page.getByRole("list", { name: "Reason codes" })).toContainText("income_not_declared");
  await expect(page.getByTestId("exposure")).toHaveText("No contract in collection with us"); // what the customer already owes

  // The reason is mandatory: the decisions wait for it (the server refuses one without it too: tests/panel).
  await expect(page.getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Reject" })).toBeDisabled();
  await page.getByLabel("Reason (required)").fill("ok");
  await expect(page.getByRole("button", { name: "Approve" })).toBeDisabled();
  // The customer's page is a click away (their other contracts and proposals).
  await expect(page.getByRole("link", { name })).toHaveAttribute("href", /^\/customers\/cus_[0-9A-Z]{26}\?environment=sandbox$/);

  await page.getByLabel("Reason (required)").fill("Payslip checked by phone");
  await page.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("button", { name: "Confirm approval" }).click();
  await expect(page.getByTestId("proposal-status")).toHaveText("approved");
  await expect(page.getByTestId("history-entry").filter({ hasText: "proposal.approved" })).toContainText(`by ${support.email} — “Payslip checked by phone”`);
  // The integrator's key by the name its admin gave it (and its last four characters), not by an internal id.
  await expect(page.getByTestId("history-entry").filter({ hasText: "proposal.submitted" })).toContainText(`by E2E integrator (…${sandboxKey.slice(-4)})`);
  const viaApi = await (await page.request.get(`/v1/proposals/${proposal.id}`, { headers: api })).json();
  expect(viaApi).toMatchObject({ status: "approved", reason: "Payslip checked by phone" });

  // The queue shows proposals waiting for review by default; "any" status is kept in the address, so a reload or a
  // shared link shows the approved one too (an emptied filter used to fall back to the default).
  await page.goto("/proposals");
  await page.getByLabel("Search").fill(cpf);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole("combobox", { name: "Status" }).selectOption("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("approved");
  await expect(page).toHaveURL(/[?&]status=(&|$)/);
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("");
  await expect(row).toHaveCount(1);
});
