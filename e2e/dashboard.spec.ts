import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { signIn } from "./sign-in";
import { randomCpf } from "./random-cpf";
import { v1Client } from "./v1-client";

// The Overview's dashboard (issue 12) on its own tenant: a contract disbursed and a Pix charge paid through /v1 show
// up as this month's figures in the sandbox, with both charts drawn; production stays at zero.

test("the dashboard shows this month's sandbox portfolio and charts; production is empty", async ({ page }) => {
  const slug = `dash-${Date.now().toString(36)}`;
  const created = cli("tenants", ["create", "--slug", slug, "--name", "Dashboard Crédito", "--owner-email", `owner@${slug}.test`, "--owner-password", "owner-password-123"]);
  const key = cli("keys", ["create", "--tenant", slug, "--environment", "sandbox", "--permissions", "read write proposals:review", "--name", "dashboard"]);
  const api = v1Client(page.request, String(key.key), String(created.tenant_id));
  const { contract } = await api.issuedContract("Dora Dashboard");
  const charge = await api.post("/v1/charges", { contract_id: contract.id, method: "pix" });
  await api.post(`/v1/sandbox/charges/${charge.id}/pay`);
  await api.submittedProposal("Walter Waiting", 100_000, 3);

  await signIn(page, { email: `owner@${slug}.test`, password: "owner-password-123" });
  const figures = await (await page.request.get("/api/panel/dashboard?environment=sandbox")).json();
  const brl = (centavos: number) => `R$ ${Math.floor(centavos / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${String(centavos % 100).padStart(2, "0")}`;
  await expect(page.getByTestId("figure-active")).toHaveText("1");
  await expect(page.getByTestId("figure-outstanding")).toHaveText(brl(figures.outstanding_balance));
  await expect(page.getByTestId("figure-disbursed")).toHaveText(brl(contract.principal));
  await expect(page.getByTestId("figure-collected")).toHaveText(brl(charge.amount));
  await expect(page.getByTestId("figure-overdue-rate")).toHaveText("0,00%");
  await expect(page.getByTestId("figure-waiting")).toHaveText("1");
  await expect(page.getByTestId("chart-money").locator(".recharts-bar-rectangle")).toHaveCount(2); // this month: disbursed and collected
  await expect(page.getByTestId("chart-contracts").locator(".recharts-bar-rectangle").first()).toBeVisible();

  await page.getByLabel("Environment").selectOption("production");
  await expect(page.getByTestId("figure-active")).toHaveText("0");
  await expect(page.getByTestId("figure-collected")).toHaveText("R$ 0,00");
  await expect(page.getByTestId("figure-waiting")).toHaveText("0");
});

test("late contracts: the dashboard links to them, the list filters and marks them, and Back keeps the filter", async ({ page }) => {
  const slug = `late-${Date.now().toString(36)}`;
  const created = cli("tenants", ["create", "--slug", slug, "--name", "Atraso Crédito", "--owner-email", `owner@${slug}.test`, "--owner-password", "owner-password-123"]);
  const key = cli("keys", ["create", "--tenant", slug, "--environment", "sandbox", "--permissions", "read write proposals:review", "--name", "late"]);
  const api = v1Client(page.request, String(key.key), String(created.tenant_id));
  await api.issuedContract("Dora EmDia");
  // Disbursed three months ago, nothing paid: its first installments are late.
  const day = (monthsAgo: number) => {
    const d = new Date();
    d.setUTCDate(5);
    d.setUTCMonth(d.getUTCMonth() - monthsAgo);
    return d.toISOString().slice(0, 10);
  };
  const customer = await api.post("/v1/customers", { document: randomCpf(), name: "Lia Atrasada", birth_date: "1980-01-01" });
  const simulation = await api.post("/v1/simulations", { product: "personal_loan", requested_amount: 300_000, term: 12, monthly_rate: "0.0250", customer_id: customer.id, disbursement_date: day(3), first_due_date: day(2) });
  const proposal = await api.post("/v1/proposals", { customer_id: customer.id, simulation_id: simulation.id });
  for (const action of ["submit", "approve", "sign"]) await api.post(`/v1/proposals/${proposal.id}/${action}`);
  const late = await api.post("/v1/contracts", { proposal_id: proposal.id });

  await signIn(page, { email: `owner@${slug}.test`, password: "owner-password-123" });
  await page.getByTestId("see-late").click();
  await expect(page).toHaveURL(/\/contracts\?status=overdue$/);
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("overdue");
  const rows = page.getByTestId("contract-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(late.number);
  const first = (await api.get(`/v1/installments?contract_id=${late.id}&limit=1`)).data[0]; // the due date as adjusted to a business day
  await expect(rows.first().getByTestId("overdue-since")).toHaveText(`late since ${first.due_date.split("-").reverse().join("/")}`);

  await rows.first().getByRole("link", { name: late.number }).click();
  await expect(page.getByTestId("contract-status")).toHaveText("active");
  // The file answers "how much is late, since when, what is next" at a glance.
  await expect(page.getByTestId("standing")).toContainText(`late since ${first.due_date.split("-").reverse().join("/")}`);
  await expect(page.getByTestId("standing")).toContainText("due today, with late fine and interest");
  await expect(page.getByTestId("standing")).toContainText("Next installment: ");
  await page.goBack();
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("overdue");
  await expect(rows).toHaveCount(1);
  // Any status again: both contracts, the address without the filter.
  await page.getByRole("combobox", { name: "Status" }).selectOption("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(2);
  await expect(page).toHaveURL(/\/contracts$/);
});
