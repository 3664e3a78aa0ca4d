import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/api/operations";
import { exampleFor } from "@/lib/api/operations/example-registry";
import { REQUEST_EXAMPLES } from "@/lib/api/operations/request-examples";
import { webhookExample } from "@/lib/api/operations/event-examples";
import { CHARGE_EXAMPLE } from "@/lib/api/operations/examples";
import { parseBrCode, crc16 } from "@/lib/collection/pix-brcode";
import { EVENT_CATALOG, envelopeSchema } from "@/lib/webhooks/event-catalog";
import { barcodeFromLine, dueDateFactor } from "@/lib/collection/boleto";

// Every JSON answer in the OpenAPI document has an example (the operation's own or its schema's,
// lib/api/operations/example-registry.ts), and every example is a valid answer: it parses with its own schema.
describe("OpenAPI response examples", () => {
  const withExamples = OPERATIONS.flatMap((op) =>
    Object.entries(op.responses)
      .filter(([status, r]) => r.schema !== undefined && exampleFor(op, Number(status)) !== undefined)
      .map(([status, r]) => [`${op.operationId} ${status}`, { schema: r.schema, example: exampleFor(op, Number(status)) }] as const),
  );

  it("gives every operation's successful JSON answers an example", () => {
    const missing = OPERATIONS.flatMap((op) =>
      Object.entries(op.responses)
        .filter(([status, r]) => status.startsWith("2") && r.schema !== undefined && op.operationId !== "getOpenApiDocument" && exampleFor(op, Number(status)) === undefined)
        .map(([status]) => `${op.operationId} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it("covers the payroll, risk and sandbox operations", () => {
    const names = withExamples.map(([name]) => name);
    for (const op of ["createCharge 201", "getPayment 200", "sandboxPayCharge 200", "receiveProviderNotification 200", "createMarginQuery 201", "createMarginReservation 201", "createEndorsement 201", "createRiskAssessment 201", "simulateRepasse 200"]) expect(names).toContain(op);
  });

  it.each(withExamples)("%s parses with its schema", (_name, response) => {
    const parsed = response.schema!.safeParse(response.example);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it("the boleto example is a real one: its line decodes to its barcode, whose factor is its due date", () => {
    expect(barcodeFromLine(CHARGE_EXAMPLE.boleto.digitable_line)).toBe(CHARGE_EXAMPLE.boleto.barcode);
    expect(CHARGE_EXAMPLE.boleto.barcode.slice(5, 9)).toBe(dueDateFactor(CHARGE_EXAMPLE.boleto.due_date));
  });
});

// Every request body in the document has an example, and it is a request the operation accepts: it parses with the
// operation's own body schema (the one the handler enforces).
describe("OpenAPI request examples", () => {
  const withBodies = OPERATIONS.filter((op) => op.body !== undefined);

  it("gives every operation with a body an example", () => {
    expect(withBodies.filter((op) => REQUEST_EXAMPLES[op.operationId] === undefined).map((op) => op.operationId)).toEqual([]);
    expect(Object.keys(REQUEST_EXAMPLES).filter((id) => !withBodies.some((op) => op.operationId === id))).toEqual([]);
  });

  it.each(withBodies.map((op) => [op.operationId, op] as const))("%s's example parses with its body schema", (_name, op) => {
    const parsed = op.body!.safeParse(REQUEST_EXAMPLES[op.operationId]);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });
});

// Every webhook in the document's `webhooks` section shows the body the worker sends for it (lib/api/operations/event-examples.ts):
// the envelope, `data` in the state the event leaves its object — parsed by the event's own schema with nothing dropped.
describe("OpenAPI webhook examples", () => {
  it.each(EVENT_CATALOG.map((event) => [event.type, event] as const))("%s", (type, event) => {
    const example = webhookExample(type);
    expect(example).toMatchObject({ type, id: expect.stringMatching(/^evt_/), tenant_id: expect.stringMatching(/^ten_/), environment: "sandbox" });
    const parsed = envelopeSchema(event).safeParse(example);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(parsed.data).toEqual(example);
    const status = (example.data as { status?: string; previous_status?: string }).status;
    if ((example.data as { previous_status?: string }).previous_status !== undefined) expect((example.data as { previous_status: string }).previous_status).not.toBe(status);
  });

  it("states agree with the event: a paid charge is paid in full, an expired one is an immediate Pix with a real BR Code", () => {
    expect(webhookExample("charge.paid").data).toMatchObject({ status: "paid", amount_paid: CHARGE_EXAMPLE.amount });
    const expired = webhookExample("charge.expired").data as { status: string; method: string; pix: { kind: string; brcode: string; expires_at: string } };
    expect(expired).toMatchObject({ status: "expired", method: "pix", pix: { kind: "cob" } });
    const tree = parseBrCode(expired.pix.brcode);
    expect(tree["54"]).toBe((CHARGE_EXAMPLE.amount / 100).toFixed(2));
    expect(crc16(expired.pix.brcode.slice(0, -4))).toBe(expired.pix.brcode.slice(-4));
    expect(webhookExample("contract.written_off").data).toMatchObject({ status: "written_off", reason: expect.any(String) });
    expect(webhookExample("contract.closed").data).toMatchObject({ status: "settled", outstanding_balance: 0, reason: "paid_off" });
  });
});

