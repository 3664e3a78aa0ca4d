import { spawn, type ChildProcess } from "node:child_process";
import { constants } from "node:os";
import path from "node:path";

// `npm run bench` — see bench/README.md. This process only supervises bench/benchmark.ts, which runs in
// a plain `node --import tsx` child: tsx's CLI (the parent of this process) SIGKILLs its child when that
// child does not acknowledge a Ctrl-C within 30 ms, which a process busy generating load cannot promise,
// and a SIGKILL would leave the servers and the database behind. This process stays idle, so it always
// answers in time, and the benchmark gets the time it needs to clean up.

// First the start-up benchmark (bench/startup.ts; BENCH_SKIP_STARTUP=1 skips it), then the request benchmark, then
// webhook delivery (bench/webhooks.ts). BENCH_ONLY=startup|benchmark|webhooks runs one of them.
const ALL = [...(process.env.BENCH_SKIP_STARTUP === "1" ? [] : ["startup.ts"]), "benchmark.ts", "webhooks.ts"];
const only = process.env.BENCH_ONLY;
if (only && !["startup", "benchmark", "webhooks"].includes(only)) throw new Error("BENCH_ONLY must be startup, benchmark or webhooks");
const steps = only ? [`${only}.ts`] : ALL;
let current: ChildProcess | null = null;

// The terminal's Ctrl-C reaches the whole process group, the child included; a signal sent to this
// process alone (e.g. by a CI timeout) is passed on. The child treats repeated signals as one.
let interrupted = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    interrupted = true;
    current?.kill(sig);
  });
}
for (const step of steps) {
  if (interrupted) break;
  const code = await new Promise<number>((resolve) => {
    current = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, step)], { stdio: "inherit" });
    current.on("exit", (c, signal) => resolve(c ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
  if (code !== 0) process.exit(code);
}
