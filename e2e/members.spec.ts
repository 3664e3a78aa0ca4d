import { expect, test, type Browser } from "@playwright/test";
import { E2E_BASE } from "../playwright.config";
import { cli } from "./global-setup";
import { receiveMail } from "./mail-catcher";
import { signIn } from "./sign-in";

// Settings → Members (issue 12): an owner invites by e-mail, the invited person opens the link in their own browser,
// chooses a password and lands in the tenant; the owner changes their role and removes them; the last owner cannot
// step down; a viewer invited through the CLI's link sees no Members page and the server refuses them.
// Its own tenant, so role changes here never touch the other journeys' fixture.

async function accept(browser: Browser, link: string, name: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(link).pathname);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Choose a password").fill(password);
  await page.getByRole("button", { name: "Accept and sign in" }).click();
  await expect(page.getByRole("link", { name: "Overview" })).toBeVisible({ timeout: 60_000 });
  return { context, page };
}

test("owners invite, change roles and remove members; the last owner stays; viewers are refused", async ({ page, browser }) => {
  const slug = `mem-${Date.now().toString(36)}`;
  cli("tenants", ["create", "--slug", slug, "--name", "Members Crédito", "--owner-email", `owner@${slug}.test`, "--owner-password", "owner-password-123"]);
  await signIn(page, { email: `owner@${slug}.test`, password: "owner-password-123" });
  await page.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { name: "Settings → Members" })).toBeVisible();

  await page.getByLabel("E-mail").fill(`not-an-address`);
  await page.getByLabel("E-mail").evaluate((input: HTMLInputElement) => (input.type = "text"));
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "valid e-mail" })).toBeVisible();

  await page.getByLabel("E-mail").fill(`ana@${slug}.test`);
  await page.getByLabel("Role", { exact: true }).selectOption("support");
  await page.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("invitation-link").textContent())!;
  expect(link).toMatch(/\/invitations\/cpinv_/);
  await expect(page.getByLabel("E-mail")).toHaveValue("");
  await expect(page.getByTestId(`invitation-ana@${slug}.test`)).toContainText("support");

  const ana = await accept(browser, link, "Ana Souza", "ana-password-1234");
  await expect(ana.page.getByRole("heading", { name: "Members Crédito" })).toBeVisible();
  await expect(ana.page.getByText("Role: support")).toBeVisible();
  // The link worked once.
  await ana.page.goto(new URL(link).pathname);
  await expect(ana.page.getByRole("alert").filter({ hasText: "already used" })).toBeVisible();
  await ana.context.close();

  await page.reload();
  const row = page.getByTestId(`member-ana@${slug}.test`);
  await expect(row).toContainText("Ana Souza");
  await row.getByLabel(`Role of ana@${slug}.test`).selectOption("viewer");
  await expect(page.getByRole("status").filter({ hasText: `ana@${slug}.test is now viewer.` })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId(`member-ana@${slug}.test`).getByLabel(`Role of ana@${slug}.test`)).toHaveValue("viewer");

  // A change that unmakes an owner is asked first: cancelled, nothing is sent.
  await page.getByLabel(`Role of owner@${slug}.test`).selectOption("admin");
  const question = page.getByRole("alertdialog", { name: `Make owner@${slug}.test admin?` });
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toHaveCount(0);
  await expect(page.getByLabel(`Role of owner@${slug}.test`)).toHaveValue("owner");
  // The only owner cannot step down: confirmed, the error is shown and the role stays.
  await page.getByLabel(`Role of owner@${slug}.test`).selectOption("admin");
  await page.getByRole("alertdialog").getByRole("button", { name: "Change role" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "at least one owner" })).toBeVisible();
  await expect(page.getByLabel(`Role of owner@${slug}.test`)).toHaveValue("owner");

  await page.getByTestId(`member-ana@${slug}.test`).getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Member removed." })).toBeVisible();
  await expect(page.getByTestId(`member-ana@${slug}.test`)).toHaveCount(0);

  // The CLI prints a link too; a viewer who joins with it sees neither the page nor passes the server's check.
  const invited = cli("tenants", ["invite", "--tenant", slug, "--email", `vera@${slug}.test`, "--role", "viewer"]);
  const vera = await accept(browser, String(invited.url), "Vera Lima", "vera-password-1234");
  await expect(vera.page.getByRole("link", { name: "Members" })).toHaveCount(0);
  await vera.page.goto("/settings/members");
  await expect(vera.page.getByText("Only owners and admins manage members.")).toBeVisible();
  const refused = await vera.page.evaluate(async () => {
    const r = await fetch("/api/panel/invitations", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "x@example.test", role: "owner" }) });
    return r.status;
  });
  expect(refused).toBe(403);
  await vera.context.close();
});

test("an invitation arrives by e-mail, in the inviter's language, and its link lets the person in", async ({ page, browser }) => {
  const slug = `mail-${Date.now().toString(36)}`;
  cli("tenants", ["create", "--slug", slug, "--name", "Correio Crédito", "--owner-email", `owner@${slug}.test`, "--owner-password", "owner-password-123"]);
  await signIn(page, { email: `owner@${slug}.test`, password: "owner-password-123" });
  await page.context().addCookies([{ name: "cp_locale", value: "pt-BR", url: E2E_BASE }]); // the sidebar's language switch
  await page.goto("/settings/members");
  await page.getByLabel("E-mail").fill(`bia@${slug}.test`);
  await page.getByRole("button", { name: "Convidar" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Estamos enviando este link por e-mail para bia@${slug}.test` })).toBeVisible();
  await expect(page.getByTestId(`invitation-bia@${slug}.test`)).toContainText("e-mail a caminho");

  // The worker sends what waits to a mail server (e2e/mail-catcher.ts).
  const mail = await receiveMail(`bia@${slug}.test`);
  expect(mail.subject).toBe("Convite para Correio Crédito na Credit Platform");
  expect(mail.text).toContain("convidou você para entrar em Correio Crédito na Credit Platform como suporte.");
  await page.reload();
  await expect(page.getByTestId(`invitation-bia@${slug}.test`)).toContainText("e-mail enviado");

  // The newcomer opens the link from the e-mail.
  const link = /(https?:\/\/\S+\/invitations\/cpinv_[A-Za-z0-9_-]+)/.exec(mail.text ?? "")![1]!;
  const context = await browser.newContext({ locale: "pt-BR" });
  const newcomer = await context.newPage();
  await newcomer.goto(new URL(link).pathname);
  await newcomer.getByLabel("Seu nome").fill("Bia Costa");
  await newcomer.getByLabel("Escolha uma senha").fill("bia-password-1234");
  await newcomer.getByRole("button", { name: "Aceitar e entrar" }).click();
  // Signed in on the tenant (the invitation page's own heading, "Entrar em Correio Crédito", would match a loose name).
  await expect(newcomer.getByRole("link", { name: "Visão geral" })).toBeVisible({ timeout: 60_000 });
  await expect(newcomer.getByRole("heading", { name: "Correio Crédito", exact: true })).toBeVisible();
  await context.close();
  await page.reload();
  await expect(page.getByTestId(`member-bia@${slug}.test`)).toContainText("Bia Costa");
});
