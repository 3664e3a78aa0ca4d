import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { caller, COMPANY, get, invalidFields, patch, PERSON, post } from "./fixtures";

afterAll(() => stopListener());

const history = async (tenantId: string, id: string) => ({
  audit: (await db().auditLog.findMany({ where: { tenantId, targetId: id }, orderBy: { createdAt: "asc" } })).map((a) => [a.action, a.metadata]),
  events: (await db().outboxEvent.findMany({ where: { tenantId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => e.type),
});

describe("PATCH /v1/customers/{id}", () => {
  it("changes only the fields sent, clears with null, and writes the audit row and the event with the change", async () => {
    const who = await caller();
    const created = (await post(who, PERSON)).body;
    const res = await patch(who, created.id, { email: "maria.silva@example.com", monthly_income: 920000, address: null, name: "Maria da Silva" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, email: "maria.silva@example.com", monthly_income: 920000, address: null, updated_at: expect.any(String) });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

    const row = await db().customer.findUniqueOrThrow({ where: { id: created.id } });
    expect([row.email, row.monthlyIncome, row.address, row.name, row.phone]).toEqual(["maria.silva@example.com", 920000n, null, "Maria da Silva", "+5511987654321"]);
    expect(await history(who.tenantId, created.id)).toEqual({
      audit: [
        ["customer.created", { kind: "person" }],
        [
          "customer.updated",
          {
            fields: ["email", "address", "monthly_income"],
            changes: {
              email: { from: created.email, to: "maria.silva@example.com" },
              address: { from: created.address, to: null },
              monthly_income: { from: created.monthly_income, to: 920000 },
            },
          },
        ],
      ],
      events: ["customer.created", "customer.updated"],
    });
    const event = await db().outboxEvent.findFirstOrThrow({ where: { tenantId: who.tenantId, type: "customer.updated" } });
    expect(event.payload).toEqual({
      ...res.body,
      changed_fields: ["email", "address", "monthly_income"],
      previous_attributes: { email: created.email, address: created.address, monthly_income: created.monthly_income },
    });
    expect([created.email, created.address?.street, created.monthly_income]).toEqual(["maria@example.com", "Avenida Paulista", 850000]);
    expect((await get(who, created.id)).body).toEqual(res.body);
  });

  it("writes nothing when nothing changes", async () => {
    const who = await caller();
    const created = (await post(who, PERSON)).body;
    for (const body of [{}, { name: "Maria da Silva", address: PERSON.address }]) {
      const res = await patch(who, created.id, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
    }
    expect((await history(who.tenantId, created.id)).events).toEqual(["customer.created"]);
  });

  it("keeps document and kind immutable and the per-kind rules, with whole field errors", async () => {
    const who = await caller();
    const company = (await post(who, COMPANY)).body;
    const immutable = await patch(who, company.id, { document: "52998224725", kind: "person" });
    expect(immutable.body).toEqual(invalidFields([
      { param: "document", message: "Unknown field" },
      { param: "kind", message: "Unknown field" },
    ]));
    const birth = await patch(who, company.id, { birth_date: "1990-01-01" });
    expect(birth.status).toBe(400);
    expect(birth.body).toEqual(invalidFields([{ param: "birth_date", message: "Only persons (CPF) have a birth date; send foundation_date for a company" }]));
    expect(await patch(who, company.id, { name: null })).toMatchObject({ status: 400, body: { errors: [{ param: "name", in: "body" }] } });
    expect((await get(who, company.id)).body).toEqual(company);
    expect((await history(who.tenantId, company.id)).events).toEqual(["customer.created"]);
  });

  it("needs customers:read beside customers:write: the answer is the whole customer (a write-only key PATCHing {} read anyone's data)", async () => {
    const owner = await caller();
    const created = (await post(owner, PERSON)).body;
    const writeOnly = await caller("sandbox", ["customers:write"], owner.tenantId);
    const refused = await patch(writeOnly, created.id, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "insufficient_permissions", detail: "This operation requires the customers:write and customers:read permissions (its answer carries what customers:read reads)" });
    expect(refused.body).not.toHaveProperty("document");
    expect((await patch(writeOnly, created.id, { name: "Someone Else" })).status).toBe(403);
    expect((await get(owner, created.id)).body).toEqual(created); // nothing changed
    const both = await caller("sandbox", ["customers:write", "customers:read"], owner.tenantId);
    expect(await patch(both, created.id, {})).toMatchObject({ status: 200, body: created });
  });
});
