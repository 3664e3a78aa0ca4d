import { writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/database";

// `npm run sdk:openapi`: writes the OpenAPI document the SDKs are generated from (sdk/openapi.json), for the
// local development addresses. tests/platform/sdk-openapi.test.ts fails when it is older than the app's document,
// and each SDK's tests fail when an operation in it has no method.

process.env.SANDBOX_BASE_URL = "http://localhost:3000";
process.env.PRODUCTION_BASE_URL = "http://127.0.0.1:3000";
process.env.AUTH_JWT_SECRET ??= "x".repeat(32); // read by the config module; not used by the document
process.env.DATABASE_URL ??= "postgresql://unused@127.0.0.1/unused";
const { openApiDocument } = await import("@/lib/api/openapi/document");
const file = path.join(ROOT, "sdk", "openapi.json");
writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${path.relative(ROOT, file)}`);
