import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";
import { v1Client } from "./v1-client";

// A contract's file in the panel: a personal loan issued through /v1, charged by Pix and paid in the sandbox, is
// found by its CCB number and shows its installments, the Pix copy-and-paste code and QR, the payment, the borrower's
// credit and what of it was refunded, today's payoff quote and the timeline of its events; its customer's page lists the proposal and the contract.

type Fixture = { tenantId: string; sandboxKey: string; support: { email: string; password: string } };
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
  await expect(page.getByTestId("payment")).toContainText("by pix");
  await expect(page.getByTestId("payoff-quote")).toContainText("Payoff today");
  await expect(page.getByTestId("credit-balance")).toHaveText(/^Borrower's credit \(paid beyond what was owed; a payoff uses it\): R\$\s30,00$/);
  await expect(page.getByTestId("refund")).toHaveText(new RegExp(`^Refund ${refund.id}: R\\$\\s20,00 paid back by PIX on \\d{2}/\\d{2}/\\d{4} — reference E2E-REF-1$`));
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("contract.issued");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("charge.paid");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("payment.received");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("charge.canceled");
  await expect(page.getByRole("list", { name: "Timeline" })).toContainText("refund.created");

  // The customer's page lists the proposal and the contract.
  await page.getByRole("link", { name: "Carlos Contrato" }).click();
  await expect(page.getByRole("heading", { name: "Carlos Contrato" })).toBeVisible();
  await expect(page.getByTestId("customer-proposal")).toContainText(proposal.id);
  await expect(page.getByTestId("customer-proposal")).toContainText("contract_issued");
  await expect(page.getByTestId("customer-contract")).toContainText(contract.number);
});
