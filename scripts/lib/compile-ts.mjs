// Compiles one of the project's TypeScript entry points, with what it imports from the project (packages stay
// imports), into plain ES modules under node_modules/.cache/credit-platform/, for the processes that must not carry
// a TypeScript loader: the app's server (tsx's module hooks cost every request ~25% of the throughput) and
// `npm run dev` (tsx's own start-up, ≈ 0.4 s, sat before the server could be spawned). esbuild takes ≈ 30–150 ms.
//
// The output goes to a folder named by its content's hash, written under a temporary name and renamed into place,
// so that two processes starting at once never import a half-written module nor each other's older build.
// With `splitting`, an `await import()` in the entry stays a separate chunk that loads only when reached.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "credit-platform");
const STALE_MS = 24 * 3600_000;

/**
 * @param {string} entry the entry point, relative to the project root (e.g. "lib/http/app-server.ts")
 * @param {{ splitting?: boolean }} [options]
 * @returns {Promise<string>} the compiled entry's file: URL, ready for import()
 */
export async function compileTs(entry, { splitting = false } = {}) {
  const name = path.basename(entry, path.extname(entry));
  const built = await build({
    entryPoints: [path.join(ROOT, entry)],
    outdir: path.join(CACHE, name),
    outExtension: { ".js": ".mjs" },
    write: false,
    bundle: true,
    splitting,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    logLevel: "warning",
  });
  const hash = createHash("sha256");
  for (const file of built.outputFiles) hash.update(path.basename(file.path)).update(file.contents);
  const dir = path.join(CACHE, `${name}-${hash.digest("hex").slice(0, 16)}`);
  if (!existsSync(dir)) {
    const staged = `${dir}.${process.pid}`;
    mkdirSync(staged, { recursive: true });
    for (const file of built.outputFiles) writeFileSync(path.join(staged, path.basename(file.path)), file.contents);
    try {
      renameSync(staged, dir);
    } catch {
      rmSync(staged, { recursive: true, force: true }); // another process put the same build there first
    }
  }
  pruneOlderBuilds(name, dir);
  return pathToFileURL(path.join(dir, `${name}.mjs`)).href;
}

// Builds of earlier versions of the entry, untouched for a day (a process still running one loads its chunks from it).
function pruneOlderBuilds(name, keep) {
  const ours = new RegExp(`^${name.replace(/[^\w]/g, "\\$&")}-[0-9a-f]{16}(\\.\\d+)?$`); // builds and staged ones of a killed process
  for (const entry of readdirSync(CACHE)) {
    const dir = path.join(CACHE, entry);
    if (dir === keep || !ours.test(entry)) continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}
