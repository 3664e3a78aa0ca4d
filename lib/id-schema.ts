import { z } from "zod";
import { ID_PREFIXES, type IdKind } from "./ids";

// The zod schema of a prefixed id in a path, query or body: `<prefix>_` + a 26-character ULID.
export function idSchema(kind: IdKind, what: string) {
  const prefix = ID_PREFIXES[kind];
  return z
    .string()
    .trim()
    .regex(new RegExp(`^${prefix}_[0-9A-Z]{26}$`), `Must be a ${what} id (${prefix}_…)`);
}
