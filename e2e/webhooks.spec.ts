import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { FIXTURE } from "./global-setup";
import { randomCpf } from "./random-cpf";
import { signIn } from "./sign-in";

// Settings → Webhooks, end to end: an owner adds an endpoint pointing at a local receiver and copies its secret;
// an integrator creates a customer through /v1; the real worker (`npm run worker`'s script) delivers the signed
// event to the receiver (verified with `standardwebhooks` and the secret the panel showed) and the panel's
// delivery log shows it with its attempt; a test event, an event missed while disabled and recovered, a rotation
// and a delete follow. Support staff see none of it.

type Fixture = { tenantId: string; sandboxKey: string; owner: { email: string; password: string }; support: { email: string; password: string } };
const fixture = () => JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

let worker: ChildProcess | undefined;
let server: http.Server | undefined;
const received: { headers: Record<string, string>; body: string }[] = [];

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(200).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  worker = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/worker.ts"], {
    env: { ...process.env, AUTH_JWT_SECRET: "e2e-jwt-secret-0123456789abcdef0123456789abcdef", WEBHOOKS_SANDBOX_ALLOW_LOOPBACK: "true", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    worker!.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("worker started") && resolve());
    worker!.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
});

test.afterAll(async () => {
  worker?.kill("SIGTERM");
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** When the worker published the outbox event of this customer's creation (null while it has not). */
async function publishedAt(customerId: string): Promise<Date | null> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ published_at: Date | null }>("SELECT published_at FROM outbox_events WHERE type = 'customer.created' AND payload->>'id' = $1", [customerId]);
    return rows[0]?.published_at ?? null;
  } finally {
    await client.end();
  }
}

