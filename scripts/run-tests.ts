import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { createDatabase, dropDatabase, ensureServer, generateClient, migrate, ROOT, run, withDatabase } from "./lib/database";

// `npm test`: every test against a real PostgreSQL. With DATABASE_URL set, a throw-away database is
// created on that server; otherwise an embedded PostgreSQL is started under .data/test-pg. Unit and
// integration tests (vitest) run first, then the browser tests (Playwright in Debian's Chromium).
// With REDIS_URL set the rate-limit suite also runs against Redis. Extra arguments go to vitest.

const args = process.argv.slice(2);
const skipE2E = process.env.SKIP_E2E === "1";
const reports = path.join(ROOT, ".data", "test-reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const server = await ensureServer(path.join(ROOT, ".data", "test-pg"));
const dbName = `cp_test_${process.pid}_${Date.now()}`;
let failed = false;
try {
  await createDatabase(server.adminUrl, dbName);
  const databaseUrl = withDatabase(server.adminUrl, dbName);
  console.log(`▶ test database ${dbName} on ${server.embedded ? "embedded PostgreSQL" : "DATABASE_URL's server"}`);
  await generateClient();
  await migrate(databaseUrl);
  const env = { DATABASE_URL: databaseUrl, NODE_ENV: "test" };

  try {
    await run("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reports, "vitest.json")}`, ...args], env);
  } catch {
    failed = true;
  }
  if (!skipE2E && args.length === 0) {
    try {
      await run("playwright", ["test"], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "playwright.json") });
    } catch {
      failed = true;
    }
  }
} finally {
  await dropDatabase(server.adminUrl, dbName).catch(() => undefined);
  await server.stop();
}

// One closing line CI can read: "N passed, N failed".
let passed = 0;
let failures = 0;
try {
  const v = JSON.parse(readFileSync(path.join(reports, "vitest.json"), "utf8")) as { numPassedTests: number; numFailedTests: number };
  passed += v.numPassedTests;
  failures += v.numFailedTests;
} catch {
  failures += failed ? 1 : 0;
}
try {
  const p = JSON.parse(readFileSync(path.join(reports, "playwright.json"), "utf8")) as { stats: { expected: number; unexpected: number; flaky: number } };
  passed += p.stats.expected + p.stats.flaky;
  failures += p.stats.unexpected;
} catch {
  // no browser run
}
if (failed && failures === 0) failures = 1;
console.log(`${passed} passed, ${failures} failed`);
process.exit(failed || failures > 0 ? 1 : 0);
