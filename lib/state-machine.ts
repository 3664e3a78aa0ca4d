import { DomainError } from "@/lib/errors";

// State machines as data: a table of state → action → next state. `nextState` is the only way a
// resource's status changes; an action the table does not list for the current state is a 409
// `invalid_transition` carrying the current status and the actions that are allowed.

export type TransitionTable<S extends string, A extends string> = Readonly<Record<S, Partial<Readonly<Record<A, S>>>>>;

export function nextState<S extends string, A extends string>(
  table: TransitionTable<S, A>,
  resource: string,
  current: S,
  action: A,
): S {
  const to = table[current]?.[action];
  if (to === undefined) {
    const allowed = Object.keys(table[current] ?? {});
    throw new DomainError("invalid_transition", `Cannot ${action} a ${resource} that is ${current}`, {
      current_status: current,
      action,
      allowed_actions: allowed,
    });
  }
  return to;
}

/** Every (from, action, to) triple of a table: used to document it and to test it exhaustively. */
export function transitions<S extends string, A extends string>(table: TransitionTable<S, A>): [S, A, S][] {
  return (Object.entries(table) as [S, Partial<Record<A, S>>][]).flatMap(([from, actions]) =>
    (Object.entries(actions) as [A, S][]).map(([action, to]) => [from, action, to] as [S, A, S]),
  );
}
