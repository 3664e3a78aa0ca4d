import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { cli, FIXTURE } from "./global-setup";
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

test("an expired session returns to the sign-in page and says so", async ({ page }) => {
  await signIn(page, (JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture).owner);
  await expect(page.getByTestId("environment-badge")).toHaveText("Sandbox · test data");
  await expect(page.getByRole("heading", { name: "Portfolio in sandbox" })).toBeVisible();
  // The session cookie goes away (expired); the next request the page makes (production's figures) brings the
  // sign-in page back with a word about why.
  const cookies = await page.context().cookies();
  await page.context().clearCookies();
  await page.context().addCookies(cookies.filter((c) => !c.name.includes("next-auth.session-token")));
  await page.getByLabel("Environment").selectOption("production");
  await expect(page).toHaveURL(/\/login\?expired=1$/);
  await expect(page.getByRole("status").filter({ hasText: "Your session has expired" })).toBeVisible();
});

test("signing out ends the session: a copy of its cookie, which opened the panel before, no longer does", async ({ page, browser }) => {
  await signIn(page, (JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture).owner);
  await expect(page.getByRole("heading", { name: "Portfolio in sandbox" })).toBeVisible();
  const copied = (await page.context().cookies()).filter((c) => c.name.includes("next-auth.session-token"));
  expect(copied.length).toBeGreaterThan(0);
  const elsewhere = await browser.newContext();
  await elsewhere.addCookies(copied);
  const copy = await elsewhere.newPage();
  await copy.goto("/");
  await expect(copy.getByRole("heading", { name: "Portfolio in sandbox" })).toBeVisible(); // the copy works while the session lasts

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await copy.goto("/");
  await expect(copy).toHaveURL(/\/login/);
  expect((await elsewhere.request.get("/api/panel/members")).status()).toBe(401); // the panel's endpoints refuse it too
  await elsewhere.close();
});

test("signing out when the server cannot end the session says so and keeps it; once it can, signing out works", async ({ page }) => {
  await signIn(page, (JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture).owner);
  await expect(page.getByRole("heading", { name: "Portfolio in sandbox" })).toBeVisible();
  // The database down as the button asks: the endpoint answers what panelRoute answers then.
  const problem = { type: "about:blank", title: "Service Unavailable", status: 503, code: "service_unavailable", detail: "The database is unavailable: try again shortly", retryable: true };
  await page.route("**/api/panel/session/end", (route) => route.fulfill({ status: 503, contentType: "application/problem+json", body: JSON.stringify(problem) }));
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "You are still signed in: the session could not be ended (The database is unavailable: try again shortly). Try again." })).toBeVisible();
  await page.reload(); // the cookie was not cleared: the panel still opens
  await expect(page.getByRole("heading", { name: "Portfolio in sandbox" })).toBeVisible();
  await page.unroute("**/api/panel/session/end");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
});

test("the sign-in page sends a signed-in user to the panel, and shows its form for a forged session cookie", async ({ page }) => {
  await signIn(page, (JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture).owner);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Portfolio in sandbox" })).toBeVisible();
  // A cookie with the session's name that next-auth cannot decrypt is nobody (the page looks at the name first).
  const forged = (await page.context().cookies()).filter((c) => c.name.includes("next-auth.session-token")).map((c) => ({ ...c, value: "forged" }));
  expect(forged.length).toBeGreaterThan(0);
  await page.goto("about:blank"); // the panel, seeing its session go, would itself go to /login?expired=1
  await page.context().addCookies(forged);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
});

test("ten wrong passwords lock that e-mail's sign-in for a while, and the form says so", async ({ page }) => {
  const slug = `lock-${Date.now().toString(36)}`;
  cli("tenants", ["create", "--slug", slug, "--name", "Lock Crédito", "--owner-email", `owner@${slug}.test`, "--owner-password", "owner-password-123"]);
  await page.goto("/login");
  for (let i = 0; i < 10; i++) {
    await page.getByLabel("E-mail").fill(`owner@${slug}.test`);
    await page.getByLabel("Password").fill(`wrong-guess-${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." })).toBeVisible();
  }
  await page.getByLabel("Password").fill("owner-password-123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Too many wrong passwords for this e-mail" })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("in development, hot reload connects through the app's own server (its upgrade requests reach Next)", async ({ page }) => {
  // The suite runs `node scripts/server.mjs --dev`: Next's HMR socket is an HTTP upgrade on the edge server.
  const connected = new Promise<string>((resolve) => {
    page.on("websocket", (socket) => {
      if (!socket.url().includes("/_next/")) return;
      socket.on("framereceived", (frame) => {
        const text = String(frame.payload);
        if (text.includes('"turbopack-connected"')) resolve(text);
      });
    });
  });
  await page.goto("/login");
  expect(JSON.parse(await connected)).toMatchObject({ type: "turbopack-connected" });
});

test("on a phone the sidebar folds behind a Menu button; a link opens its page and folds it again", async ({ page }) => {
  await signIn(page, (JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture).owner);
  await page.setViewportSize({ width: 390, height: 844 });
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("link", { name: "Contracts" })).toBeHidden();
  await expect(page.getByRole("heading", { name: "Portfolio in sandbox" })).toBeInViewport();
  await menu.click();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("link", { name: "Contracts" }).click();
  await expect(page.getByRole("heading", { name: "Contracts" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Contracts" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");
  // From 768 px it is always shown.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole("link", { name: "Contracts" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
});
