import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

// The one validated configuration (lib/env.ts): what production insists on, and a production server that refuses
// to start on a wrong configuration instead of answering every request 500.

const BASE = { DATABASE_URL: "postgresql://app@db.internal/credit", AUTH_JWT_SECRET: "a".repeat(32) };

describe("configuration", () => {
  it("requires the panel's and the webhook secrets' keys in production only, and names every wrong variable at once", () => {
    const development = parseEnv({ ...BASE, NODE_ENV: "development" });
    expect([development.NEXTAUTH_SECRET, development.WEBHOOK_SECRETS_KEY]).toEqual([undefined, undefined]);
    const production = {
      ...BASE,
      NODE_ENV: "production",
      NEXTAUTH_SECRET: "b".repeat(32),
      NEXTAUTH_URL: "https://panel.credit.example",
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
    };
    expect(parseEnv(production)).toMatchObject({ NEXTAUTH_SECRET: production.NEXTAUTH_SECRET, WEBHOOK_SECRETS_KEY: production.WEBHOOK_SECRETS_KEY });
    expect(() => parseEnv({ ...BASE, NODE_ENV: "production" })).toThrow(
      "Invalid configuration:\n  NEXTAUTH_SECRET: Required in production: it signs the panel's session cookies (openssl rand -base64 32)\n" +
        "  NEXTAUTH_URL: Required in production: the panel's public https address (its session cookie is Secure only then)\n" +
        "  WEBHOOK_SECRETS_KEY: Required in production: it seals webhook signing secrets and unsent e-mails at rest (openssl rand -base64 32)",
    );
    // The session cookie is Secure only with an https NEXTAUTH_URL: plain http only where nothing crosses a network.
    expect(() => parseEnv({ ...production, NEXTAUTH_URL: "http://panel.credit.example" })).toThrow(
      "Invalid configuration:\n  NEXTAUTH_URL: Must be https in production (http only on localhost): the panel's session cookie is Secure only then",
    );
    for (const local of ["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:3000"]) {
      expect(parseEnv({ ...production, NEXTAUTH_URL: local }).NEXTAUTH_URL).toBe(local);
    }
    expect(parseEnv({ ...BASE, NODE_ENV: "development", NEXTAUTH_URL: "http://panel.credit.example" }).NEXTAUTH_URL).toBe("http://panel.credit.example");
    // A malformed address is named like any wrong variable, not a TypeError from the checks after it.
    expect(() => parseEnv({ ...production, NEXTAUTH_URL: "panel credit" })).toThrow(/^Invalid configuration:\n {2}NEXTAUTH_URL: /);
    expect(() => parseEnv({ ...production, SANDBOX_BASE_URL: "not a url" })).toThrow(/^Invalid configuration:\n {2}SANDBOX_BASE_URL: /);
    // Loopback webhook endpoints are for local development: refused in production (one deployment serves both hosts).
    expect(parseEnv({ ...BASE, NODE_ENV: "development", WEBHOOKS_SANDBOX_ALLOW_LOOPBACK: "true" }).WEBHOOKS_SANDBOX_ALLOW_LOOPBACK).toBe(true);
    expect(() => parseEnv({ ...production, WEBHOOKS_SANDBOX_ALLOW_LOOPBACK: "true" })).toThrow(
      "Invalid configuration:\n  WEBHOOKS_SANDBOX_ALLOW_LOOPBACK: Not allowed in production: sandbox endpoints would reach this host's loopback services",
    );
    expect(() => parseEnv({ ...production, DATABASE_URL: undefined, AUTH_JWT_SECRET: "short" })).toThrow(
      /DATABASE_URL: .*\n {2}AUTH_JWT_SECRET: AUTH_JWT_SECRET must have at least 32 characters$/,
    );
  });

  it("e-mail: SMTP_URL is an smtp:// or smtps:// URL, optional; MAIL_FROM has a default", () => {
    const unset = parseEnv(BASE);
    expect([unset.SMTP_URL, unset.MAIL_FROM, unset.SMTP_TIMEOUT_MS]).toEqual([undefined, "Credit Platform <no-reply@credit-platform.local>", 15_000]);
    expect(parseEnv({ ...BASE, SMTP_URL: "smtps://user:pass@smtp.example.com:465" }).SMTP_URL).toBe("smtps://user:pass@smtp.example.com:465");
    expect(() => parseEnv({ ...BASE, SMTP_URL: "http://smtp.example.com" })).toThrow("SMTP_URL: Must be smtp://[user:pass@]host[:port] or smtps://…");
  });

  it("a production server with a wrong configuration exits at once and says what is wrong", () => {
    const env = { PATH: process.env.PATH ?? "", ...BASE, NODE_ENV: "production" as const, PORT: "3999" }; // never opened: the check comes first
    const started = spawnSync(process.execPath, [path.join(process.cwd(), "scripts", "server.mjs")], { env, encoding: "utf8", timeout: 60_000 });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain("NEXTAUTH_SECRET: Required in production");
    expect(started.stdout).not.toContain("listening");
  });
});
