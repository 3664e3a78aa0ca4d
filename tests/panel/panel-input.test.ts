import { describe, expect, it, vi } from "vitest";

// The panel's JSON endpoints apply /v1's text rules: a NUL or a lone surrogate in a path segment, the query or the
// body is a 400 problem, never a database error (both answered 500 before).

vi.mock("@/lib/panel/session", async () => {
  const { newTenant } = await import("@/tests/helpers/factory");
  const { tenant, ownerUserId } = await newTenant();
  return { currentPanelUser: async () => ({ userId: ownerUserId, email: "owner@panel.test", tenantId: tenant.id, role: "owner", memberships: [] }) };
});

describe("panel input", () => {
  it("takes a write from the address the browser used (Next's request.url is its listening address), refuses another site's", async () => {
    const { PATCH: patchEndpoint } = await import("@/app/api/panel/webhook-endpoints/[id]/route");
    const write = (headers: Record<string, string>) =>
      patchEndpoint(
        new Request("http://localhost:3000/api/panel/webhook-endpoints/whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0", { method: "PATCH", headers: { "content-type": "application/json", ...headers }, body: '{"description":"x"}' }),
        { params: Promise.resolve({ id: "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0" }) },
      );
    // The panel served as panel.example.com.br: its own origin is let through (404: no such endpoint), another is not.
    expect((await write({ host: "panel.example.com.br", origin: "http://panel.example.com.br" })).status).toBe(404);
    expect((await write({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" })).status).toBe(404);
    const forged = await write({ host: "panel.example.com.br", origin: "http://evil.example" });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: "cross_origin_request" });
  });

  it("answers 400 for NUL or ill-formed text in the query, the path or the body", async () => {
    const { GET: queue } = await import("@/app/api/panel/proposals/route");
    const { PATCH: patchEndpoint } = await import("@/app/api/panel/webhook-endpoints/[id]/route");
    const inQuery = await queue(new Request("http://localhost:3000/api/panel/proposals?q=%00"), { params: Promise.resolve({}) });
    expect(inQuery.status).toBe(400);
    expect(await inQuery.json()).toMatchObject({ code: "validation_error", errors: [{ param: "q", in: "query" }] });
    const write = (id: string, body: string) =>
      patchEndpoint(new Request(`http://localhost:3000/api/panel/webhook-endpoints/${encodeURIComponent(id)}`, { method: "PATCH", headers: { "content-type": "application/json", origin: "http://localhost:3000" }, body }), {
        params: Promise.resolve({ id }),
      });
    const inPath = await write("whe_\u0000", JSON.stringify({ description: "ok" }));
    expect(inPath.status).toBe(400);
    expect(await inPath.json()).toMatchObject({ code: "validation_error", errors: [{ param: "id", in: "path" }] });
    const inBody = await write("whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0", '{"description":"a\\u0000b"}');
    expect(inBody.status).toBe(400);
    expect(await inBody.json()).toMatchObject({ code: "validation_error", errors: [{ param: "description", in: "body" }] });
  });

  it("caps a body as /v1 does, on the routes that answer anyone too: 413 past 1 MiB (declared or streamed), 400 for bytes that are not UTF-8", async () => {
    const { POST: requestReset } = await import("@/app/api/password-resets/route");
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      requestReset(new Request("http://localhost:3000/api/password-resets", { method: "POST", headers: { "content-type": "application/json", origin: "http://localhost:3000", ...headers }, body, duplex: "half" } as RequestInit), {
        params: Promise.resolve({}),
      });
    const big = JSON.stringify({ email: `${"a".repeat(1024 * 1024)}@x.test` });
    const declared = await post(big);
    expect([declared.status, (await declared.json()).code]).toEqual([413, "payload_too_large"]);
    const chunks = [new TextEncoder().encode('{"email":"'), new Uint8Array(1024 * 1024 + 10).fill(97), new TextEncoder().encode('@x.test"}')];
    const streamed = await post(new ReadableStream({ pull(controller) { const next = chunks.shift(); if (next) controller.enqueue(next); else controller.close(); } }));
    expect([streamed.status, (await streamed.json()).code]).toEqual([413, "payload_too_large"]);
    const latin1 = await post(new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
    expect(latin1.status).toBe(400);
  });

  it("answers 400 for a date filter that is not a real day (a 13th month was a database error, 30 February read as 1 March)", async () => {
    const { GET: queue } = await import("@/app/api/panel/proposals/route");
    const { GET: auditLog } = await import("@/app/api/panel/audit-log/route");
    for (const [route, path] of [[queue, "proposals"], [auditLog, "audit-log"]] as const) {
      for (const [param, value] of [["from", "2024-13-01"], ["to", "2024-02-30"], ["from", "1899-12-31"]]) {
        const answer = await route(new Request(`http://localhost:3000/api/panel/${path}?${param}=${value}`), { params: Promise.resolve({}) });
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({ code: "validation_error", errors: [{ param, in: "query" }] });
      }
      const valid = await route(new Request(`http://localhost:3000/api/panel/${path}?from=2024-02-29&to=2024-03-01`), { params: Promise.resolve({}) });
      expect(valid.status).toBe(200);
    }
  });
});
