import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, ROOT } from "@/scripts/lib/database";
import { portOpen } from "@/scripts/lib/dev-env";

// `npm run worker` and the operator CLIs (`npm run jobs`, `tenants`, `keys`, …) with NODE_ENV=production take the
// configuration as the deployment set it and check it first, as `npm start` does (lib/env.ts): a missing secret is
// named and the process exits 1 — no secret is generated into .data/dev-secrets.json and no embedded PostgreSQL is
// started (scripts/lib/dev-env.ts, scriptDatabase). They run from a copy of the project's sources in a temporary
// folder (the scripts find the project's root from their own location), so anything they wrote under .data would show.

let copy = "";
let pgPort = 0;

beforeAll(async () => {
  copy = mkdtempSync(path.join(os.tmpdir(), "production-scripts-"));
  for (const entry of ["lib", "scripts", "prisma", "i18n", "messages", "security-headers.mjs", "security-headers.d.mts", "tsconfig.json", "package.json"]) {
    cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
  pgPort = await freePort();
});

afterAll(() => {
  // Should a regression have started the embedded PostgreSQL in the copy, stop it (by its own pid) before removing it.
  const pidFile = path.join(copy, ".data", "pg", "postmaster.pid");
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, "utf8").split("\n")[0]), "SIGINT");
    } catch {
      // already gone
    }
  }
  rmSync(copy, { recursive: true, force: true });
});

/** Runs a script of the copy in production with only the variables given (and PATH), as a deployment would. */
function run(script: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ["--import", "tsx", path.join(copy, ...script[0]!.split("/")), ...script.slice(1)], {
    cwd: copy,
    env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), EMBEDDED_PG_PORT: String(pgPort), ...env, NODE_ENV: "production" },
    encoding: "utf8",
    timeout: 60_000,
  });
}

const PRODUCTION = { AUTH_JWT_SECRET: "a".repeat(32), LOG_LEVEL: "silent" };

describe("the worker and the CLIs in production", () => {
  it.each([
    ["the worker", ["scripts/worker.ts"]],
    ["a CLI", ["scripts/cli/jobs.ts", "purge-idempotency"]],
  ])("%s exits 1 naming what is missing, without generating secrets or starting a database", async (_name, script) => {
    // Without DATABASE_URL (development would start the embedded PostgreSQL and use it).
    const noDatabase = run(script, PRODUCTION);
    expect(noDatabase.status, noDatabase.stderr).toBe(1);
    expect(noDatabase.stderr).toMatch(/^Invalid configuration:\n {2}DATABASE_URL: /);
    // With it, but without the secrets development would generate into .data/dev-secrets.json.
    const noSecrets = run(script, { ...PRODUCTION, DATABASE_URL: process.env.DATABASE_URL! });
    expect(noSecrets.status, noSecrets.stderr).toBe(1);
    expect(noSecrets.stderr).toContain("Invalid configuration:");
    expect(noSecrets.stderr).toContain("NEXTAUTH_SECRET: Required in production");
    expect(noSecrets.stderr).toContain("NEXTAUTH_URL: Required in production");
    expect(noSecrets.stderr).toContain("WEBHOOK_SECRETS_KEY: Required in production");
    for (const started of [noDatabase, noSecrets]) {
      expect(started.stderr).not.toMatch(/^\s+at /m); // the message, not a stack
      expect(started.stdout).not.toContain("worker started");
    }
    expect(existsSync(path.join(copy, ".data"))).toBe(false);
    expect(await portOpen(pgPort)).toBe(false);
  });

  it("a CLI with a complete configuration runs against DATABASE_URL, writing nothing under .data", () => {
    const started = run(["scripts/cli/jobs.ts", "purge-idempotency", "--json"], {
      ...PRODUCTION,
      DATABASE_URL: process.env.DATABASE_URL!,
      NEXTAUTH_SECRET: "b".repeat(32),
      NEXTAUTH_URL: "https://panel.credit.example",
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
    });
    expect(started.status, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({ deleted: expect.any(Number) });
    expect(existsSync(path.join(copy, ".data"))).toBe(false);
  });
});
