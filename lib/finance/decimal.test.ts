import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as D from "./decimal";
import { exp, growth, ln, pow } from "./decimal-math";
import { roundDiv } from "./rounding";

describe("roundDiv", () => {
  it.each([
    [5n, 2n, "half-up", 3n],
    [-5n, 2n, "half-up", -3n],
    [5n, 2n, "half-even", 2n],
    [7n, 2n, "half-even", 4n],
    [-7n, 2n, "half-even", -4n],
    [7n, 3n, "down", 2n],
    [-7n, 3n, "down", -2n],
    [7n, 3n, "up", 3n],
    [-7n, 3n, "floor", -3n],
    [-7n, 3n, "ceiling", -2n],
    [7n, -2n, "half-up", -4n],
  ] as const)("%s / %s with %s = %s", (n, d, mode, expected) => {
    expect(roundDiv(n, d, mode)).toBe(expected);
  });
});

describe("decimal", () => {
  it("parses and prints exactly", () => {
    expect(D.toString(D.parse("0.0185"))).toBe("0.0185");
    expect(D.toString(D.parse("-12.50"))).toBe("-12.5");
    expect(D.toFixed(D.parse("1.005"), 2)).toBe("1.01");
    expect(D.toFixed(D.parse("-1.005"), 2)).toBe("-1.01");
    expect(D.toFixed(D.parse("1.005"), 2, "half-even")).toBe("1.00");
    expect(() => D.parse("1e-3")).toThrow(RangeError);
    expect(() => D.parse("0.1".padEnd(40, "1"))).toThrow(RangeError);
  });

  it("multiplies, divides and raises to integer powers", () => {
    expect(D.toString(D.mul(D.parse("1.01"), D.parse("1.01")))).toBe("1.0201");
    expect(D.toFixed(D.div(D.ONE, D.fromInt(3)), 6)).toBe("0.333333");
    // 1.01^12 = 1.126825030131969720661201 exactly (24 decimals fit in the 36-digit scale).
    expect(D.toString(D.powInt(D.parse("1.01"), 12))).toBe("1.126825030131969720661201");
    expect(D.toFixed(D.powInt(D.parse("1.01"), -1), 10)).toBe("0.9900990099");
  });

  it("computes exp, ln and fractional powers to 30+ digits", () => {
    expect(D.toFixed(exp(D.ONE), 32)).toBe("2.71828182845904523536028747135266");
    expect(D.toFixed(ln(D.fromInt(2)), 32)).toBe("0.69314718055994530941723212145818");
    expect(D.toFixed(ln(D.parse("0.5")), 32)).toBe("-0.69314718055994530941723212145818");
    // sqrt(1.01) = 1.00498756211208902702192649127595761869... (mpmath)
    expect(D.toFixed(pow(D.parse("1.01"), D.parse("0.5")), 30)).toBe("1.004987562112089027021926491276");
    // 1.01^(365/30) − 1 = 0.128695294159390239370991350788... (mpmath)
    expect(D.toFixed(growth(D.parse("0.01"), D.fromRatio(365, 30)), 28)).toBe("0.1286952941593902393709913508");
  });

  // Decimal stores 36 places absolute, so exp(x) for very negative x keeps fewer significant
  // digits; over x in [−5, 40] the round trip is exact to 1e-30.
  it("exp and ln are inverse (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5_000_000, max: 40_000_000 }), (micro) => {
        const x = D.fromRatio(micro, 1_000_000);
        const back = ln(exp(x));
        expect(D.cmp(D.abs(D.sub(back, x)), D.parse("0.000000000000000000000000000001"))).toBeLessThan(0);
      }),
      { numRuns: 100 },
    );
  });
});
