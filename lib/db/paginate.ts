// Keyset pagination over (created_at, id), newest first: stable under inserts, no OFFSET scans.
// Services pass the where clause of their tenant-scoped query; this adds the keyset condition.

export type PageAfter = { createdAt: Date; id: string };
export type Page<Row> = { items: Row[]; hasMore: boolean };

export function keysetWhere(after: PageAfter | undefined) {
  if (!after) return {};
  return {
    OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
  };
}

export const keysetOrder = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** Runs `find` for limit + 1 rows and splits off the probe row that tells whether more exist. */
export async function paginate<Row>(
  limit: number,
  find: (args: { take: number; orderBy: typeof keysetOrder }) => Promise<Row[]>,
): Promise<Page<Row>> {
  const rows = await find({ take: limit + 1, orderBy: keysetOrder });
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
