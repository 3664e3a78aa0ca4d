// Generates the SDK's types and its operation table from sdk/openapi.json (run from the repository root by
// `npm run sdk:generate`; offline): src/schema.ts by openapi-typescript, src/operations.ts by this script.
// Both are committed; the tests fail when the document has an operation the table lacks.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";

const here = path.dirname(new URL(import.meta.url).pathname);
const documentPath = path.resolve(here, "..", "..", "openapi.json");
const document = JSON.parse(readFileSync(documentPath, "utf8"));
const banner = "// Generated from sdk/openapi.json by sdk/node/scripts/generate.mjs — do not edit.\n";

const ast = await openapiTS(document, { defaultNonNullable: false, alphabetize: false });
writeFileSync(path.resolve(here, "..", "src", "schema.ts"), `${banner}${astToString(ast)}`);

const operations = [];
for (const [template, item] of Object.entries(document.paths)) {
  for (const method of ["get", "post", "put", "patch", "delete"]) {
    const op = item[method];
    if (!op) continue;
    const pathParams = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
    operations.push({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path: template,
      pathParams,
      query: (op.parameters ?? []).some((p) => p.in === "query"),
      body: op.requestBody ? Object.keys(op.requestBody.content)[0] : null,
      auth: (op.security ?? []).length > 0 ? "bearer" : "none",
      paginated: (op.parameters ?? []).some((p) => p.in === "query" && p.name === "cursor"),
    });
  }
}
const lines = operations.map((o) => `  ${o.operationId}: ${JSON.stringify({ method: o.method, path: o.path, pathParams: o.pathParams, query: o.query, body: o.body, auth: o.auth, paginated: o.paginated })},`);
writeFileSync(
  path.resolve(here, "..", "src", "operations.ts"),
  `${banner}// Every /v1 operation: method, path template, path parameters, whether it takes a query or a body (and its media
// type), whether it needs a credential, and whether it answers a paginated list.
export const OPERATIONS = {\n${lines.join("\n")}\n} as const;\n\nexport type OperationId = keyof typeof OPERATIONS;\n`,
);
console.log(`generated ${operations.length} operations and their types`);
