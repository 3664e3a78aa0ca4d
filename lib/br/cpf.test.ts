import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cpfCheckDigits, formatCpf, isValidCpf, maskCpf, validateCpf } from "./cpf";

describe("CPF", () => {
  // 529.982.247-25: DV1 = Σ(5,2,9,9,8,2,2,4,7 × 10..2) = 295, 295 mod 11 = 9 → 11 − 9 = 2;
  // DV2 = Σ(5,2,9,9,8,2,2,4,7,2 × 11..2) = 347, 347 mod 11 = 6 → 11 − 6 = 5.
  it("accepts the reference CPF with or without punctuation", () => {
    expect(cpfCheckDigits("529982247")).toBe("25");
    expect(validateCpf("529.982.247-25")).toEqual({ ok: true, value: "52998224725" });
    expect(validateCpf("52998224725")).toEqual({ ok: true, value: "52998224725" });
    expect(validateCpf(" 529 982 247 25 ")).toEqual({ ok: true, value: "52998224725" });
  });

  it.each([
    ["529.982.247-24", "invalid_check_digits"],
    ["529.982.247-52", "invalid_check_digits"],
    ["111.111.111-11", "repeated_digits"], // its DVs are "valid", yet it is not a real CPF
    ["000.000.000-00", "repeated_digits"],
    ["5299822472", "invalid_length"],
    ["529982247255", "invalid_length"],
    ["", "invalid_length"],
    ["529.982.247-2a", "invalid_characters"],
    ["529,982,247-25", "invalid_characters"],
  ])("rejects %j with %s", (input, error) => {
    expect(validateCpf(input)).toEqual({ ok: false, error });
  });

  it("formats and masks", () => {
    expect(formatCpf("52998224725")).toBe("529.982.247-25");
    expect(maskCpf("52998224725")).toBe("***.982.247-**");
    expect(() => formatCpf("52998224724")).toThrow(RangeError);
  });

  it("any 9-digit base with computed DVs validates; a changed DV never does (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{9}$/), fc.integer({ min: 1, max: 9 }), fc.boolean(), (base, delta, first) => {
        const cpf = base + cpfCheckDigits(base);
        if (/^(\d)\1+$/.test(cpf)) return;
        expect(isValidCpf(formatCpf(cpf))).toBe(true);
        const i = first ? 9 : 10;
        const changed = cpf.slice(0, i) + String((Number(cpf[i]) + delta) % 10) + cpf.slice(i + 1);
        expect(validateCpf(changed)).toEqual({ ok: false, error: "invalid_check_digits" });
      }),
      { numRuns: 200 },
    );
  });
});
