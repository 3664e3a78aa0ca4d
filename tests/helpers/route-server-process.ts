import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT } from "@/scripts/lib/database";

// The real /v1 handlers in a process of their own (tests/helpers/route-server.ts), for fault tests that kill it
// with SIGKILL mid-write and start it again: the sandbox address (or the production one) is the loopback port, a short idempotency lease
// lets a replay take over from a dead request, and the rate limit never answers 429.

export async function startRouteServer(
  port: number,
  leaseSeconds: number,
  script: "route-server.ts" | "api-server.ts" = "route-server.ts",
  environment: "sandbox" | "production" = "sandbox",
  extraEnv: Record<string, string> = {},
): Promise<ChildProcess> {
  const loopback = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests", "helpers", script)], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      // The environment the loopback address serves (a key of the other one is 421 there).
      SANDBOX_BASE_URL: environment === "sandbox" ? loopback : "http://sandbox.invalid:1",
      PRODUCTION_BASE_URL: environment === "production" ? loopback : "http://production.invalid:1",
      IDEMPOTENCY_LEASE_SECONDS: String(leaseSeconds),
      // A request's transaction (the lease) must outlive a payroll authority call (lib/env.ts): one short attempt.
      PAYROLL_AUTHORITY_MAX_RETRIES: "0",
      PAYROLL_AUTHORITY_TIMEOUT_MS: String(Math.max(100, leaseSeconds * 1000 - 1000)),
      RATE_LIMIT_SANDBOX_PER_MINUTE: "1000000",
      RATE_LIMIT_PRODUCTION_PER_MINUTE: "1000000",
      LOG_LEVEL: "silent",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
    proc.once("exit", (code) => reject(new Error(`route server exited with ${code}`)));
  });
  return proc;
}

/** SIGKILL, resolved once the process is gone. */
export function killHard(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.once("exit", () => resolve());
    proc.kill("SIGKILL");
  });
}
