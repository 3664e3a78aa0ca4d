import type { Environment } from "@prisma/client";
import { eachRowById, refusedTransition } from "./each-row";

// The collection job's first step for things priced for a date (pending settlements, pending assignments): those whose
// date and clearing days (a payment made on the date is cleared and notified later) have passed are canceled, one
// transaction each, walked as ./each-row.ts walks rows; one that changed meanwhile (completed, settled, canceled: a
// DomainError) is skipped.

export type Lapsable = { id: string; tenantId: string; environment: Environment };

/** `pageAfter`: the next candidates after an id; `stillClearing`: one whose payment may still be on its way (kept). */
export async function cancelEachLapsed<T extends Lapsable>(
  what: string,
  pageAfter: (after: string) => Promise<T[]>,
  stillClearing: (row: T) => boolean,
  cancel: (row: T) => Promise<unknown>,
): Promise<{ canceled: number }> {
  const { done } = await eachRowById(
    `canceling a lapsed ${what}`,
    pageAfter,
    async (row) => {
      if (stillClearing(row)) return false;
      await cancel(row);
      return true;
    },
    { changedMeanwhile: refusedTransition },
  );
  return { canceled: done };
}
