import { afterAll, describe, expect, it } from "vitest";
import { stopListener } from "@/lib/db/notifications";
import { caller, COMPANY, cpf, get, getClient, list, listClients, PERSON, post, problem } from "./fixtures";

afterAll(() => stopListener());

describe("GET /v1/customers", () => {
  it("walks every customer exactly once, newest first, across pages of 10", async () => {
    const who = await caller();
    const created: string[] = [];
    for (let i = 0; i < 25; i++) created.push((await post(who, { document: cpf(i), name: `Customer ${i}` })).body.id);
    await post(await caller("production", undefined, who.tenantId), PERSON); // the other environment never shows up
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(who, `?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "next_cursor", "object"]);
      sizes.push(res.body.data.length);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.next_cursor;
      expect(res.body.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual([...created].reverse());
  });

  it("filters by document, formatted or not, and validates the query", async () => {
    const who = await caller();
    const person = await post(who, PERSON);
    const alpha = await post(who, { document: "12ABC34501DE35", name: "Alpha SA" });
    await post(who, COMPANY);
    for (const document of ["529.982.247-25", "52998224725"]) {
      const res = await list(who, `?document=${encodeURIComponent(document)}`);
      expect(res.body).toEqual({ object: "list", data: [person.body], has_more: false, next_cursor: null });
    }
    expect((await list(who, "?document=12.abc.345%2F01de-35")).body.data).toEqual([alpha.body]);
    expect((await list(who, "?document=00000000000")).body.data).toEqual([]);
    const bad = await list(who, "?limit=101&sort=name");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(problem("validation_error", 400, "The request is invalid", "One or more fields are invalid", {
      errors: [
        { param: "limit", in: "query", message: "Too big: expected number to be <=100" },
        { param: "sort", in: "query", message: "Unknown field" },
      ],
    }));
  });
});

describe("GET /v1/clients (deprecated alias)", () => {
  it("answers exactly like /v1/customers, with Deprecation and Link successor-version headers", async () => {
    const who = await caller();
    const a = await post(who, PERSON);
    await post(who, COMPANY);
    const customers = await list(who, "?limit=1");
    const clients = await listClients(who, "?limit=1");
    expect(clients.status).toBe(200);
    expect(clients.body.data).toEqual(customers.body.data);
    expect(clients.body.has_more).toBe(true);
    expect(clients.headers.get("deprecation")).toBe("true");
    expect(clients.headers.get("link")).toBe('</v1/customers>; rel="successor-version"');
    expect(clients.headers.get("warning")).toBe('299 - "Deprecated: use /v1/customers"');
    expect(customers.headers.get("deprecation")).toBeNull();
    // One pagination scheme: a cursor from the alias pages the successor.
    const next = await list(who, `?limit=1&cursor=${encodeURIComponent(clients.body.next_cursor)}`);
    expect(next.body.data).toEqual([a.body]);

    const one = await getClient(who, a.body.id);
    expect(one.status).toBe(200);
    expect(one.body).toEqual((await get(who, a.body.id)).body);
    expect(one.headers.get("deprecation")).toBe("true");
    expect(one.headers.get("link")).toBe(`</v1/customers/${a.body.id}>; rel="successor-version"`);
  });
});
