// Work a request starts but does not make its client wait for (e.g. a reset e-mail: answering before it is made
// keeps the answer's timing from telling whether the address has an account). The work is tracked process-wide
// (on globalThis: the app's server and Next's bundle of the route load this module separately), so a server that
// stops waits for it (lib/http/app-server.ts) and tests can wait for it too. The work handles its own errors.

const REGISTRY = Symbol.for("credit-platform.background-work");

function registry(): Set<Promise<unknown>> {
  const holder = globalThis as { [REGISTRY]?: Set<Promise<unknown>> };
  return (holder[REGISTRY] ??= new Set());
}

/** Tracks `work` until it settles; a rejection is swallowed here (log it in `work`). */
export function inBackground(work: Promise<unknown>): void {
  const tracked = work.catch(() => undefined);
  registry().add(tracked);
  void tracked.finally(() => registry().delete(tracked));
}

/** How many tracked pieces of work have not settled yet (a caller flooded with requests can wait instead). */
export function backgroundCount(): number {
  return registry().size;
}

/** Resolves once every tracked piece of work has settled, including work started meanwhile. */
export async function backgroundSettled(): Promise<void> {
  while (registry().size > 0) await Promise.all([...registry()]);
}
