// Generates the SDK's types and its operation table from sdk/openapi.json (run from the repository root by
// `npm run sdk:generate`; offline): src/schema.ts by openapi-typescript, src/operations.ts by this script.
// Both are committed; the tests fail when the document has an operation the table lacks.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { DOCUMENT_PATH, readOperations } from "../../operations.mjs";

const here = path.dirname(new URL(import.meta.url).pathname);
const document = JSON.parse(readFileSync(DOCUMENT_PATH, "utf8"));
const banner = "// Generated from sdk/openapi.json by sdk/node/scripts/generate.mjs — do not edit.\n";

const ast = await openapiTS(document, { defaultNonNullable: false, alphabetize: false });
writeFileSync(path.resolve(here, "..", "src", "schema.ts"), `${banner}${astToString(ast)}`);

const operations = readOperations().map((o) => ({ ...o, operationId: o.id, auth: o.auth ? "bearer" : "none" }));
const lines = operations.map((o) => `  ${o.operationId}: ${JSON.stringify({ method: o.method, path: o.path, pathParams: o.pathParams, query: o.query, body: o.body, auth: o.auth, paginated: o.paginated, retrySafe: o.retrySafe })},`);
writeFileSync(
  path.resolve(here, "..", "src", "operations.ts"),
  `${banner}// Every /v1 operation: method, path template, path parameters, whether it takes a query or a body (and its media
// type), whether it needs a credential, and whether it answers a paginated list.
export const OPERATIONS = {\n${lines.join("\n")}\n} as const;\n\nexport type OperationId = keyof typeof OPERATIONS;\n`,
);
console.log(`generated ${operations.length} operations and their types`);
