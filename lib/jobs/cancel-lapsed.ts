import type { Environment } from "@prisma/client";
import { isDatabaseUnavailable } from "@/lib/db/availability";
import { DomainError } from "@/lib/errors";
import { log } from "@/lib/log";

// The collection job's first step for things priced for a date (pending settlements, pending assignments): those whose
// date and clearing days (a payment made on the date is cleared and notified later) have passed are canceled, one
// transaction each. Read by keyset over ids until none is left, so a tail is never left for the next run. One that
// changed meanwhile (completed, settled, canceled: a DomainError) is skipped; one that fails otherwise (a lock wait
// past its limit, a bug) is logged and left for the next run — it must not keep the job from its other steps —
// unless the database itself is down, which fails the run (the poll loop reports the outage once).

export type Lapsable = { id: string; tenantId: string; environment: Environment };

/** `pageAfter`: the next candidates after an id; `stillClearing`: one whose payment may still be on its way (kept). */
export async function cancelEachLapsed<T extends Lapsable>(
  what: string,
  pageAfter: (after: string) => Promise<T[]>,
  stillClearing: (row: T) => boolean,
  cancel: (row: T) => Promise<unknown>,
): Promise<{ canceled: number }> {
  let canceled = 0;
  for (let batch = await pageAfter(""); batch.length > 0; batch = await pageAfter(batch.at(-1)!.id)) {
    for (const row of batch) {
      if (stillClearing(row)) continue;
      try {
        await cancel(row);
        canceled += 1;
      } catch (err) {
        if (err instanceof DomainError) continue; // changed meanwhile: nothing to do
        if (isDatabaseUnavailable(err)) throw err;
        log().error({ err, id: row.id, tenant_id: row.tenantId }, `canceling a lapsed ${what} failed; the job goes on`);
      }
    }
  }
  return { canceled };
}