test("an owner configures an endpoint, an event made through /v1 arrives signed and shows in the delivery log", async ({ page }) => {
  const { owner, support, tenantId, sandboxKey } = fixture();
  const receiverUrl = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/credit-events`;
  await signIn(page, owner);
  await page.getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Settings → Webhooks" })).toBeVisible();
  await expect(page.getByText("No endpoints in sandbox yet.")).toBeVisible();

  // A private address is refused on its field.
  await page.getByLabel("Endpoint URL").fill("http://10.0.0.8/hooks");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Webhook URLs must use https" })).toBeVisible();

  await page.getByLabel("Endpoint URL").fill(receiverUrl);
  await page.getByLabel("Description").fill("E2E ledger");
  await page.getByLabel("All events (also ones added later)").uncheck();
  await page.getByLabel("customer.created").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await page.getByTestId("secret-Signing secret").textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("endpoint-row")).toHaveCount(1);
  await expect(page.getByTestId("endpoint-row")).toContainText("customer.created");
  await expect(page.getByLabel("Endpoint URL")).toHaveValue(""); // the form is reset

  // An integrator's call through /v1 raises customer.created.
  const made = await page.request.post("/v1/customers", {
    headers: { authorization: `Bearer ${sandboxKey}`, "x-tenant-id": tenantId, "content-type": "application/json" },
    data: { document: randomCpf(), name: "Joana Webhook" },
  });
  expect(made.status()).toBe(201);
  const customer = (await made.json()) as { id: string };
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
  const payload = new Webhook(secret).verify(received[0]!.body, received[0]!.headers) as { type: string; tenant_id: string; data: { id: string } };
  expect(payload).toMatchObject({ type: "customer.created", tenant_id: tenantId, data: { id: customer.id } });

  // The delivery log (open for the new endpoint) shows it, with the attempt's request and response.
  const row = page.getByTestId("delivery-row").filter({ hasText: "customer.created" });
  // The worker records the attempt after the receiver answers; on a loaded 2-core CI run that has taken over 20 s.
  await expect(row).toContainText("succeeded", { timeout: 60_000 });
  await expect(row).toContainText("200");
  await row.getByRole("button", { name: "Attempts" }).click();
  await expect(page.getByTestId("attempt")).toContainText(customer.id);
  await expect(page.getByTestId("attempt")).toContainText("thanks");

  await page.getByRole("button", { name: "Send test event" }).click();
  // Delivered by the same worker as above, so as slow on a loaded CI run.
  await expect(page.getByTestId("delivery-row").filter({ hasText: "webhook_endpoint.test" })).toContainText("succeeded", { timeout: 60_000 });
  expect(received.map((r) => JSON.parse(r.body).type)).toEqual(["customer.created", "webhook_endpoint.test"]);
  // The log filters by status: none failed here.
  await page.getByRole("combobox", { name: "Status" }).selectOption("failed");
  await expect(page.getByTestId("delivery-row")).toHaveCount(0);
  await page.getByRole("combobox", { name: "Status" }).selectOption("succeeded");
  await expect(page.getByTestId("delivery-row")).toHaveCount(2);
  await page.getByRole("combobox", { name: "Status" }).selectOption("");

  // Disabled for a while, the endpoint misses an event; enabled again, "Recover missed events" queues it to it.
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByTestId("endpoint-row")).toContainText("disabled");
  const missedMade = await page.request.post("/v1/customers", {
    headers: { authorization: `Bearer ${sandboxKey}`, "x-tenant-id": tenantId, "content-type": "application/json" },
    data: { document: randomCpf(), name: "Joana Perdida" },
  });
  expect(missedMade.status()).toBe(201);
  const missed = (await missedMade.json()) as { id: string };
  // The worker publishes it (to no endpoint: the only one is disabled) before the endpoint is enabled again.
  await expect.poll(() => publishedAt(missed.id), { timeout: 30_000 }).not.toBeNull();
  await page.getByRole("button", { name: "Enable" }).click();
  await page.getByRole("button", { name: "Recover missed events" }).click();
  await expect(page.getByLabel("Missed since")).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/); // a day back, in the browser's time
  await page.getByRole("button", { name: "Queue missed events" }).click();
  await expect(page.getByRole("status").filter({ hasText: "missed event" })).toHaveText("1 missed event queued; no failed delivery to resend.");
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(3);
  const recovered = new Webhook(secret).verify(received[2]!.body, received[2]!.headers) as { type: string; data: { id: string } };
  expect(recovered).toMatchObject({ type: "customer.created", data: { id: missed.id } });
  await expect(page.getByTestId("delivery-row").filter({ hasText: "customer.created" }).filter({ hasText: "succeeded" })).toHaveCount(2, { timeout: 60_000 });
  // Again: it received everything since then, so nothing is queued twice.
  await page.getByRole("button", { name: "Queue missed events" }).click();
  await expect(page.getByRole("status").filter({ hasText: "missed event" })).toHaveText("No missed events; no failed delivery to resend.");
  await page.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("button", { name: "Confirm rotate" }).click();
  const rotated = (await page.getByTestId("secret-Signing secret").textContent())!;
  expect(rotated).not.toBe(secret);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("endpoint-row")).toContainText("old secret signs until");
  // Again within the grace period: the question says both old secrets go now (one old secret at a time).
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByRole("alertdialog")).toHaveAccessibleName(/^An old secret still signs until .+: rotating now drops it and the current one at once/);
  await page.getByRole("button", { name: "Confirm rotate" }).click();
  const again = (await page.getByTestId("secret-Signing secret").textContent())!;
  expect(again).not.toBe(rotated);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("endpoint-row")).not.toContainText("old secret signs until");

  await page.getByRole("button", { name: "Delete" }).click();
  await page.keyboard.press("Escape"); // changed my mind
  await expect(page.getByRole("button", { name: "Delete" })).toBeFocused();
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Confirm delete" }).click();
  await expect(page.getByText("No endpoints in sandbox yet.")).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, support);
  await expect(page.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  await page.goto("/settings/webhooks");
  await expect(page.getByText("Only owners and admins manage webhooks.")).toBeVisible();
  const status = await page.evaluate(async () => (await fetch("/api/panel/webhook-endpoints?environment=sandbox")).status);
  expect(status).toBe(403);
});

