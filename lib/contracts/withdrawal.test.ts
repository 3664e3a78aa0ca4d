import { describe, expect, it } from "vitest";
import { withdrawalEndsOn } from "./withdrawal";

describe("withdrawalEndsOn (CDC art. 49, Código Civil art. 132 §1)", () => {
  it("is the seventh day after the disbursement, moved to the next business day", () => {
    expect(withdrawalEndsOn("2026-03-02")).toBe("2026-03-09"); // Monday to Monday
    expect(withdrawalEndsOn("2026-02-09")).toBe("2026-02-18"); // the seventh day is Carnival Monday; Tuesday too
    expect(withdrawalEndsOn("2026-03-27")).toBe("2026-04-06"); // Good Friday
    expect(withdrawalEndsOn("2026-11-13")).toBe("2026-11-23"); // Consciência Negra (Friday 20), then the weekend
    expect(withdrawalEndsOn("2026-11-19")).toBe("2026-11-26"); // a Thursday: no move
    expect(withdrawalEndsOn("2026-11-21")).toBe("2026-11-30"); // disbursed on a Saturday: the seventh day is one too
  });
});
