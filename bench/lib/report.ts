import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoadOptions, Measurement } from "./measure";

// The benchmark's output: one table on stdout and the same figures as JSON (bench/results/, git-ignored).

/** The goal: the /v1 layer costs at most 25% of the static route's throughput. */
export const GOAL_HEALTH_OVER_STATIC = 0.75;

/** Issue 7: a 96-month simulation at ≥ 0.8× health's throughput. Issue 15: a page 900,000 rows deep within 1.5×
 *  the first page's p99, and a page of customers at ≥ 0.6× the static route's throughput. */
export const GOAL_SIMULATION_OVER_HEALTH = 0.8;
export const GOAL_DEEP_OVER_FIRST_P99 = 1.5;
export const GOAL_CUSTOMERS_OVER_STATIC = 0.6;
/** Issue 8: a margin query through the sandbox simulator at ≥ 0.8× health's throughput. */
export const GOAL_MARGIN_QUERY_OVER_HEALTH = 0.8;
/** Issue 10: a batch of 1,000 settlements in under 5 s; 5,000 in at most 5.5× that (linear). */
export const GOAL_BATCH_1000_SECONDS = 5;
export const GOAL_BATCH_5000_OVER_1000 = 5.5;
export type BatchFigure = { items: number; seconds: number; msPerItem: number };
/** Issue 9: creating a boleto or a Pix charge at ≥ 0.8× health's throughput. */
export const GOAL_CHARGE_OVER_HEALTH = 0.8;

/** Above this share of CPU taken by other processes during a target's run, its figures are flagged. */
const OTHER_CPU_WARNING = 10;

export type Report = {
  date: string;
  machine: { node: string; cpus: number; cpuModel: string; platform: string };
  load: LoadOptions;
  rateLimitPerMinute: number;
  rateLimitStore: "memory" | "redis";
  results: Measurement[];
  batches: BatchFigure[];
  ratios: {
    healthOverStatic: number;
    staticOverBare: number;
    /** Throughput of the endpoints that do work, relative to /v1/health (same layer, no work). */
    simulationOverHealth: number;
    marginQueryOverHealth: number;
    chargeBoletoOverHealth: number;
    chargePixOverHealth: number;
    customersOverHealth: number;
    customersOverStatic: number;
    /** p99 of the page 900,000 rows deep over the first page's p99. */
    deepOverFirstP99: number;
    /** The floors (app/bench/floor/route.ts): the most a creating POST answering a simulation's bytes can reach
     *  relative to health, and a 100-row page relative to static, on this stack and machine. */
    writeFloorOverHealth: number;
    readFloorOverStatic: number;
  };
  goal: { healthOverStaticAtLeast: number; met: boolean };
};

export function buildReport(results: Measurement[], load: LoadOptions, rateLimitPerMinute: number, redis: boolean, batches: BatchFigure[] = []): Report {
  const rps = (name: Measurement["target"]) => results.find((r) => r.target === name)?.requestsPerSecond ?? Number.NaN;
  const p99 = (name: Measurement["target"]) => results.find((r) => r.target === name)?.p99Ms ?? Number.NaN;
  const healthOverStatic = rps("health") / rps("static");
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    machine: { node: process.version, cpus: cpus.length, cpuModel: cpus[0]?.model ?? "unknown", platform: `${os.platform()} ${os.release()}` },
    load,
    rateLimitPerMinute,
    rateLimitStore: redis ? "redis" : "memory",
    results,
    batches,
    ratios: {
      healthOverStatic,
      staticOverBare: rps("static") / rps("bare"),
      simulationOverHealth: rps("simulation") / rps("health"),
      marginQueryOverHealth: rps("margin_query") / rps("health"),
      chargeBoletoOverHealth: rps("charge_boleto") / rps("health"),
      chargePixOverHealth: rps("charge_pix") / rps("health"),
      customersOverHealth: rps("customers") / rps("health"),
      customersOverStatic: rps("customers") / rps("static"),
      deepOverFirstP99: p99("customers_deep") / p99("customers"),
      writeFloorOverHealth: rps("write_floor") / rps("health"),
      readFloorOverStatic: rps("read_floor") / rps("static"),
    },
    goal: { healthOverStaticAtLeast: GOAL_HEALTH_OVER_STATIC, met: healthOverStatic >= GOAL_HEALTH_OVER_STATIC },
  };
}

const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "—");

function layerCost(ratio: number): string {
  if (!Number.isFinite(ratio)) return "no figure";
  if (ratio >= 1) return "health at least as fast as static: the layer's cost is below this run's noise";
  return `the /v1 layer costs ${fixed((1 - ratio) * 100, 0)}% of the static route's throughput`;
}

function workCost(ratio: number, work: string): string {
  if (!Number.isFinite(ratio)) return "no figure";
  if (ratio >= 1) return `${work} costs less than this run's noise`;
  return `a request with ${work} costs ${fixed(1 / ratio, 1)}× a /v1/health request`;
}

