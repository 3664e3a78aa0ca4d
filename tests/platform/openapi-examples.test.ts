import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/api/operations";
import { CHARGE_EXAMPLE } from "@/lib/api/operations/examples";
import { barcodeFromLine, dueDateFactor } from "@/lib/collection/boleto";

// Every response example in the OpenAPI document is a valid answer: it parses with its own schema.
describe("OpenAPI response examples", () => {
  const withExamples = OPERATIONS.flatMap((op) =>
    Object.entries(op.responses)
      .filter(([, r]) => r.example !== undefined && r.schema !== undefined)
      .map(([status, r]) => [`${op.operationId} ${status}`, r] as const),
  );

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
