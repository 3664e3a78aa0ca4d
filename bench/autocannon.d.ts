// The part of autocannon 8's programmatic API the benchmark uses (the package ships no types and
// @types/autocannon is not a dependency). Fields follow its README and lib/aggregateResult.js.
declare module "autocannon" {
  type Options = {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds to wait for each response. */
    timeout?: number;
    /** Default GET. */
    method?: string;
    headers?: Record<string, string>;
    /** Sent with every request; autocannon adds Content-Length. */
    body?: string | Buffer;
    /** Responses whose body differs are counted in `mismatches`. */
    expectBody?: string;
    /** Responses for which it returns false are counted in `mismatches` (takes precedence over expectBody). */
    verifyBody?: (body: string) => boolean;
    title?: string;
    /** Resolve with the raw result (encoded histograms) so several runs can be merged by aggregateResult. */
    skipAggregateResult?: boolean;
  };

  type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  };

  type Result = {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds. */
    latency: Histogram & { totalCount: number };
    /** Requests per second (per one-second sample). */
    requests: Histogram & { sent: number };
    throughput: Histogram;
  };

  /** What a run with `skipAggregateResult` resolves with. */
  type RawResult = {
    totalCompletedRequests: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    /** Seconds. */
    duration: number;
  };

  type Instance = Promise<Result> & { stop(): void };

  function autocannon(options: Options): Instance;
  namespace autocannon {
    /** Merges raw results (latency histograms included) into one result. */
    function aggregateResult(results: RawResult[], options: { url: string; connections?: number }): Result;
  }
  export default autocannon;
  export type { Options, RawResult, Result };
}
