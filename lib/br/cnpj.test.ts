import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cnpjCheckDigits, cnpjRoot, formatCnpj, isValidCnpj, validateCnpj } from "./cnpj";

describe("CNPJ", () => {
  // 11.222.333/0001-81: Σ(1,1,2,2,2,3,3,3,0,0,0,1 × 5,4,3,2,9,8,7,6,5,4,3,2) = 102, 102 mod 11 = 3 → 8;
  // with DV1: Σ(… ,8 × 6,5,4,3,2,9,8,7,6,5,4,3,2) = 120, 120 mod 11 = 10 → 1.
  it("accepts the numeric reference CNPJ", () => {
    expect(cnpjCheckDigits("112223330001")).toBe("81");
    expect(validateCnpj("11.222.333/0001-81")).toEqual({ ok: true, value: "11222333000181" });
    expect(formatCnpj("11222333000181")).toBe("11.222.333/0001-81");
    expect(cnpjRoot("11222333000181")).toBe("11222333");
  });

  // Alphanumeric (Receita Federal example): values ASCII − 48, so A=17, B=18, C=19, D=20, E=21.
  // 1,2,17,18,19,3,4,5,0,1,20,21 × 5,4,3,2,9,8,7,6,5,4,3,2 = 459, 459 mod 11 = 8 → DV1 = 3;
  // … × 6,5,4,3,2,9,8,7,6,5,4,3,2 with DV1 3 = 424, 424 mod 11 = 6 → DV2 = 5.
  it("accepts the alphanumeric CNPJ (July 2026)", () => {
    expect(cnpjCheckDigits("12ABC34501DE")).toBe("35");
    expect(validateCnpj("12.ABC.345/01DE-35")).toEqual({ ok: true, value: "12ABC34501DE35" });
    expect(validateCnpj("12.abc.345/01de-35")).toEqual({ ok: true, value: "12ABC34501DE35" });
    expect(formatCnpj("12ABC34501DE35")).toBe("12.ABC.345/01DE-35");
  });

  it.each([
    ["11.222.333/0001-82", "invalid_check_digits"],
    ["12.ABC.345/01DE-53", "invalid_check_digits"],
    ["12.ABC.345/01DE-3A", "invalid_characters"], // check digits stay numeric
    ["12.ABC.345/01DE-3$", "invalid_characters"],
    ["00.000.000/0000-00", "repeated_digits"],
    ["11.222.333/0001-8", "invalid_length"],
    ["112223330001811", "invalid_length"],
  ])("rejects %j with %s", (input, error) => {
    expect(validateCnpj(input)).toEqual({ ok: false, error });
  });

  it("refuses non-ASCII letters that upper-case into ASCII ones (ß → SS, ı → I, ſ → S)", () => {
    const base = "12ABC345SS01";
    const valid = base + cnpjCheckDigits(base);
    expect(validateCnpj(valid)).toEqual({ ok: true, value: valid });
    for (const input of [`12ABC345ß01${valid.slice(12)}`, valid.replace("SS", "ſſ"), "12ıBC34501DE35"]) {
      expect(validateCnpj(input)).toEqual({ ok: false, error: "invalid_characters" });
    }
  });

  it("any [0-9A-Z]{12} base with computed DVs validates; a changed DV never does (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{12}$/), fc.integer({ min: 1, max: 9 }), fc.boolean(), (base, delta, first) => {
        const cnpj = base + cnpjCheckDigits(base);
        if (/^(.)\1+$/.test(cnpj)) return;
        expect(isValidCnpj(formatCnpj(cnpj))).toBe(true);
        const i = first ? 12 : 13;
        const changed = cnpj.slice(0, i) + String((Number(cnpj[i]) + delta) % 10) + cnpj.slice(i + 1);
        expect(validateCnpj(changed)).toEqual({ ok: false, error: "invalid_check_digits" });
      }),
      { numRuns: 200 },
    );
  });
});
