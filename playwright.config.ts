import { defineConfig } from "@playwright/test";

// Browser tests in Debian's Chromium (never a downloaded browser), against the app's development server
// (scripts/server.mjs --dev: Next's dev server behind the same edge checks as production) on a test port
// and the database scripts/run-tests.ts prepared (DATABASE_URL).
const PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE = `http://localhost:${PORT}`;
// Where the panel's invitation e-mails go: an SMTP server e2e/members.spec.ts runs while it needs one.
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 3226);

export default defineConfig({
  testDir: "e2e",
  timeout: 240_000, // the first test also waits for the cold dev server to compile the pages
  expect: { timeout: 20_000 },
  workers: 1,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: E2E_BASE,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    trace: "retain-on-failure",
  },
  webServer: {
    command: "node scripts/server.mjs --dev",
    url: `${E2E_BASE}/login`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      SANDBOX_BASE_URL: `http://localhost:${PORT}`,
      PRODUCTION_BASE_URL: `http://127.0.0.1:${PORT}`,
      NEXTAUTH_URL: E2E_BASE,
      NEXTAUTH_SECRET: "e2e-nextauth-secret-0123456789abcdef",
      AUTH_JWT_SECRET: "e2e-jwt-secret-0123456789abcdef0123456789abcdef",
      LOG_LEVEL: "warn",
      // Sandbox webhook endpoints may point at the browser test's loopback receiver (e2e/webhooks.spec.ts).
      WEBHOOKS_SANDBOX_ALLOW_LOOPBACK: "true",
      // Invitations are e-mailed (by a worker the members test starts; until then they wait in the database).
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      MAIL_FROM: "Credit Platform e2e <invites@e2e.test>",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
