import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { FIXTURE } from "./global-setup";
import { signIn } from "./sign-in";

// Security headers as a browser receives them, no CSP violation while an admin works, and cross-origin writes
// to the panel's JSON endpoints refused with the session cookie present.

type Fixture = { tenantId: string; owner: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

test("panel pages carry a nonce CSP and the common headers; /v1 answers carry nosniff", async ({ request }) => {
  const page = await request.get("/login");
  const headers = page.headers();
  const csp = headers["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  expect(await page.text()).toContain(`nonce="${nonce}"`); // Next put this request's nonce on its scripts
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["strict-transport-security"]).toBeUndefined(); // plain HTTP here

  const again = (await request.get("/login")).headers()["content-security-policy"];
  expect(again).not.toBe(csp); // a fresh nonce per page view

  const overHttps = await request.get("/login", { headers: { "x-forwarded-proto": "https" } });
  expect(overHttps.headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");

  // The icon browsers ask for on their own: there (a 404 logged a console error on every page).
  const icon = await request.get("/favicon.ico");
  expect([icon.status(), icon.headers()["content-type"]]).toEqual([200, "image/x-icon"]);

  const api = await request.get("/v1/health");
  expect(api.status()).toBe(401);
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["cache-control"]).toBe("no-store");
  expect(api.headers()["content-security-policy"]).toBeUndefined();
});

test("no CSP violation while signing in and creating a key; cross-origin writes are refused", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(message.text());
  });
  const { owner } = fixture();
  await signIn(page, owner);
  await page.getByRole("link", { name: "API Keys" }).click();
  await page.getByLabel("Name").fill("CSP check");
  await page.getByRole("radio", { name: "sandbox" }).check();
  await page.getByRole("checkbox", { name: "read (every resource)", exact: true }).check();
  await page.getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByTestId("secret-API key")).toHaveText(/^sk_test_/);
  expect(violations).toEqual([]);

  // The browser context's request client sends the session cookie, like a forged cross-site form or fetch.
  const body = { name: "Forged", environment: "production", permissions: ["read", "write"] };
  const forgeries: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }];
  for (const headers of forgeries) {
    const forged = await page.request.post("/api/panel/api-keys", { headers: { ...headers, "content-type": "application/json" }, data: body });
    expect(forged.status()).toBe(403);
    expect(await forged.json()).toMatchObject({ code: "cross_origin_request", status: 403 });
  }
  const list = await page.request.get("/api/panel/api-keys");
  const names = ((await list.json()) as { data: { name: string }[] }).data.map((k) => k.name);
  expect(names).toContain("CSP check");
  expect(names).not.toContain("Forged");
});

// TRACE, CONNECT and what Node's parser refuses are answered by the app's server before Next
// (tests/platform/edge-server.test.ts, over raw sockets: browsers' request clients cannot send them).
test("every /v1 answer is problem+json: other methods, bare /v1, malformed URLs", async ({ request }) => {
  for (const method of ["PROPFIND", "DELETE", "PUT"]) {
    const res = await request.fetch("/v1/health", { method });
    expect(res.status()).toBe(405);
    expect(res.headers()["content-type"]).toBe("application/problem+json");
    expect(res.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
    expect((await res.json()).code).toBe("method_not_allowed");
  }
  const bare = await request.get("/v1");
  expect(bare.status()).toBe(404);
  expect((await bare.json()).code).toBe("not_found");
  const malformed = await request.get("/v1/customers/%zz");
  expect(malformed.status()).toBe(400);
  expect((await malformed.json()).code).toBe("invalid_url");
  const options = await request.fetch("/v1/customers", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers()["allow"]).toBe("GET, POST, HEAD, OPTIONS");
  expect(options.headers()["access-control-allow-origin"]).toBeUndefined();
});
