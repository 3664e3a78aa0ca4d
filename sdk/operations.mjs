// The one description of the operations the SDK generators share (Node, Java, C#; Python's generator reads the
// same fields in Python): every operation of sdk/openapi.json with its method, path template, path parameters,
// whether it takes a query, its body's media type, whether it needs a credential, whether it answers a page, and
// its summary.
import { readFileSync } from "node:fs";
import path from "node:path";

export const DOCUMENT_PATH = path.join(path.dirname(new URL(import.meta.url).pathname), "openapi.json");

export function readOperations() {
  const doc = JSON.parse(readFileSync(DOCUMENT_PATH, "utf8"));
  const ops = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      ops.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path: template,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.some((p) => p.in === "query"),
        body: op.requestBody ? Object.keys(op.requestBody.content)[0] : null,
        auth: (op.security ?? []).length > 0,
        paginated: params.some((p) => p.in === "query" && p.name === "cursor"),
        summary: op.summary ?? "",
      });
    }
  }
  return ops;
}
