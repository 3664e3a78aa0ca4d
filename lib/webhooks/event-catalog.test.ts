import { describe, expect, it } from "vitest";
import { EVENT_CATALOG, SUBSCRIBABLE_EVENT_TYPES, TEST_EVENT_TYPE } from "./event-catalog";
import { SUBSCRIBABLE_EVENT_NAMES } from "./event-names";

describe("the event catalogue", () => {
  it("has unique types, each <object>.<change>, and the panel's list of names matches it", () => {
    const types = EVENT_CATALOG.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    for (const type of types) expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
    expect([...SUBSCRIBABLE_EVENT_NAMES]).toEqual(SUBSCRIBABLE_EVENT_TYPES);
    expect(SUBSCRIBABLE_EVENT_TYPES).not.toContain(TEST_EVENT_TYPE);
  });

  it("names the events the issue's catalogue asks for", () => {
    for (const type of [
      "customer.created",
      "proposal.status_changed",
      "contract.issued",
      "contract.closed",
      "installment.paid",
      "installment.overdue",
      "charge.paid",
      "settlement.completed",
      "assignment.status_changed",
      "margin_reservation.status_changed",
      "endorsement.status_changed",
    ]) expect(SUBSCRIBABLE_EVENT_TYPES).toContain(type);
  });
});
