import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { lateContractDates } from "../tests/credit/contract-dates";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";
import { v1Client } from "./v1-client";

// A contract's file in the panel: a personal loan issued through /v1, charged by Pix and paid in the sandbox, is
// found by its CCB number and shows its installments, the Pix copy-and-paste code and QR, the payment, the borrower's
// credit and what of it was refunded, today's payoff quote and the timeline of its events; its customer's page lists the proposal and the contract.

type Fixture = { tenantId: string; sandboxKey: string; owner: { email: string; password: string }; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;


test("support opens a contract by its number and sees installments, the Pix charge, the payment and the timeline", async ({ page }) => {
  const { tenantId, sandboxKey, support } = fixture();
  const { post, issuedContract } = v1Client(page.request, sandboxKey, tenantId);
  const { proposal, contract } = await issuedContract("Carlos Contrato");
  const charge = await post("/v1/charges", { contract_id: contract.id, method: "pix" });
  const second = await post("/v1/charges", { contract_id: contract.id, method: "pix" });
  // Paid with R$ 50,00 more than asked: the rest is the borrower's credit; the first charge, for the same installment, is canceled.
  await post(`/v1/sandbox/charges/${second.id}/pay`, { amount: second.amount + 5000 });
  // R$ 20,00 of it paid back to the borrower and recorded.
  const refund = await post("/v1/refunds", { contract_id: contract.id, amount: 2000, method: "pix", reference: "E2E-REF-1" });

  await signIn(page, support);
  await page.getByRole("link", { name: "Contracts" }).click();
  await page.getByLabel("Search").fill(contract.number);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("contract-row")).toHaveCount(1);
  await page.getByRole("link", { name: contract.number }).click();

  await expect(page.getByRole("heading", { name: `Contract ${contract.number}` })).toBeVisible();
  await expect(page.getByTestId("contract-status")).toHaveText("active");
  await expect(page.getByTestId("installment-row")).toHaveCount(6);
  await expect(page.getByTestId("pix-brcode").first()).toHaveText(second.pix.brcode);
  await expect(page.getByTestId("pix-brcode").nth(1)).toHaveText(charge.pix.brcode);
  await expect(page.getByRole("img", { name: `Pix QR code of charge ${charge.id}` })).toBeVisible();
  await expect(page.getByTestId("charge-collects").first()).toHaveText("installment(s) #1 ·"); // which installment a charge is for
  await expect(page.getByTestId("payment")).toContainText("by Pix");
  await expect(page.getByTestId("payoff-quote")).toContainText("Payoff today");
  await expect(page.getByTestId("credit-balance")).toHaveText(/^Borrower's credit \(paid beyond what was owed; a payoff uses it\): R\$\s30,00$/);
  await expect(page.getByTestId("refund")).toHaveText(new RegExp(`^Refund ${refund.id}: R\\$\\s20,00 paid back by PIX on \\d{2}/\\d{2}/\\d{4} — reference E2E-REF-1$`));
  // Each event in words, its code beside it.
  await expect(page.getByTestId("timeline-entry").filter({ hasText: "contract.issued" })).toContainText("contract issued");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("contract.issued");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("charge.paid");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("payment.received");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("charge.canceled");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("refund.created");
  // Recording refunds is for owners and admins: support sees them only.
  await expect(page.getByRole("heading", { name: "Record a refund" })).toHaveCount(0);

  // The customer's page lists the proposal and the contract.
  await page.getByRole("link", { name: "Carlos Contrato" }).click();
  await expect(page.getByRole("heading", { name: "Carlos Contrato" })).toBeVisible();
  await expect(page.getByTestId("customer-proposal")).toContainText(proposal.id);
  await expect(page.getByTestId("customer-proposal")).toContainText("contract issued");
  await expect(page.getByTestId("customer-contract")).toContainText(contract.number);
});

test("an owner records a refund of the borrower's credit from the contract file; the credit goes down and the refund is listed", async ({ page }) => {
  const { tenantId, sandboxKey, owner } = fixture();
  const { post, issuedContract } = v1Client(page.request, sandboxKey, tenantId);
  const { contract } = await issuedContract("Renata Reembolso");
  const charge = await post("/v1/charges", { contract_id: contract.id, method: "pix" });
  await post(`/v1/sandbox/charges/${charge.id}/pay`, { amount: charge.amount + 4550 }); // R$ 45,50 paid beyond what was owed

  await signIn(page, owner);
  await page.goto(`/contracts/${contract.id}?environment=sandbox`);
  await expect(page.getByTestId("credit-balance")).toContainText("R$ 45,50");
  const form = page.getByRole("region", { name: "Record a refund" });
  await expect(form.getByLabel("Amount (R$)")).toHaveValue("45,50");
  // More than the credit: the server refuses it, nothing changes.
  await form.getByLabel("Amount (R$)").fill("50,00");
  await form.getByRole("button", { name: "Record refund" }).click();
  await form.getByRole("button", { name: "Record", exact: true }).click();
  await expect(form.getByRole("alert")).toContainText("refundable credit is 4550 centavos");
  await expect(page.getByTestId("refund")).toHaveCount(0);

  await form.getByLabel("Amount (R$)").fill("30,50");
  await form.getByLabel("Sent by").selectOption("ted");
  await form.getByLabel("Bank reference (optional)").fill("TED-778899");
  await form.getByRole("button", { name: "Record refund" }).click();
  await expect(form.getByRole("alertdialog")).toContainText("Record that R$ 30,50 went back to the borrower?");
  await form.getByRole("button", { name: "Record", exact: true }).click();
  await expect(page.getByTestId("refund")).toHaveText(/^Refund rfd_[0-9A-Z]{26}: R\$\s30,50 paid back by TED on \d{2}\/\d{2}\/\d{4} — reference TED-778899$/);
  await expect(page.getByTestId("credit-balance")).toContainText("R$ 15,00");
  await expect(page.getByRole("region", { name: "Record a refund" }).getByLabel("Amount (R$)")).toHaveValue("15,00");
});

test("support issues a new boleto from the contract file (the borrower's second copy); it is listed with its digitable line", async ({ page }) => {
  const { tenantId, sandboxKey, support } = fixture();
  const { issuedContract, get } = v1Client(page.request, sandboxKey, tenantId);
  const { contract } = await issuedContract("Bianca Boleto");

  await signIn(page, support);
  await page.goto(`/contracts/${contract.id}?environment=sandbox`);
  const form = page.getByRole("region", { name: "Issue a charge" });
  // Nothing is due yet: the oldest open installment is ticked; the others may be added.
  await expect(form.getByRole("checkbox", { name: /^#1 due / })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: /^#2 due / })).not.toBeChecked();
  await form.getByRole("checkbox", { name: /^#2 due / }).check();
  await form.getByLabel("Method").selectOption("boleto");
  await form.getByRole("button", { name: "Issue charge" }).click();
  await expect(form.getByRole("status")).toContainText(/^Charge chg_\w+ issued/);
  const charges = await get(`/v1/charges?contract_id=${contract.id}`);
  expect(charges.data).toHaveLength(1);
  expect(charges.data[0]).toMatchObject({ method: "boleto", status: "pending", installment_ids: expect.any(Array) });
  expect(charges.data[0].installment_ids).toHaveLength(2);
  await expect(page.getByTestId("charge")).toHaveCount(1);
  await expect(page.getByTestId("charge")).toContainText(charges.data[0].boleto.digitable_line);
  await expect(page.getByTestId("charge-collects")).toHaveText("installment(s) #1, #2 ·");
});

test("an owner writes a late contract off from its file, with the reason; support sees it written off, still collected, without the button", async ({ page, browser }) => {
  const { tenantId, sandboxKey, owner, support } = fixture();
  const { issuedContract, get } = v1Client(page.request, sandboxKey, tenantId);
  // Disbursed 8 or 9 months before today (lateContractDates): all six installments are late.
  const { contract } = await issuedContract("Walter Writeoff", 200_000, 6, lateContractDates());

  await signIn(page, owner);
  await page.goto(`/contracts/${contract.id}?environment=sandbox`);
  await expect(page.getByTestId("standing")).toContainText("late");
  const form = page.getByRole("region", { name: "Write off" });
  // No reason, no button to press.
  await expect(form.getByRole("button", { name: "Write off contract" })).toBeDisabled();
  await form.getByLabel("Reason (kept in the audit log and the event)").fill("No payment for 180 days; collection exhausted");
  await form.getByRole("button", { name: "Write off contract" }).click();
  await expect(form.getByRole("alertdialog")).toHaveAccessibleName(/^Write this contract off\? R\$\s[\d.]+,\d{2} stays owed and is still collected\.$/);
  await form.getByRole("button", { name: "Write off", exact: true }).click();
  await expect(page.getByTestId("contract-status")).toHaveText("written off");
  await expect(page.getByRole("region", { name: "Write off" })).toHaveCount(0);
  await expect(page.getByTestId("outstanding")).toHaveText(/R\$\s[\d.]+,\d{2}/);
  const after = await get(`/v1/contracts/${contract.id}`);
  expect(after).toMatchObject({ id: contract.id, status: "written_off", outstanding_balance: contract.outstanding_balance });
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("contract.written_off");

  // Support: the contract is still collected (standing, a new charge), and writing off is not theirs.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, support);
  await other.goto(`/contracts/${contract.id}?environment=sandbox`);
  await expect(other.getByTestId("contract-status")).toHaveText("written off");
  await expect(other.getByTestId("standing")).toContainText("late");
  await expect(other.getByRole("region", { name: "Issue a charge" })).toBeVisible();
  await expect(other.getByRole("region", { name: "Write off" })).toHaveCount(0);
  await elsewhere.close();
});
