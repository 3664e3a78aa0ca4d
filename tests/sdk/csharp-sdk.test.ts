import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "@/scripts/lib/database";
import { runSuite, startSdkHarness, type SdkHarness } from "./harness";

// The C# SDK (sdk/csharp): compiled with Mono's mcs against Debian's Newtonsoft.Json and NUnit (.ci/run installs
// mono-devel, libnewtonsoft-json-cil-dev, nunit-console), then its NUnit suite run by nunit-console against the real
// /v1 handlers on the test database. No NuGet: only Debian packages are reachable here.

/** A Debian CLI assembly, whatever its versioned folder: /usr/lib/cli/<name>-<version>/<name>.dll. */
const assembly = (name: string): string => {
  const dir = existsSync("/usr/lib/cli") ? readdirSync("/usr/lib/cli").find((d) => d.startsWith(`${name}-`)) : undefined;
  if (!dir) throw new Error(`${name}.dll is missing: apt-get install mono-devel libnewtonsoft-json-cil-dev nunit-console`);
  return path.join("/usr/lib/cli", dir, `${name}.dll`);
};
const newtonsoft = () => assembly("Newtonsoft.Json");
const nunit = () => assembly("nunit.framework");
const sources = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".cs")).map((f) => path.join(dir, f));

let harness: SdkHarness;
beforeAll(async () => {
  harness = await startSdkHarness();
}, 120_000);
afterAll(() => harness?.stop(), 20_000);

describe("the C# SDK", () => {
  it("compiles with mcs and passes its NUnit suite against the running API", async () => {
    const out = path.join(ROOT, ".data", "sdk-csharp");
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const sdk = path.join(ROOT, "sdk", "csharp");
    const lib = path.join(out, "CreditPlatform.Sdk.dll");
    const tests = path.join(out, "CreditPlatform.Sdk.Tests.dll");
    const common = ["-langversion:7.2", "-warnaserror", "-target:library", "-r:System.Net.Http", `-r:${newtonsoft()}`];
    const built = await runSuite("mcs", [...common, `-out:${lib}`, `-doc:${path.join(out, "CreditPlatform.Sdk.xml")}`, "-nowarn:1591", ...sources(path.join(sdk, "src"))], {}, ROOT);
    expect(built.code, built.output).toBe(0);
    const builtTests = await runSuite("mcs", [...common, `-r:${nunit()}`, `-r:${lib}`, `-out:${tests}`, ...sources(path.join(sdk, "tests"))], {}, ROOT);
    expect(builtTests.code, builtTests.output).toBe(0);
    for (const dll of [newtonsoft(), nunit()]) copyFileSync(dll, path.join(out, path.basename(dll)));
    const { code, output } = await runSuite("nunit-console", [tests, "-nologo", `-work=${out}`], { ...harness.env, CREDIT_PLATFORM_TEST_OPENAPI: path.join(ROOT, "sdk", "openapi.json") }, out);
    expect(code, output).toBe(0);
    console.log(output.split("\n").filter((l) => /Tests run/.test(l)).join("\n"));
  }, 240_000);
});
