import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "@/scripts/lib/database";
import { runSuite, startSdkHarness, type SdkHarness } from "./harness";

// The Java SDK (sdk/java): compiled with the JDK's javac against Debian's jars (Jackson, JUnit 5 — .ci/run installs
// libjackson2-databind-java and junit5), then its JUnit suite run by the console launcher against the real /v1
// handlers on the test database. No Maven: only Debian packages are reachable here.

const JARS = "/usr/share/java";
const classpath = ["jackson-databind.jar", "jackson-core.jar", "jackson-annotations.jar"].map((j) => path.join(JARS, j));
const launcher = path.join(JARS, "junit-platform-console-standalone.jar");
const sources = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? sources(path.join(dir, name)) : name.endsWith(".java") ? [path.join(dir, name)] : []));

let harness: SdkHarness;
beforeAll(async () => {
  harness = await startSdkHarness();
}, 120_000);
afterAll(() => harness?.stop(), 20_000);

describe("the Java SDK", () => {
  it("compiles with javac and passes its JUnit 5 suite against the running API", async () => {
    const out = path.join(ROOT, ".data", "sdk-java");
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const sdk = path.join(ROOT, "sdk", "java", "src");
    const compiled = await runSuite("javac", ["-Xlint:all,-serial", "-Werror", "-d", out, "-cp", [...classpath, launcher].join(":"), ...sources(path.join(sdk, "main")), ...sources(path.join(sdk, "test"))], {}, ROOT);
    expect(compiled.code, compiled.output).toBe(0);
    const { code, output } = await runSuite(
      "java",
      ["-jar", launcher, "--disable-banner", "--details=summary", "--fail-if-no-tests", "--class-path", [out, ...classpath].join(":"), "--select-package", "com.creditplatform.sdk"],
      { ...harness.env, CREDIT_PLATFORM_TEST_OPENAPI: path.join(ROOT, "sdk", "openapi.json") },
      ROOT,
    );
    expect(code, output).toBe(0);
    console.log(output.split("\n").filter((l) => /tests (successful|failed)/.test(l)).join("\n"));
  }, 240_000);
});
