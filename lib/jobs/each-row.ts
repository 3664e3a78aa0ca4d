import { isDatabaseUnavailable } from "@/lib/db/availability";
import { DomainError } from "@/lib/errors";
import { log } from "@/lib/log";

// How a job walks the rows it may change: read by keyset over ids (`pageAfter("")`, then after the last id read) until
// none is left, so no tail waits for the next run and no row is read twice in a run; each row's `step` is its own
// transaction. A row that fails (a lock wait past its limit, a bug) is logged by id and left for the next run — it must
// not keep the other rows, of every tenant, nor the job's later steps from running — unless the database itself is
// unavailable, which fails the run (the poll loop or the CLI reports the outage once).

export type JobRow = { id: string; tenantId: string };

export type EachRowOptions = {
  /** The log line's key for the row's id (`charge_id`…). */
  idField?: string;
  /** A refusal meaning the row changed meanwhile (completed, canceled elsewhere): skipped, neither done nor failed.
   *  Default: none — every error but the database's is a failure. */
  changedMeanwhile?: (err: unknown) => boolean;
};

/** A DomainError: the transition was refused because the row is no longer in the state the job read. */
export const refusedTransition = (err: unknown): boolean => err instanceof DomainError;

/** Runs `step` on every row; `done` counts the rows whose step returned true, `failed` those left for the next run. */
export async function eachRowById<T extends JobRow>(
  what: string,
  pageAfter: (after: string) => Promise<T[]>,
  step: (row: T) => Promise<boolean>,
  options: EachRowOptions = {},
): Promise<{ done: number; failed: number }> {
  let done = 0;
  let failed = 0;
  for (let batch = await pageAfter(""); batch.length > 0; batch = await pageAfter(batch.at(-1)!.id)) {
    for (const row of batch) {
      try {
        if (await step(row)) done += 1;
      } catch (err) {
        if (options.changedMeanwhile?.(err)) continue;
        if (isDatabaseUnavailable(err)) throw err;
        failed += 1;
        log().error({ err, [options.idField ?? "id"]: row.id, tenant_id: row.tenantId }, `${what} failed; the job goes on (retried next run)`);
      }
    }
  }
  return { done, failed };
}
