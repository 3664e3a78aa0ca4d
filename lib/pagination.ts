import { createHmac, timingSafeEqual } from "node:crypto";
import type { Environment } from "@prisma/client";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import { keyOf, NEWEST_FIRST, type Keyset, type Page, type PageAfter } from "@/lib/db/paginate";
import { DomainError } from "@/lib/errors";
import { ID_PREFIXES, type IdKind } from "@/lib/ids";

// The one pagination scheme of every list (spec §4 rule 2, since 1.2.0): `limit` 1–100 (default 20) and
// an opaque `cursor`; answers `{ object: "list", data, has_more, next_cursor }`, newest first.
// Cursors are signed and bound to the tenant and environment: a cursor from another tenant, another
// environment, or one that was edited is a 400 `invalid_cursor`. And to the kind of object listed: a cursor holds
// the id of its page's last row, whose prefix names its type (cus_, ctr_, …), so another list's cursor — a contracts
// cursor sent to /v1/customers — is refused too instead of read as a position in the wrong order. Services use it
// (it speaks no HTTP).

export const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: "Page size, 1–100 (default 20)." }),
  cursor: z.string().trim().min(1).max(500).optional().meta({ description: "`next_cursor` of the previous page of this list (another tenant's, environment's or list's cursor: 400 `invalid_cursor`)." }),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({
    object: z.literal("list"),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last." }),
  });

type Scope = { tenantId: string; environment: Environment };

function mac(scope: Scope, payload: string): Buffer {
  return createHmac("sha256", getEnv().AUTH_JWT_SECRET).update(`cursor|${scope.tenantId}|${scope.environment}|${payload}`).digest();
}

export function encodeCursor(scope: Scope, after: PageAfter): string {
  const payload = Buffer.from(JSON.stringify([after.at.toISOString(), after.id])).toString("base64url");
  return `${payload}.${mac(scope, payload).subarray(0, 16).toString("base64url")}`;
}

/** The position a list's cursor names; `kind`: the objects the list holds (their ids' prefix). */
export function decodeCursor(scope: Scope, cursor: string | undefined, kind: IdKind): PageAfter | undefined {
  if (cursor === undefined) return undefined;
  const message = "The cursor is invalid for this list";
  const invalid = new DomainError("invalid_cursor", message, { errors: [{ param: "cursor", in: "query", message }] });
  const [payload, signature] = cursor.split(".");
  if (!payload || !signature) throw invalid;
  const expected = mac(scope, payload).subarray(0, 16);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid;
  try {
    const [at, id] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [string, string];
    const date = new Date(at);
    if (Number.isNaN(date.getTime()) || typeof id !== "string" || !id.startsWith(`${ID_PREFIXES[kind]}_`)) throw invalid;
    return { at: date, id };
  } catch {
    throw invalid;
  }
}

export function toListResponse<Row extends { createdAt: Date; id: string; dueDate?: Date }, T>(
  scope: Scope,
  page: Page<Row>,
  serialize: (row: Row) => T,
  keyset: Keyset = NEWEST_FIRST,
) {
  const last = page.items.at(-1);
  return {
    object: "list" as const,
    data: page.items.map(serialize),
    has_more: page.hasMore,
    next_cursor: page.hasMore && last ? encodeCursor(scope, keyOf(last, keyset)) : null,
  };
}
