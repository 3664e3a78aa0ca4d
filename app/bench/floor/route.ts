// eslint-disable-next-line no-restricted-imports -- a floor measures the bare statement on the app's pool, no service between
import { queryRows, sql } from "@/lib/db/sql";
import { newId } from "@/lib/ids";

// The benchmark's floors (`npm run bench`): the least a request of each kind must do on this stack, with none of
// the /v1 layer and none of the domain, so that "X/health" figures can be read against what is possible at all.
//
//   POST /bench/floor — what every creating POST does at the least: parse a JSON body, write one row (the
//     request as sent) in one statement on the app's pool, and answer 201 with a body the size of a 96-month
//     simulation's (read in the same statement: the answer the run verified, stored by the bench).
//   GET /bench/floor  — what a list does at the least: one statement on the app's pool returning a stored page the
//     size of GET /v1/customers?limit=100's (the page the run verified), answered 200.
//
// No compute, no validation, no credential, no outbox event: a real endpoint cannot be cheaper than its floor, so
// floor/health bounds what a write path's ratio to health can reach here (see the README's Benchmark section).
// Inert (404) unless the benchmark starts the server with BENCH_BASELINE=1, like /bench/static; the table
// `bench_floor` exists only in the bench's throw-away database.

export const dynamic = "force-dynamic";

const inert = () => process.env.BENCH_BASELINE !== "1";
const json = (body: string, status: number) => new Response(body, { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

export async function POST(request: Request): Promise<Response> {
  if (inert()) return new Response(null, { status: 404 });
  const input: unknown = await request.json();
  const rows = await queryRows<{ body: string }>(sql`
    WITH written AS (INSERT INTO bench_floor (id, body) VALUES (${newId("simulation")}, ${JSON.stringify(input)}))
    SELECT body FROM bench_floor WHERE id = 'answer'`);
  return json(rows[0]!.body, 201);
}

export async function GET(): Promise<Response> {
  if (inert()) return new Response(null, { status: 404 });
  const rows = await queryRows<{ body: string }>(sql`SELECT body FROM bench_floor WHERE id = 'page'`);
  return json(rows[0]!.body, 200);
}
