// A JSON value already serialized — by PostgreSQL, for the hottest lists (lib/customers/list-customers.ts) — so
// that nobody parses rows into objects only to stringify them again. The /v1 wrapper sends `text` as the body
// unchanged; anything else that serializes it (JSON.stringify of an enclosing object) gets the parsed value.
// `T` names the value's shape for readers and type checks; nothing checks it at run time.

export class JsonText<T = unknown> {
  declare readonly shape?: T;
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
