import { describe, expect, it } from "vitest";
import * as D from "./decimal";
import { applyRate, applyRateProRata, assertCentavos, formatBRL, formatReais, parseReais } from "./money";

describe("money", () => {
  it("parses and formats reais without floats", () => {
    expect(parseReais("1234.56")).toBe(123456);
    expect(parseReais("0.1")).toBe(10);
    expect(parseReais("-7")).toBe(-700);
    expect(() => parseReais("1.001")).toThrow(RangeError);
    expect(formatReais(123456)).toBe("1234.56");
    expect(formatReais(-5)).toBe("-0.05");
    expect(formatBRL(123456789)).toBe("R$ 1.234.567,89");
    expect(formatBRL(-100)).toBe("-R$ 1,00");
  });

  it("rejects non-integer or unsafe centavos", () => {
    expect(() => assertCentavos(1.5)).toThrow(RangeError);
    expect(() => assertCentavos(2 ** 53)).toThrow(RangeError);
  });

  it("applies rates with half-up rounding", () => {
    // 101 centavos × 0.005 = 0.505 → 1; 99 × 0.005 = 0.495 → 0.
    expect(applyRate(101, D.parse("0.005"))).toBe(1);
    expect(applyRate(99, D.parse("0.005"))).toBe(0);
    expect(applyRate(100000, D.parse("0.0038"))).toBe(380);
    // 33333 × 0.01 × 7/30 = 77.777 → 78 (exact ratio, one rounding).
    expect(applyRateProRata(33333, D.parse("0.01"), 7, 30)).toBe(78);
    // 15000 × 0.01 × 1/30 = 5 exactly; 4500 × 0.01 × 1/30 = 1.5 → 2 (tie goes up).
    expect(applyRateProRata(15000, D.parse("0.01"), 1, 30)).toBe(5);
    expect(applyRateProRata(4500, D.parse("0.01"), 1, 30)).toBe(2);
  });
});
