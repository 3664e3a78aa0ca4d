import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort, ROOT } from "@/scripts/lib/database";
import { newClient, newKey, newTenant } from "../helpers/factory";
import { startRouteServer } from "../helpers/route-server-process";

// What each SDK's own test suite (pytest, JUnit, NUnit…) runs against: every /v1 handler served by a process of
// its own on the test database, a webhook worker, and a fresh tenant with a sandbox key (read write
// proposals:review) and an OAuth client (read). Their addresses and credentials go to the suite in the
// environment (CREDIT_PLATFORM_TEST_*).

export type SdkHarness = { env: Record<string, string>; stop: () => Promise<void> };

export async function startSdkHarness(): Promise<SdkHarness> {
  const port = await freePort();
  const server = await startRouteServer(port, 5, "api-server.ts");
  const worker: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
  const { tenant } = await newTenant();
  const { key } = await newKey(tenant.id, "sandbox", ["read", "write", "proposals:review"]);
  const { client, clientSecret } = await newClient(tenant.id, "sandbox", ["read"]);
  return {
    env: {
      CREDIT_PLATFORM_TEST_URL: `http://127.0.0.1:${port}`,
      CREDIT_PLATFORM_TEST_TENANT: tenant.id,
      CREDIT_PLATFORM_TEST_KEY: key,
      CREDIT_PLATFORM_TEST_CLIENT_ID: client.client_id,
      CREDIT_PLATFORM_TEST_CLIENT_SECRET: clientSecret,
    },
    // The worker finishes its round and exits before the next test file starts (it would claim that file's deliveries).
    stop: async () => {
      server.kill("SIGKILL");
      if (worker.exitCode === null) {
        const exited = new Promise((resolve) => worker.once("exit", resolve));
        worker.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
    },
  };
}

/** The first of `candidates` for which `probe` exits 0 (e.g. the python that has pytest). */
export function firstWorking(candidates: string[], probe: string[]): string | null {
  return candidates.find((c) => spawnSync(c, probe, { stdio: "ignore" }).status === 0) ?? null;
}

/** Runs a test suite to its end; resolves with its exit code and everything it printed. */
export function runSuite(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const proc = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let output = "";
    proc.stdout.on("data", (c: Buffer) => (output += c.toString()));
    proc.stderr.on("data", (c: Buffer) => (output += c.toString()));
    proc.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}
