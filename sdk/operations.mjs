// The one description of the operations the SDK generators share (Node, Java, C#; Python's generator reads the
// same fields in Python): every operation of sdk/openapi.json with its method, path template, path parameters,
// whether it takes a query, its body's media type, whether it needs a credential, whether it answers a page,
// whether it may be sent again after a failure that left its outcome unknown, and its summary.
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
        retrySafe: retrySafe(method, params),
        summary: op.summary ?? "",
      });
    }
  }
  return ops;
}

/** GET, HEAD, PUT and DELETE may be sent again; a POST only when the server replays it by its X-Request-Id (it then
 *  documents Idempotency-Key): POST /v1/auth/token is not — a refresh sent twice is a reuse that revokes the grant. */
function retrySafe(method, params) {
  if (method === "post") return params.some((p) => p.in === "header" && p.name === "Idempotency-Key");
  return method !== "patch";
}
