// `npm start` (production: serves the build of `npm run build`) and `node scripts/server.mjs --dev` (what
// `npm run dev` starts): the app's server, lib/http/app-server.ts. Plain JavaScript on purpose: it compiles that
// file and what it imports (the edge checks, the error catalogue) with esbuild into one module — packages stay
// imports — and runs it, so the server process has no TypeScript loader in it (tsx's hooks made every request
// ~25% slower). PORT (default 3000) and LISTEN_HOST (default: every interface).

import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outfile = path.join(root, "node_modules", ".cache", "credit-platform", "app-server.mjs");
mkdirSync(path.dirname(outfile), { recursive: true });
const built = await build({
  entryPoints: [path.join(root, "lib", "http", "app-server.ts")],
  outfile,
  write: false,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
});
// Written whole, then renamed into place: another server starting at the same moment (tests, a second
// terminal) never imports a half-written module.
const staged = `${outfile}.${process.pid}`;
writeFileSync(staged, built.outputFiles[0].contents);
renameSync(staged, outfile);
const { startAppServer } = await import(pathToFileURL(outfile).href);
await startAppServer({ dir: root, dev: process.argv.includes("--dev") });
