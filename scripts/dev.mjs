// `npm run dev` (and `npm run start:demo`): runs scripts/start-demo.ts, compiled by esbuild (./lib/compile-ts.mjs)
// instead of through tsx, whose own start-up (≈ 0.4 s) came before the app's server could even be spawned — the
// largest share of a later start that was ours (README.md, Benchmark: start-up). Arguments pass through
// (`npm run dev -- --prod`).

import { compileTs } from "./lib/compile-ts.mjs";

await import(await compileTs("scripts/start-demo.ts", { splitting: true }));
