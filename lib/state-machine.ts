import { DomainError } from "@/lib/errors";

// State machines as data: a table of state → action → next state. `nextState` is the only way a
// resource's status changes; an action the table does not list for the current state is a 409
// `invalid_transition` carrying the current status and the actions a client may ask for instead.

export type TransitionTable<S extends string, A extends string> = Readonly<Record<S, Partial<Readonly<Record<A, S>>>>>;

// A table's actions a client can ask for, each by an endpoint of that name (`withClientActions`); the others are the
// platform's own (a job's expiry, a payment, the contract's issue), which a 409's `allowed_actions` must not offer.
// A table registered with none lists none; one not registered lists every action.
const CLIENT_ACTIONS = new WeakMap<object, ReadonlySet<string>>();

/** Registers which of `table`'s actions clients ask for by name; returns the table. */
export function withClientActions<S extends string, A extends string>(table: TransitionTable<S, A>, actions: readonly A[]): TransitionTable<S, A> {
  CLIENT_ACTIONS.set(table, new Set(actions));
  return table;
}

/** What a client may ask of a resource in `current`: the table's actions from it that clients ask for. */
export function allowedActions<S extends string, A extends string>(table: TransitionTable<S, A>, current: S): A[] {
  const client = CLIENT_ACTIONS.get(table);
  return (Object.keys(table[current] ?? {}) as A[]).filter((action) => client?.has(action) ?? true);
}

export function nextState<S extends string, A extends string>(
  table: TransitionTable<S, A>,
  resource: string,
  current: S,
  action: A,
): S {
  const to = table[current]?.[action];
  if (to === undefined) {
    throw new DomainError("invalid_transition", `Cannot ${action} a ${resource} that is ${current}`, {
      current_status: current,
      action,
      allowed_actions: allowedActions(table, current),
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
