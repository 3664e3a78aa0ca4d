import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";

// A form sent while the network is down says so and can be sent again (it used to hang); once back online the same
// form works.

type Fixture = { owner: { email: string; password: string } };

test("creating a key offline shows a clear error and works once back online", async ({ page, context }) => {
  await signIn(page, (JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture).owner);
  await page.getByRole("link", { name: "API Keys" }).click();
  await expect(page.getByRole("heading", { name: "Settings → API Keys" })).toBeVisible();
  await page.getByLabel("Name").fill("Offline attempt");
  await context.setOffline(true);
  await page.getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The platform could not be reached" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create API key" })).toBeEnabled();
  await context.setOffline(false);
  await page.getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByText("API key created")).toBeVisible();
  await expect(page.getByRole("cell", { name: "Offline attempt" })).toBeVisible();
});
