import { db } from "@/lib/db/client";
import { log } from "@/lib/log";

// last_used_at is kept coarse (at most one write per credential per interval) and off the request's
// critical path: a failed write is logged, never surfaced to the caller.
const INTERVAL_MS = 60_000;
const lastWritten = new Map<string, number>();

export function touchLastUsed(kind: "api_key" | "oauth_client", id: string): void {
  const now = Date.now();
  const mapKey = `${kind}:${id}`;
  const previous = lastWritten.get(mapKey);
  if (previous !== undefined && now - previous < INTERVAL_MS) return;
  lastWritten.set(mapKey, now);
  const write =
    kind === "api_key"
      ? db().apiKey.update({ where: { id }, data: { lastUsedAt: new Date(now) } })
      : db().oAuthClient.update({ where: { id }, data: { lastUsedAt: new Date(now) } });
  write.catch((err: unknown) => log().warn({ err: (err as Error).message, id }, "last_used_at update failed"));
}
