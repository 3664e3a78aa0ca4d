// `npm start` (production: serves the build of `npm run build`) and `node scripts/server.mjs --dev` (what
// `npm run dev` starts): the app's server, lib/http/app-server.ts. Plain JavaScript on purpose: it compiles that
// file and what it imports (the edge checks, the error catalogue) with esbuild (./lib/compile-ts.mjs) and runs it,
// so the server process has no TypeScript loader in it (tsx's hooks made every request ~25% slower).
// PORT (default 3000) and LISTEN_HOST (default: every interface).

import { compileTs, ROOT } from "./lib/compile-ts.mjs";

const { startAppServer } = await import(await compileTs("lib/http/app-server.ts"));
await startAppServer({ dir: ROOT, dev: process.argv.includes("--dev") });
