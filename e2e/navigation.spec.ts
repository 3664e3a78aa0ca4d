import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";

// Finding your way: an unknown page is our own 404 (not the framework's), and the sidebar marks where you are.

type Fixture = { owner: { email: string; password: string } };

test("an unknown page is the platform's 404; the sidebar marks the current page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the panel" })).toBeVisible();

  await signIn(page, (JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture).owner);
  await expect(page.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "Contracts" }).click();
  await expect(page.getByRole("link", { name: "Contracts" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current", "page");
});
