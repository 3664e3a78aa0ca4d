import pg from "pg";

// Every statement this process sends through node-postgres, for plan tests: they EXPLAIN the query a service really
// sent. Install it before any connection is made (lib/db/broken-connections.ts binds each connection's query when it
// connects); `restore` puts the driver back.

export type SentStatement = { text: string; values: unknown[] };

export function recordSentStatements(): { sent: SentStatement[]; clear(): void; restore(): void } {
  const sent: SentStatement[] = [];
  const originalQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] };
    const text = typeof first === "string" ? first : first?.text;
    const values = (Array.isArray(args[1]) ? args[1] : typeof first === "object" ? first?.values : undefined) ?? [];
    if (text) sent.push({ text, values });
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof originalQuery;
  return {
    sent,
    clear: () => void sent.splice(0, sent.length),
    restore: () => void (pg.Client.prototype.query = originalQuery),
  };
}
