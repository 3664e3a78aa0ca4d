import { describe, expect, it } from "vitest";
import { seekPageSql } from "./seek-sql";

const scope = { tenantId: "ten_1", environment: "sandbox" as const };
const at = new Date("2026-11-23T12:00:00.000Z");

describe("seekPageSql", () => {
  it("first page: scope, order, limit + 1", () => {
    expect(seekPageSql({ table: "customers", columns: "id", scope, limit: 20 })).toEqual({
      text: 'SELECT id FROM customers WHERE tenant_id = $1 AND environment = $2::"Environment" ORDER BY created_at DESC, id DESC LIMIT $3',
      values: ["ten_1", "sandbox", 21],
    });
  });

  it("after a cursor, with filters: the row-value comparison last", () => {
    expect(seekPageSql({ table: "customers", columns: "id", scope, equals: { document: "52998224725" }, after: { at, id: "cus_X" }, limit: 100 })).toEqual({
      text: 'SELECT id FROM customers WHERE tenant_id = $1 AND environment = $2::"Environment" AND document = $3 AND (created_at, id) < ($4::timestamptz, $5) ORDER BY created_at DESC, id DESC LIMIT $6',
      values: ["ten_1", "sandbox", "52998224725", at, "cus_X", 101],
    });
  });

  it("ascending by due date", () => {
    const { text } = seekPageSql({ table: "installments", columns: "id", scope, after: { at, id: "ins_X" }, limit: 10, keyset: { field: "dueDate", direction: "asc" } });
    expect(text).toBe('SELECT id FROM installments WHERE tenant_id = $1 AND environment = $2::"Environment" AND (due_date, id) > ($3::date, $4) ORDER BY due_date ASC, id ASC LIMIT $5');
  });

  it("refuses anything but a column name as a filter", () => {
    expect(() => seekPageSql({ table: "customers", columns: "id", scope, equals: { "document; DROP": 1 }, limit: 1 })).toThrow("Not a column name");
  });
});
