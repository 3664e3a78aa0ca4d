import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/auth/api-keys";
import { validateCnpj, validateCpf } from "@/lib/br";
import { db, disconnectDb } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { createTenant } from "@/lib/tenants/tenants";
import { Prisma } from "@prisma/client";
import { issueContract } from "@/lib/contracts/issue-contract";
import { applyProposalAction } from "@/lib/proposals/apply-action";
import { createProposal } from "@/lib/proposals/create-proposal";
import { submitProposal } from "@/lib/proposals/submit-proposal";
import { CreateProposalBody } from "@/lib/proposals/schemas";
import { createSimulation } from "@/lib/simulations/create-simulation";
import { CreateSimulationBody } from "@/lib/simulations/schemas";
import { INSERT_CUSTOMERS } from "./seed-sql";

// Seeds the benchmark's throw-away database (DATABASE_URL) with one tenant, one sandbox API key
// (`read write`: GET /v1/customers needs customers:read, POST /v1/simulations simulations:write) and
// BENCH_CUSTOMERS (default 1,000,000) sandbox customers of that tenant, and prints
// {"tenantId","key","customers","seedSeconds","inssCustomerId","contractId"} as one JSON line on stdout; and
// BATCH_CONTRACTS copies of that contract for the batch-settlement benchmark.
// Run in a child process by bench/benchmark.ts so Prisma never loads into the process that measures.

const actor = { type: "cli", label: "bench" } as const;
const customers = Number(process.env.BENCH_CUSTOMERS || 1_000_000);

/** The SQL above must write what lib/customers would: ids and documents that pass the API's own checks.
 *  The count is checked in SQL; ids and documents on every 97th row (≈ 10,000 of a million) with lib/br. */
async function checkSeeded(tenantId: string, expected: number): Promise<void> {
  const [counted] = await db().$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM customers WHERE tenant_id = ${tenantId}`;
  const count = counted?.count ?? 0n;
  if (Number(count) !== expected) throw new Error(`seeded ${count}/${expected} customers`);
  const rows = await db().$queryRaw<{ id: string; kind: string; document: string }[]>`
    SELECT id, kind, document FROM (SELECT id, kind, document, row_number() OVER (ORDER BY id) AS n FROM customers WHERE tenant_id = ${tenantId}) t
    WHERE n % 97 = 1`;
  const bad = rows.filter(
    (r) => !/^cus_[0-9A-HJKMNP-TV-Z]{26}$/.test(r.id) || !(r.kind === "person" ? validateCpf(r.document) : validateCnpj(r.document)).ok,
  );
  if (bad.length > 0) {
    throw new Error(`seeded ${expected} customers, ${bad.length} with a bad id or document, e.g. ${JSON.stringify(bad.slice(0, 3))}`);
  }
}

/** POST /v1/charges names an active contract: a personal loan of a seeded person with a declared income,
 *  through the same services the routes call (approved by the risk engine, or by staff after review). */
async function activeContract(tenantId: string): Promise<string> {
  const scope = { tenantId, environment: "sandbox" as const };
  const customer = await db().customer.findFirstOrThrow({ where: { tenantId, kind: "person", payroll: { equals: Prisma.DbNull } }, select: { id: true } });
  const simulationBody = CreateSimulationBody.parse({ product: "personal_loan", requested_amount: 500_000, term: 24, monthly_rate: "0.0300", customer_id: customer.id });
  const { simulation } = await createSimulation(scope, simulationBody);
  const proposal = await createProposal(scope, actor, CreateProposalBody.parse({ customer_id: customer.id, simulation_id: simulation.id }));
  const submitted = await submitProposal(scope, actor, proposal.id);
  if (submitted.status === "pending_review") await applyProposalAction(scope, actor, proposal.id, "approve");
  else if (submitted.status !== "approved") throw new Error(`the bench contract's proposal was ${submitted.status}`);
  await applyProposalAction(scope, actor, proposal.id, "sign");
  return (await issueContract(scope, actor, proposal.id)).id;
}

/** The batch-settlement benchmark settles BATCH_CONTRACTS contracts: copies of the seeded one made in SQL
 *  (contract + its installments, ids `ctr_BENCH…` / `ins_BENCH…` in the API's id alphabet), as the API would
 *  have issued them — making each through the credit flow would take minutes. */