export function formatReport(report: Report): string {
  const header = ["target", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "other CPU"];
  const rows = report.results.map((r) => [
    `${r.target} — ${r.description}`,
    fixed(r.requestsPerSecond, 0),
    fixed(r.p50Ms, 1),
    fixed(r.p99Ms, 1),
    String(r.non2xx),
    String(r.errors + r.timeouts),
    `${fixed(r.otherCpuPercent, 0)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const {
    healthOverStatic,
    staticOverBare,
    simulationOverHealth,
    marginQueryOverHealth,
    chargeBoletoOverHealth,
    chargePixOverHealth,
    customersOverHealth,
    customersOverStatic,
    deepOverFirstP99,
    writeFloorOverHealth,
    readFloorOverStatic,
  } = report.ratios;
  const goal = (met: boolean) => (met ? "met" : "NOT met");
  const { load } = report;
  return [
    `${load.connections} connections, ${load.warmupSeconds} s warm-up then ${load.durationSeconds} s measured per target ` +
      `(${load.rounds} interleaved rounds); ` +
      `node ${report.machine.node}, ${report.machine.cpus} CPUs (load generator and server share them)`,
    `rate limit raised to ${report.rateLimitPerMinute}/min (${report.rateLimitStore} store): the limiter's cost is measured, 429s are not`,
    "other CPU = share of the machine used by processes outside the benchmark during the measured run",
    "",
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    "",
    `health/static ${fixed(healthOverStatic, 2)}  (goal ≥ ${GOAL_HEALTH_OVER_STATIC}: ${report.goal.met ? "met" : "NOT met"}; ${layerCost(healthOverStatic)})`,
    `static/bare   ${fixed(staticOverBare, 3)}  (what Next itself keeps of a bare node:http server)`,
    `simulation/health ${fixed(simulationOverHealth, 2)}  (goal ≥ ${GOAL_SIMULATION_OVER_HEALTH}: ${goal(simulationOverHealth >= GOAL_SIMULATION_OVER_HEALTH)}; ${workCost(simulationOverHealth, "a 96-month simulation (compute + insert)")})`,
    `margin query/health ${fixed(marginQueryOverHealth, 2)}  (goal ≥ ${GOAL_MARGIN_QUERY_OVER_HEALTH}: ${goal(marginQueryOverHealth >= GOAL_MARGIN_QUERY_OVER_HEALTH)}; ${workCost(marginQueryOverHealth, "a margin query (simulator + insert + event)")})`,
    `charge boleto/health ${fixed(chargeBoletoOverHealth, 2)}  (goal ≥ ${GOAL_CHARGE_OVER_HEALTH}: ${goal(chargeBoletoOverHealth >= GOAL_CHARGE_OVER_HEALTH)}; ${workCost(chargeBoletoOverHealth, "a boleto charge (amounts + barcode + insert + event)")})`,
    `charge pix/health    ${fixed(chargePixOverHealth, 2)}  (goal ≥ ${GOAL_CHARGE_OVER_HEALTH}: ${goal(chargePixOverHealth >= GOAL_CHARGE_OVER_HEALTH)}; ${workCost(chargePixOverHealth, "a Pix charge (amounts + BR Code + QR PNG + insert + event)")})`,
    `customers/health  ${fixed(customersOverHealth, 2)}  (${workCost(customersOverHealth, "a page of 100 customers (query + serialize)")})`,
    `customers/static  ${fixed(customersOverStatic, 2)}  (goal ≥ ${GOAL_CUSTOMERS_OVER_STATIC}: ${goal(customersOverStatic >= GOAL_CUSTOMERS_OVER_STATIC)})`,
    `write floor/health ${fixed(writeFloorOverHealth, 2)}  (parse a body, insert one row, answer a simulation's bytes — no credential, no domain: the most any creating POST can reach here)`,
    `read floor/static  ${fixed(readFloorOverStatic, 2)}  (one select answering a 100-customer page's bytes — no credential, no domain: the most a page of 100 can reach here)`,
    `deep page p99 / first page p99 ${fixed(deepOverFirstP99, 2)}  (goal ≤ ${GOAL_DEEP_OVER_FIRST_P99}: ${goal(deepOverFirstP99 <= GOAL_DEEP_OVER_FIRST_P99)}; page 9,001 of 100 vs page 1)`,
    ...batchLines(report.batches),
    ...report.results
      .filter((r) => r.otherCpuPercent > OTHER_CPU_WARNING)
      .map((r) => `WARNING: other processes used ${r.otherCpuPercent.toFixed(0)}% of the machine's CPU while ${r.target} was measured: figures are skewed`),
    ...report.results
      .filter((r) => r.mismatches > r.non2xx)
      .map((r) => `WARNING: ${r.target} answered ${r.mismatches - r.non2xx} 2xx bodies that differ from the verified answer`),
  ].join("\n");
}

function batchLines(batches: BatchFigure[]): string[] {
  if (batches.length === 0) return [];
  const at = (n: number) => batches.find((b) => b.items === n);
  const [thousand, fiveThousand] = [at(1_000), at(5_000)];
  const ratio = thousand && fiveThousand ? fiveThousand.seconds / thousand.seconds : Number.NaN;
  return [
    "",
    "batch settlement (POST /v1/settlements/batch, full settlements with funds received, one request each):",
    ...batches.map((b) => `  ${b.items.toLocaleString("en").padStart(5)} items  ${fixed(b.seconds, 2).padStart(7)} s  ${fixed(b.msPerItem, 2).padStart(6)} ms/item`),
    `  1,000 items in ${thousand ? fixed(thousand.seconds, 2) : "—"} s (goal < ${GOAL_BATCH_1000_SECONDS} s: ${thousand && thousand.seconds < GOAL_BATCH_1000_SECONDS ? "met" : "NOT met"}); ` +
      `5,000 / 1,000 = ${fixed(ratio, 2)} (goal ≤ ${GOAL_BATCH_5000_OVER_1000}: ${ratio <= GOAL_BATCH_5000_OVER_1000 ? "met" : "NOT met"})`,
  ];
}

export function writeReport(report: Report, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "latest.json");
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
