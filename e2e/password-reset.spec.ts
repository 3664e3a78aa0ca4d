import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { receiveMail } from "./mail-catcher";
import { signIn } from "./sign-in";

// "Forgot your password?": from the sign-in page, the e-mail arrives (through the worker and a real SMTP server), its
// link sets a new password and signs in; a session opened elsewhere before the reset is over, and the old password no
// longer works. Its own tenant, so the other journeys' owner keeps their password.

test("a person who forgot their password gets a link by e-mail, chooses a new one, and older sessions end", async ({ page, browser }) => {
  const slug = `pwd-${Date.now().toString(36)}`;
  const email = `owner@${slug}.test`;
  cli("tenants", ["create", "--slug", slug, "--name", "Senha Crédito", "--owner-email", email, "--owner-password", "old-password-123"]);
  await signIn(page, { email, password: "old-password-123" }); // a session on another device

  const context = await browser.newContext();
  const forgetful = await context.newPage();
  await forgetful.goto("/login");
  await forgetful.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(forgetful.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await forgetful.getByLabel("E-mail").fill(email);
  await forgetful.getByRole("button", { name: "Send the link" }).click();
  await expect(forgetful.getByRole("status").filter({ hasText: `If ${email} has an account` })).toBeVisible();

  const mail = await receiveMail(email);
  expect(mail.subject).toBe("Reset your Credit Platform password");
  const link = /(https?:\/\/\S+\/reset-password\/cppwr_[A-Za-z0-9_-]+)/.exec(mail.text ?? "")![1]!;
  await forgetful.goto(new URL(link).pathname);
  await expect(forgetful.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await forgetful.getByLabel("New password").fill("new-password-4567");
  await forgetful.getByRole("button", { name: "Save and sign in" }).click();
  await expect(forgetful.getByRole("link", { name: "Overview" })).toBeVisible({ timeout: 60_000 });
  await expect(forgetful.getByRole("heading", { name: "Senha Crédito", exact: true })).toBeVisible();

  // The link worked once.
  await forgetful.goto(new URL(link).pathname);
  await expect(forgetful.getByRole("alert").filter({ hasText: "This link was already used." })).toBeVisible();
  await context.close();

  // The session opened before the reset is over; the old password is refused, the new one works.
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("old-password-123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." })).toBeVisible();
  await signIn(page, { email, password: "new-password-4567" });
});

test("a signed-in person changes their password: a wrong current one is refused, other sessions end, this one stays", async ({ page, browser }) => {
  const slug = `chg-${Date.now().toString(36)}`;
  const email = `owner@${slug}.test`;
  cli("tenants", ["create", "--slug", slug, "--name", "Troca Crédito", "--owner-email", email, "--owner-password", "old-password-123"]);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, { email, password: "old-password-123" });
  await signIn(page, { email, password: "old-password-123" });

  await page.getByRole("link", { name: "Your account" }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password").fill("new-password-4567");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Wrong password")).toBeVisible();

  await page.getByLabel("Current password").fill("old-password-123");
  await page.getByLabel("New password").fill("new-password-4567");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed. Every other session was signed out." })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible(); // this browser signed in again

  await other.reload();
  await expect(other).toHaveURL(/\/login/);
  await elsewhere.close();
});
