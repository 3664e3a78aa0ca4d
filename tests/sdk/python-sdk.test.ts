import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "@/scripts/lib/database";
import { firstWorking, runSuite, startSdkHarness, type SdkHarness } from "./harness";

// The Python SDK's own pytest suite (sdk/python/tests), run against the real /v1 handlers on the test database.
// Python: the first of python3 / Debian's /usr/bin/python3 that has pytest (.ci/run installs python3-pytest).

let harness: SdkHarness;
beforeAll(async () => {
  harness = await startSdkHarness();
}, 120_000);
afterAll(() => harness?.stop(), 20_000);

describe("the Python SDK", () => {
  it("passes its pytest suite against the running API", async () => {
    const python = firstWorking(["python3", "/usr/bin/python3"], ["-m", "pytest", "--version"]);
    expect(python, "no python3 with pytest: apt-get install python3-pytest").not.toBeNull();
    const { code, output } = await runSuite(python!, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], { ...harness.env, PYTHONDONTWRITEBYTECODE: "1" }, path.join(ROOT, "sdk", "python"));
    expect(code, output).toBe(0);
    console.log(output.trim().split("\n").slice(-1)[0]);
  }, 240_000);
});
