// Generates the Java SDK's operation table and its one-method-per-operation class from sdk/openapi.json (run from
// the repository root by `npm run sdk:generate`; offline). Both outputs are committed; the tests fail when an
// operation of the document has no method.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { readOperations } from "../operations.mjs";

const here = path.dirname(new URL(import.meta.url).pathname);
const out = path.join(here, "src", "main", "java", "com", "creditplatform", "sdk");
const banner = "// Generated from sdk/openapi.json by sdk/java/generate.mjs — do not edit.\n";
const ops = readOperations().map((o) => ({ ...o, summary: o.summary.replace(/\*\//g, "*&#47;") }));
const q = (s) => JSON.stringify(s);
writeFileSync(
  path.join(out, "Operations.java"),
  `${banner}package com.creditplatform.sdk;

import java.util.List;
import java.util.Map;

/** Every /v1 operation by its operationId: method, path template, path parameters, query, body media type, credential, page. */
public final class Operations {
  private Operations() {}

  public record Operation(String id, String method, String path, List<String> pathParams, boolean query, String body, boolean auth, boolean paginated, boolean retrySafe) {}

  public static final Map<String, Operation> ALL = Map.ofEntries(
${ops.map((o) => `      Map.entry(${q(o.id)}, new Operation(${q(o.id)}, ${q(o.method)}, ${q(o.path)}, List.of(${o.pathParams.map(q).join(", ")}), ${o.query}, ${o.body ? q(o.body) : "null"}, ${o.auth}, ${o.paginated}, ${o.retrySafe}))`).join(",\n")});
}
`,
);
const methods = ops.map((o) => {
  const pathArgs = o.pathParams.map((p) => `String ${p}`);
  const pathMap = o.pathParams.length ? `Map.of(${o.pathParams.map((p) => `${q(p)}, ${p}`).join(", ")})` : "Map.of()";
  return `  /** ${o.method} ${o.path} — ${o.summary} */
  public JsonNode ${o.id}(${[...pathArgs, "Request request"].join(", ")}) {
    return call(${q(o.id)}, ${pathMap}, request);
  }

  /** ${o.method} ${o.path} with no query or body. */
  public JsonNode ${o.id}(${pathArgs.join(", ")}) {
    return call(${q(o.id)}, ${pathMap}, Request.create());
  }
`;
});
writeFileSync(
  path.join(out, "GeneratedOperations.java"),
  `${banner}package com.creditplatform.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** One method per operation of the OpenAPI document, named by its operationId (the client implements {@code call}). */
public abstract class GeneratedOperations {
  protected abstract JsonNode call(String operationId, Map<String, String> pathParams, Request request);

${methods.join("\n")}}
`,
);
console.log(`generated ${ops.length} Java operations`);
