import { expect, type Page } from "@playwright/test";

// Signs in through the form. The first sign-in of a run also compiles the pages on the cold dev server, which
// can take long on a loaded 2-core machine; and next-auth v4 under a cold `next dev` can answer the first
// credentials post without a session (its CSRF cookie raced: `?csrf=true`) — then the form is submitted again.
export async function signIn(page: Page, who: { email: string; password: string }) {
  for (let attempt = 1; ; attempt++) {
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(who.email);
    await page.getByLabel("Password").fill(who.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const overview = page.getByRole("link", { name: "Overview" });
    try {
      await expect(overview).toBeVisible({ timeout: 90_000 });
      return;
    } catch (err) {
      if (attempt >= 2 || !page.url().includes("/login")) throw err;
    }
  }
}
