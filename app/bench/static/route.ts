import { API_VERSION } from "@/lib/version";

// GET /bench/static — the benchmark's framework baseline (`npm run bench`): the same JSON shape as
// GET /v1/health with none of the /v1 layer (credential, tenant, environment, rate limit), so
// health/static measures what our layer costs inside Next.

// A route handler invoked on every request, not prerendered at build time: without this Next would
// answer a cached file and the baseline would measure the static file server instead of a handler.
export const dynamic = "force-dynamic";

// The tenant id has the length of a real one (ten_ + 26-character ULID) so the body has the same size.
const BODY = JSON.stringify({ status: "ok", environment: "sandbox", version: API_VERSION, tenant: "ten_000000000000000000000BENCH" });

export function GET(): Response {
  // This route ships in every build, so it is inert (404) unless the benchmark starts the server with
  // BENCH_BASELINE=1. A bench-only switch, read straight from process.env on purpose: it is not
  // application configuration and does not belong in lib/env.ts.
  if (process.env.BENCH_BASELINE !== "1") return new Response(null, { status: 404 });
  return new Response(BODY, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
}
