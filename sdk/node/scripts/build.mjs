// Builds the SDK: dist/esm (import) and dist/cjs (require), each one bundled file from src/ with esbuild, and the
// type declarations from tsc. Run from sdk/node or the repository root (`node sdk/node/scripts/build.mjs`).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dist = path.join(root, "dist");
rmSync(dist, { recursive: true, force: true });
const common = { entryPoints: [path.join(root, "src", "index.ts")], bundle: true, platform: "node", target: "node20", external: ["standardwebhooks"], sourcemap: true, logLevel: "warning" };
await build({ ...common, format: "esm", outfile: path.join(dist, "esm", "index.js") });
await build({ ...common, format: "cjs", outfile: path.join(dist, "cjs", "index.js") });
writeFileSync(path.join(dist, "cjs", "package.json"), '{ "type": "commonjs" }\n');
const tsc = path.resolve(root, "..", "..", "node_modules", ".bin", "tsc");
execFileSync(tsc, ["-p", path.join(root, "tsconfig.json"), "--emitDeclarationOnly", "--declaration", "--noEmit", "false", "--outDir", path.join(dist, "esm")], { stdio: "inherit" });
mkdirSync(path.join(dist, "cjs"), { recursive: true });
for (const file of ["index.d.ts", "client.d.ts", "errors.d.ts", "operations.d.ts", "schema.d.ts", "webhooks.d.ts"]) cpSync(path.join(dist, "esm", file), path.join(dist, "cjs", file));
console.log("built dist/esm and dist/cjs");
