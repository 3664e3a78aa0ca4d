import { describe, expect, it } from "vitest";
import { auditValueText } from "./audit-value";

describe("audit metadata as text", () => {
  it("shows amounts in reais at every level, changes as from → to, everything else as it is", () => {
    expect(auditValueText("amount", 123456)).toBe("R$ 1.234,56");
    expect(auditValueText("installments", 12)).toBe("12");
    expect(auditValueText("fields", ["name", "monthly_income"])).toBe("name, monthly_income");
    expect(
      auditValueText("changes", { monthly_income: { from: 500000, to: 650000 }, name: { from: "Maria", to: "Maria da Silva" }, phone: { from: null, to: "+5511999990000" } }),
    ).toBe("monthly_income: R$ 5.000,00 → R$ 6.500,00; name: Maria → Maria da Silva; phone: null → +5511999990000");
    expect(auditValueText("endpoint", { url: "https://x.test/hook", enabled: true })).toBe("url: https://x.test/hook; enabled: true");
    expect(auditValueText("reason", null)).toBe("null");
  });
});
