import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { expireProposal } from "./apply-action";

// The proposal-expiry job: every open proposal (draft, pending_review, approved) past its expires_at is
// closed as `expired`, each in its own transaction with its audit row and outbox event. Safe to run
// concurrently or repeatedly: a proposal that changed meanwhile is skipped (its transition is refused).

const EXPIRABLE = ["draft", "pending_review", "approved"];
const BATCH = 200;

export async function expireProposals(now = new Date()): Promise<{ expired: number }> {
  let expired = 0;
  for (;;) {
    const due = await db().proposal.findMany({
      where: { status: { in: EXPIRABLE }, expiresAt: { lte: now } },
      select: { id: true, tenantId: true, environment: true },
      orderBy: { expiresAt: "asc" },
      take: BATCH,
    });
    let changed = 0;
    for (const p of due) {
      if (await expireProposal({ tenantId: p.tenantId, environment: p.environment }, p.id)) changed += 1;
    }
    expired += changed;
    if (due.length < BATCH || changed === 0) break;
  }
  if (expired > 0) log().info({ expired }, "proposals expired");
  return { expired };
}