const BATCH_CONTRACTS = 100 + 1_000 + 5_000;
const CLONE_CONTRACTS = `
WITH g AS (SELECT n FROM generate_series(1, $2::int) AS n),
made AS (
  INSERT INTO contracts (id, tenant_id, environment, number, proposal_id, customer_id, status, principal, monthly_rate, term,
                         disbursement_date, terms, amount_paid, outstanding_balance, credit_balance, created_at, updated_at)
  SELECT 'ctr_BENCH' || lpad(g.n::text, 21, '0'), c.tenant_id, c.environment, 'BENCH-' || lpad(g.n::text, 6, '0'),
         'prp_BENCH' || lpad(g.n::text, 21, '0'), c.customer_id, 'active', c.principal, c.monthly_rate, c.term,
         c.disbursement_date, c.terms, 0, c.outstanding_balance, 0, now(), now()
  FROM contracts c, g WHERE c.id = $1
  RETURNING id
)
INSERT INTO installments (id, tenant_id, environment, contract_id, number, due_date, nominal_due_date, principal, interest, amount, paid_amount, status, created_at)
SELECT 'ins_BENCH' || lpad(g.n::text, 15, '0') || lpad(i.number::text, 6, '0'), i.tenant_id, i.environment,
       'ctr_BENCH' || lpad(g.n::text, 21, '0'), i.number, i.due_date, i.nominal_due_date, i.principal, i.interest, i.amount, 0, 'open', now()
FROM installments i, g WHERE i.contract_id = $1`;

try {
  if (!Number.isInteger(customers) || customers < 101) throw new Error(`BENCH_CUSTOMERS must be an integer ≥ 101 (got "${process.env.BENCH_CUSTOMERS}")`);
  const { tenant } = await createTenant(
    {
      slug: `bench-${Date.now().toString(36)}`,
      name: "Benchmark",
      owner: { email: `bench-${Date.now()}@example.com`, name: "Benchmark", password: randomBytes(24).toString("base64url") },
    },
    actor,
  );
  const { key } = await createApiKey({ tenantId: tenant.id, environment: "sandbox", name: "bench", permissions: ["read", "write"], actor });
  const started = performance.now();
  const inserted = await db().$executeRawUnsafe(INSERT_CUSTOMERS, tenant.id, customers);
  // VACUUM, not only ANALYZE: a million inserted rows start the autovacuum (its insert threshold) later, possibly in the
  // measured run; vacuumed now, the table's visibility map is set before the first page is read.
  await db().$executeRawUnsafe("VACUUM (ANALYZE) customers");
  await checkSeeded(tenant.id, inserted);
  const seedSeconds = (performance.now() - started) / 1000;
  // POST /v1/simulations (inss_payroll) and the margin query name a customer with an INSS payroll link (every 3rd
  // person has one; benefit numbers end in 0, never one of the sandbox simulator's trigger values …0001–…0007).
  const inss = await db().customer.findFirstOrThrow({ where: { tenantId: tenant.id, payroll: { path: ["type"], equals: "inss" } }, select: { id: true } });
  const contractId = await activeContract(tenant.id);
  await db().$executeRawUnsafe(CLONE_CONTRACTS, contractId, BATCH_CONTRACTS);
  // Fresh statistics for the copied rows: without them the planner may scan the tenant's installments for every
  // batch item instead of using the (contract_id, number) index (seen on a server whose autovacuum had not run yet).
  await db().$executeRawUnsafe("VACUUM (ANALYZE) contracts, installments");
  // And written out: a million rows (≈ 1 GB with their stored API objects) left dirty in shared buffers and the page
  // cache are otherwise flushed by the checkpointer and the kernel during the measured run when no build comes between
  // (BENCH_SKIP_BUILD=1). Measured on 2026-12-07: at the same health rate (910–967 req/s), customers did 602 req/s with
  // a build between, 423 without one, 550 without one but with this checkpoint.
  // CHECKPOINT needs a superuser or pg_checkpoint (the embedded server's user is one): elsewhere the run goes on, warned.
  await db().$executeRawUnsafe("CHECKPOINT").catch((err: unknown) => {
    process.stderr.write(`CHECKPOINT refused (${err instanceof Error ? err.message : String(err)}): the seed's writes may be flushed during the run\n`);
  });
  process.stdout.write(`${JSON.stringify({ tenantId: tenant.id, key, customers: inserted, seedSeconds, inssCustomerId: inss.id, contractId })}\n`);
} finally {
  await disconnectDb();
  await stopListener();
}
