import { afterAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { decodeCursor, ListQuery, toListResponse } from "@/lib/pagination";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { newKey, newTenant } from "../helpers/factory";

afterAll(() => stopListener());

// The helper every listing endpoint uses, exercised over a real tenant-scoped table.
async function listKeys(scope: { tenantId: string; environment: "sandbox" }, query: { limit: number; cursor?: string }) {
  const after = decodeCursor(scope, query.cursor, "apiKey");
  const page = await paginate(query.limit, (args) =>
    db().apiKey.findMany({ where: { tenantId: scope.tenantId, environment: scope.environment, ...keysetWhere(after) }, ...args }),
  );
  return toListResponse(scope, page, (row) => row.id);
}

describe("pagination", () => {
  it("walks every row exactly once, newest first, across pages", async () => {
    const { tenant } = await newTenant();
    const created: string[] = [];
    for (let i = 0; i < 45; i++) created.push((await newKey(tenant.id)).apiKey.id);
    await newKey(tenant.id, "production"); // another environment never shows up
    const scope = { tenantId: tenant.id, environment: "sandbox" as const };
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: number[] = [];
    do {
      const page = await listKeys(scope, { limit: 20, cursor });
      expect(page.object).toBe("list");
      pages.push(page.data.length);
      seen.push(...page.data);
      cursor = page.next_cursor ?? undefined;
      expect(page.has_more).toBe(cursor !== undefined);
    } while (cursor);
    expect(pages).toEqual([20, 20, 5]);
    expect(seen).toEqual([...created].reverse());
  });

  it("refuses a cursor from another tenant or environment, or an edited one (400 invalid_cursor)", async () => {
    const { tenant } = await newTenant();
    const { tenant: other } = await newTenant();
    for (let i = 0; i < 3; i++) await newKey(tenant.id);
    const page = await listKeys({ tenantId: tenant.id, environment: "sandbox" }, { limit: 1 });
    const cursor = page.next_cursor!;
    const attempts = [
      () => decodeCursor({ tenantId: other.id, environment: "sandbox" }, cursor, "apiKey"),
      () => decodeCursor({ tenantId: tenant.id, environment: "production" }, cursor, "apiKey"),
      () => decodeCursor({ tenantId: tenant.id, environment: "sandbox" }, `x${cursor}`, "apiKey"),
      () => decodeCursor({ tenantId: tenant.id, environment: "sandbox" }, "garbage", "apiKey"),
    ];
    const invalid = new DomainError("invalid_cursor", "The cursor is invalid for this list", { errors: [{ param: "cursor", in: "query", message: "The cursor is invalid for this list" }] });
    for (const attempt of attempts) {
      expect(attempt).toThrowError(invalid);
    }
    // Another list's: the same tenant's valid cursor over API keys, sent to a list of customers.
    expect(() => decodeCursor({ tenantId: tenant.id, environment: "sandbox" }, cursor, "customer")).toThrowError(invalid);
    expect(decodeCursor({ tenantId: tenant.id, environment: "sandbox" }, cursor, "apiKey")).toMatchObject({ id: expect.stringMatching(/^key_/) });
  });

  it("validates limit: default 20, 1–100", () => {
    expect(ListQuery.parse({})).toEqual({ limit: 20 });
    expect(ListQuery.parse({ limit: "100" })).toEqual({ limit: 100 });
    expect(ListQuery.safeParse({ limit: "0" }).success).toBe(false);
    expect(ListQuery.safeParse({ limit: "101" }).success).toBe(false);
    expect(ListQuery.safeParse({ limit: "1", offset: "3" }).success).toBe(false);
  });
});
