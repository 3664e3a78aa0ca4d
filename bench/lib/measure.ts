import { deepStrictEqual } from "node:assert/strict";
import autocannon, { type Options, type RawResult, type Result } from "autocannon";
import { request } from "./children";
import { cpuSnapshot, otherCpu, type OtherCpu } from "./cpu";

// One benchmark target: check it answers what we expect, warm it up (figures dropped), then load it
// in slices with autocannon. run.ts interleaves the slices of all targets (round-robin) so that a
// neighbour's burst of CPU is spread over the targets instead of hitting one; the slices are merged at
// the end (latency histograms included, so p50/p99 are exact over the whole measured time).

export type TargetName =
  | "bare"
  | "static"
  | "health"
  | "write_floor"
  | "read_floor"
  | "simulation"
  | "margin_query"
  | "charge_boleto"
  | "charge_pix"
  | "customers"
  | "customers_deep";

/** Checks a decoded JSON answer: undefined when it is right, else what is wrong. */
export type JsonCheck = (json: unknown) => string | undefined;

export type Target = {
  name: TargetName;
  description: string;
  url: string;
  /** Default GET. */
  method?: "GET" | "POST";
  headers: Record<string, string>;
  /** Request body (sent as is, with the given headers; autocannon adds Content-Length). */
  body?: string;
  /** Status every answer must have (default 200). */
  status?: number;
  /** Checked once before the run on a real answer (see equals() and shape()). */
  check: JsonCheck;
  /**
   * How each answer under load is checked (a failure counts as a mismatch): "same-body" = byte-identical
   * to the verified answer (autocannon's expectBody, a string comparison); or a predicate on the body text
   * (autocannon's verifyBody) for answers that legitimately differ (ids, timestamps). It runs in the load
   * generator, which shares the CPUs with the server, so it must stay cheap.
   */
  underLoad: "same-body" | ((body: string) => boolean);
  /** Answers must differ between two calls (work done per request, e.g. a new id): checked at verification. */
  distinctAnswers?: boolean;
};

/** Exactly this JSON (deep equality). */
export function equals(expected: unknown): JsonCheck {
  return (json) => {
    try {
      deepStrictEqual(json, expected);
      return undefined;
    } catch {
      return `expected exactly ${JSON.stringify(expected)}`;
    }
  };
}

/**
 * A shape check: each named condition must hold. `T` is what the answer should look like; it is not
 * checked by the type system, so a condition that reads a missing field throws, and a throw is a failure.
 */
export function shape<T>(conditions: Record<string, (json: T) => boolean>): JsonCheck {
  return (json) => {
    const failed = Object.entries(conditions)
      .filter(([, holds]) => {
        try {
          return !holds(json as T);
        } catch {
          return true;
        }
      })
      .map(([name]) => name);
    return failed.length === 0 ? undefined : `failed: ${failed.join("; ")}`;
  };
}

/** A JsonCheck as a predicate on the body text, for Target.underLoad. */
export function bodyPredicate(check: JsonCheck): (body: string) => boolean {
  return (body) => {
    try {
      return check(JSON.parse(body)) === undefined;
    } catch {
      return false;
    }
  };
}

export type Measurement = {
  target: TargetName;
  description: string;
  method: "GET" | "POST";
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

async function verifyOnce(target: Target): Promise<{ body: string; json: unknown }> {
  const method = target.method ?? "GET";
  const status = target.status ?? 200;
  const reply = await request(method, target.url, target.headers, target.body);
  const context = `${target.name} (${method} ${target.url}) answered ${reply.status} ${reply.headers["content-type"] ?? ""}: ${reply.body.slice(0, 500)}`;
  if (reply.status !== status) throw new Error(`Verification failed (expected ${status}): ${context}`);
  if (!String(reply.headers["content-type"]).startsWith("application/json")) throw new Error(`Verification failed (not JSON): ${context}`);
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    throw new Error(`Verification failed (invalid JSON): ${context}`);
  }
  const problem = target.check(json);
  if (problem !== undefined) throw new Error(`Verification failed (${problem}): ${context}`);
  return { body: reply.body, json };
}

/** Fails loudly unless the target answers the expected status with JSON that passes its check; returns the body text. */
export async function verify(target: Target): Promise<string> {
  const first = await verifyOnce(target);
  if (target.distinctAnswers) {
    const second = await verifyOnce(target);
    if (second.body === first.body) {
      throw new Error(`Verification failed: ${target.name} answered the same body twice (a replay?), but every request must do the work`);
    }
  }
  return first.body;
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

function requestOptions(target: Target): Pick<Options, "url" | "method" | "headers" | "body"> {
  return { url: target.url, method: target.method ?? "GET", headers: target.headers, ...(target.body !== undefined ? { body: target.body } : {}) };
}

/** Loads the target without recording anything (JIT, connection pools, caches). */
export async function warm(target: Target, opts: LoadOptions): Promise<void> {
  if (opts.warmupSeconds <= 0) return;
  await load<Result>({ ...requestOptions(target), connections: opts.connections, duration: opts.warmupSeconds });
}

/** One measured slice; answers that fail the target's underLoad check count as mismatches. */
export async function slice(target: Target, body: string, connections: number, seconds: number, own: Own): Promise<Slice> {
  const before = cpuSnapshot(own.pgids);
  const raw = await load<RawResult>({
    ...requestOptions(target),
    connections,
    duration: seconds,
    ...(target.underLoad === "same-body" ? { expectBody: body } : { verifyBody: target.underLoad }),
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
    method: target.method ?? "GET",
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
