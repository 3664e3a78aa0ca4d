import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "@/scripts/lib/database";

// The SDKs are generated from sdk/openapi.json: it must be the app's document of today (`npm run sdk:generate`
// rewrites it and the Node SDK's types and operation table). Servers and contact depend on the deployment's
// addresses and are left out of the comparison.

describe("sdk/openapi.json", () => {
  it("is the app's current OpenAPI document, and the Node SDK's types know every operation", async () => {
    const { openApiDocument } = await import("@/lib/api/openapi/document");
    const strip = (doc: Record<string, unknown>) => {
      const copy = structuredClone(doc) as { servers?: unknown; info: { contact?: unknown } };
      delete copy.servers;
      delete copy.info.contact;
      return copy;
    };
    const committed = JSON.parse(readFileSync(path.join(ROOT, "sdk", "openapi.json"), "utf8")) as Record<string, unknown>;
    expect(strip(committed), "run `npm run sdk:generate`").toEqual(strip(JSON.parse(JSON.stringify(openApiDocument()))));
    const schema = readFileSync(path.join(ROOT, "sdk", "node", "src", "schema.ts"), "utf8");
    const ids = Object.values(committed.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.filter((id) => !schema.includes(`    ${id}: {`)), "run `npm run sdk:generate`").toEqual([]);
  });
});
