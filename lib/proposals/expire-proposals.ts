import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { expireProposal } from "./apply-action";

// The proposal-expiry job: every open proposal (draft, pending_review, approved, and signed but never made a contract)
// past its expires_at is closed as `expired`, each in its own transaction with its audit row and outbox event. Safe to run
// concurrently or repeatedly: a proposal that changed meanwhile is skipped (its transition is refused).
// One that fails (a payroll proposal whose reservation the authority cannot release now) is logged and left for
// the next run; the job goes on past it — in (expires_at, id) order — so it never holds the others back.

const EXPIRABLE = ["draft", "pending_review", "approved", "signed"];
const BATCH = 200;

export async function expireProposals(now = new Date()): Promise<{ expired: number; failed: number }> {
  let expired = 0;
  let failed = 0;
  let after: { expiresAt: Date; id: string } | null = null;
  for (;;) {
    const due: { id: string; tenantId: string; environment: "sandbox" | "production"; expiresAt: Date | null }[] = await db().proposal.findMany({
      where: {
        status: { in: EXPIRABLE },
        expiresAt: { lte: now },
        ...(after ? { OR: [{ expiresAt: { gt: after.expiresAt } }, { expiresAt: after.expiresAt, id: { gt: after.id } }] } : {}),
      },
      select: { id: true, tenantId: true, environment: true, expiresAt: true },
      orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
      take: BATCH,
    });
    for (const p of due) {
      try {
        if (await expireProposal({ tenantId: p.tenantId, environment: p.environment }, p.id)) expired += 1;
      } catch (err) {
        failed += 1;
        log().warn({ err, proposal_id: p.id, tenant_id: p.tenantId }, "proposal expiry failed; retried on the next run");
      }
    }
    if (due.length < BATCH) break;
    const last = due.at(-1)!;
    after = { expiresAt: last.expiresAt!, id: last.id };
  }
  if (expired > 0 || failed > 0) log().info({ expired, failed }, "proposals expired");
  return { expired, failed };
}
