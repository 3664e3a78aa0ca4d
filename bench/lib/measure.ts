import { deepStrictEqual } from "node:assert/strict";
import autocannon, { type Options, type RawResult, type Result } from "autocannon";
import { get } from "./children";
import { cpuSnapshot, otherCpu, type OtherCpu } from "./cpu";

// One benchmark target: check it answers what we expect, warm it up (figures dropped), then load it
// in slices with autocannon. run.ts interleaves the slices of all targets (round-robin) so that a
// neighbour's burst of CPU is spread over the targets instead of hitting one; the slices are merged at
// the end (latency histograms included, so p50/p99 are exact over the whole measured time).

export type Target = {
  name: "bare" | "static" | "health";
  description: string;
  url: string;
  headers: Record<string, string>;
  expected: Record<string, unknown>;
};

export type Measurement = {
  target: Target["name"];
  description: string;
  url: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  completed: number;
  measuredSeconds: number;
  statusCodes: Record<string, number>;
  /** Share of the machine's CPU used by processes other than the benchmark's during the measured slices. */
  otherCpuPercent: number;
};

export type LoadOptions = { connections: number; durationSeconds: number; warmupSeconds: number; rounds: number };
/** Process groups of the benchmark's own servers (their CPU time is not "other"). */
export type Own = { pgids: number[] };
export type Slice = { raw: RawResult; cpu: OtherCpu };

/** Fails loudly unless the target answers 200 with exactly the expected JSON; returns the body text. */
export async function verify(target: Target): Promise<string> {
  const reply = await get(target.url, target.headers);
  const context = `${target.name} (${target.url}) answered ${reply.status} ${reply.headers["content-type"] ?? ""}: ${reply.body.slice(0, 500)}`;
  if (reply.status !== 200) throw new Error(`Verification failed: ${context}`);
  if (!String(reply.headers["content-type"]).startsWith("application/json")) throw new Error(`Verification failed (not JSON): ${context}`);
  try {
    deepStrictEqual(JSON.parse(reply.body), target.expected);
  } catch {
    throw new Error(`Verification failed (expected ${JSON.stringify(target.expected)}): ${context}`);
  }
  return reply.body;
}

let running: { stop(): void } | undefined;

/** Stops a run in progress (Ctrl-C): autocannon then resolves with what it has. */
export function stopLoad(): void {
  running?.stop();
}

async function load<T>(options: Options): Promise<T> {
  const instance = autocannon({ timeout: 10, ...options });
  running = instance;
  try {
    return (await instance) as T;
  } finally {
    running = undefined;
  }
}

/** Loads the target without recording anything (JIT, connection pools, caches). */
export async function warm(target: Target, opts: LoadOptions): Promise<void> {
  if (opts.warmupSeconds <= 0) return;
  await load<Result>({ url: target.url, headers: target.headers, connections: opts.connections, duration: opts.warmupSeconds });
}

/** One measured slice; bodies that differ from the verified one count as mismatches. */
export async function slice(target: Target, body: string, connections: number, seconds: number, own: Own): Promise<Slice> {
  const before = cpuSnapshot(own.pgids);
  const raw = await load<RawResult>({
    url: target.url,
    headers: target.headers,
    connections,
    duration: seconds,
    expectBody: body,
    skipAggregateResult: true,
  });
  return { raw, cpu: otherCpu(before, cpuSnapshot(own.pgids)) };
}

export function summarize(target: Target, slices: Slice[], connections: number): Measurement {
  const r = autocannon.aggregateResult(
    slices.map((s) => s.raw),
    { url: target.url, connections },
  );
  const seconds = slices.reduce((sum, s) => sum + s.raw.duration, 0);
  const completed = slices.reduce((sum, s) => sum + s.raw.totalCompletedRequests, 0);
  const other = slices.reduce((sum, s) => sum + s.cpu.otherMs, 0);
  const capacity = slices.reduce((sum, s) => sum + s.cpu.capacityMs, 0);
  return {
    target: target.name,
    description: target.description,
    url: target.url,
    requestsPerSecond: completed / seconds,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
    completed,
    measuredSeconds: seconds,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
    otherCpuPercent: Math.max(0, (other / capacity) * 100),
  };
}
