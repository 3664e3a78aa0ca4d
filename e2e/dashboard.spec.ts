import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { signIn } from "./sign-in";
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
