// Generates the C# SDK's operation table and its one-method-per-operation partial class from sdk/openapi.json (run
// from the repository root by `npm run sdk:generate`; offline). Both outputs are committed; the tests fail when an
// operation of the document has no method.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { readOperations } from "../operations.mjs";

const here = path.dirname(new URL(import.meta.url).pathname);
const banner = "// Generated from sdk/openapi.json by sdk/csharp/generate.mjs — do not edit.\n";
const pascal = (id) => id[0].toUpperCase() + id.slice(1);
const q = (s) => JSON.stringify(s);
const ops = readOperations().map((o) => ({ ...o, summary: o.summary.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;") }));
writeFileSync(
  path.join(here, "src", "Operations.cs"),
  `${banner}using System.Collections.Generic;

namespace CreditPlatform.Sdk
{
    /// <summary>One /v1 operation: method, path template, path parameters, body media type, credential, page.</summary>
    public sealed class Operation
    {
        public Operation(string id, string method, string path, string[] pathParams, string body, bool auth, bool paginated, bool retrySafe)
        {
            Id = id; Method = method; Path = path; PathParams = pathParams; Body = body; Auth = auth; Paginated = paginated; RetrySafe = retrySafe;
        }
        public string Id { get; }
        public string Method { get; }
        public string Path { get; }
        public string[] PathParams { get; }
        public string Body { get; }
        public bool Auth { get; }
        public bool Paginated { get; }
        /// <summary>Sent again after an unknown outcome: GET, PUT, DELETE, and POSTs the server replays by X-Request-Id.</summary>
        public bool RetrySafe { get; }
    }

    /// <summary>Every /v1 operation by its operationId.</summary>
    public static class Operations
    {
        public static readonly IReadOnlyDictionary<string, Operation> All = new Dictionary<string, Operation>
        {
${ops.map((o) => `            [${q(o.id)}] = new Operation(${q(o.id)}, ${q(o.method)}, ${q(o.path)}, new string[] { ${o.pathParams.map(q).join(", ")} }, ${o.body ? q(o.body) : "null"}, ${o.auth}, ${o.paginated}, ${o.retrySafe}),`).join("\n")}
        };
    }
}
`,
);
const methods = ops.map((o) => {
  const args = [...o.pathParams.map((p) => `string ${p}`), "Request request = null"].join(", ");
  const pathMap = o.pathParams.length ? `new Dictionary<string, string> { ${o.pathParams.map((p) => `[${q(p)}] = ${p}`).join(", ")} }` : "NoPathParams";
  return `        /// <summary>${o.method} ${o.path} — ${o.summary}</summary>
        public Task<JToken> ${pascal(o.id)}Async(${args}) => CallAsync(${q(o.id)}, ${pathMap}, request);
`;
});
writeFileSync(
  path.join(here, "src", "GeneratedOperations.cs"),
  `${banner}using System.Collections.Generic;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace CreditPlatform.Sdk
{
    /// <summary>One method per operation of the OpenAPI document: its operationId in PascalCase + Async.</summary>
    public partial class CreditPlatformClient
    {
        private static readonly IDictionary<string, string> NoPathParams = new Dictionary<string, string>();

${methods.join("\n")}    }
}
`,
);
console.log(`generated ${ops.length} C# operations`);
