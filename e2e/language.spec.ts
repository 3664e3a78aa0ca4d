import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";

// The panel speaks pt-BR to a Brazilian browser (and to any browser not asking for English), in São Paulo time
// whatever the browser's zone, with money as R$ 1.234,56; the sidebar switches to English and back.

type Fixture = { owner: { email: string; password: string } };
test.use({ locale: "pt-BR", timezoneId: "Asia/Tokyo" });

test("pt-BR by default, dates in dd/mm/aaaa São Paulo time, English on request", async ({ page }) => {
  const { owner } = JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByText("Entre no painel administrativo")).toBeVisible();
  await page.getByLabel("E-mail").fill(owner.email);
  await page.getByLabel("Senha").fill(owner.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("link", { name: "Visão geral" })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("environment-badge")).toHaveText("Sandbox · dados de teste");
  await expect(page.getByText("Contratos ativos")).toBeVisible();
  await expect(page.getByTestId("figure-outstanding")).toHaveText(/^R\$ \d{1,3}(\.\d{3})*,\d{2}$/);

  await page.getByRole("link", { name: "Membros" }).click();
  await expect(page.getByRole("heading", { name: "Configurações → Membros" })).toBeVisible();
  const { members } = await (await page.request.get("/api/panel/members")).json();
  const joined = new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "medium" }).format(new Date(members[0].joined_at));
  await expect(page.getByTestId(`member-${owner.email}`)).toContainText(joined.replace(/\s/g, " "));
  await expect(page.getByTestId(`member-${owner.email}`)).toContainText(/\d{2}\/\d{2}\/\d{4}/);

  // panelFetch's own failures speak the panel's language too: offline, an invitation cannot reach the platform.
  await page.context().setOffline(true);
  await page.getByLabel("E-mail").fill("nova@demo.test");
  await page.getByRole("button", { name: "Convidar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Não foi possível" })).toHaveText("Não foi possível falar com a plataforma: verifique sua conexão e tente de novo.");
  await page.context().setOffline(false);

  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByRole("heading", { name: "Settings → Members" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByTestId("environment-badge")).toHaveText("Sandbox · test data");
  await page.getByLabel("Language").selectOption("pt-BR");
  await expect(page.getByRole("link", { name: "Visão geral" })).toBeVisible();

  // The field errors beside the fields are Portuguese too: the panel's endpoints answer in the page's language.
  await page.getByRole("link", { name: "Sua conta" }).click();
  await page.getByLabel("Senha atual").fill("not-my-password");
  await page.getByLabel("Nova senha (ao menos 12 caracteres)").fill("new-password-4567");
  await page.getByRole("button", { name: "Trocar senha" }).click();
  await expect(page.getByText("Senha incorreta", { exact: true })).toBeVisible();
});
