import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/finance";
import { bankFreeField, barcode, barcodeFromLine, digitableLine, dueDateFactor, mod10, mod11 } from "./boleto";

// FEBRABAN boleto, digit by digit: a published Banco do Brasil example, the due-date factor across the
// 2025-02-22 rollover, and every check digit recomputed for random boletos.

// Published example (Banco do Brasil): R$ 1,00 due 2007-12-31 (factor 3737).
const BB_BARCODE = "00193373700000001000500940144816060680935031";
const BB_LINE = "00190.50095 40144.816069 06809.350314 3 37370000000100";

describe("boleto", () => {
  it("builds the published Banco do Brasil example from its parts, and its linha digitável", () => {
    const code = barcode({ bankCode: "001", dueDate: "2007-12-31", amount: 100, freeField: "0500940144816060680935031" });
    expect(code).toBe(BB_BARCODE);
    expect(digitableLine(code)).toBe(BB_LINE);
    expect(barcodeFromLine(BB_LINE)).toBe(BB_BARCODE);
  });

  it("computes the due-date factor, including the 2025-02-22 restart at 1000", () => {
    expect([
      dueDateFactor("2000-07-03"),
      dueDateFactor("2007-12-31"),
      dueDateFactor("2025-02-21"),
      dueDateFactor("2025-02-22"),
      dueDateFactor("2025-02-23"),
      dueDateFactor("2026-11-23"),
      dueDateFactor("2049-10-13"),
      dueDateFactor("2049-10-14"),
    ]).toEqual(["1000", "3737", "9999", "1000", "1001", "1639", "9999", "1000"]);
    expect(() => dueDateFactor("2000-07-02")).toThrow(RangeError);
  });

  it("mod 11: 0, 10 and 11 become 1; mod 10 sums the digits of products", () => {
    expect(mod11("0019373700000001000500940144816060680935031")).toBe(3);
    expect(mod10("001905009")).toBe(5);
    expect(mod10("4014481606")).toBe(9);
    expect(mod10("0680935031")).toBe(4);
    // Remainders 0 and 1 (11 − r = 11 or 10) give 1, never 0 or a two-digit DV.
    expect(mod11("0000000000000000000000000000000000000000000")).toBe(1); // r = 0
    expect(mod11("0000000000000000000000000000000000000000005")).toBe(1); // 5 × 2 = 10: r = 10, 11 − 10 = 1
    expect(mod11("0000000000000000000000000000000000000000006")).toBe(1); // 12: r = 1, 11 − 1 = 10 → 1
    expect(mod11("0000000000000000000000000000000000000000004")).toBe(3); // 8: 11 − 8 = 3
  });

  it("lays out Banco do Brasil's 7-digit agreement free field", () => {
    expect(bankFreeField("1234567", 42, "17")).toEqual({ freeField: "0000001234567000000004217", ourNumber: "12345670000000042" });
    expect(() => bankFreeField("123", 1, "17")).toThrow(RangeError);
  });

  it("every random boleto: 44/47 digits, each check digit recomputes, the line gives the barcode back", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30000 }),
        fc.integer({ min: 1, max: 99_999_999_99 }),
        fc.stringMatching(/^\d{25}$/),
        fc.constantFrom("001", "237", "341", "104", "033"),
        (offset, amount, freeField, bankCode) => {
          const dueDate = addDays("2000-07-03", offset);
          const code = barcode({ bankCode, dueDate, amount, freeField });
          expect(code).toMatch(/^\d{44}$/);
          expect(code.slice(0, 4)).toBe(`${bankCode}9`);
          expect(Number(code[4])).toBe(mod11(code.slice(0, 4) + code.slice(5)));
          expect(code.slice(5, 9)).toBe(dueDateFactor(dueDate));
          expect(Number(code.slice(9, 19))).toBe(amount);
          expect(code.slice(19)).toBe(freeField);
          const line = digitableLine(code);
          expect(line.replace(/[\s.]/g, "")).toMatch(/^\d{47}$/);
          expect(barcodeFromLine(line)).toBe(code);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("refuses a line with a wrong check digit", () => {
    expect(() => barcodeFromLine(BB_LINE.replace("00190.50095", "00190.50096"))).toThrow("Field 1's check digit is wrong");
    expect(() => barcodeFromLine(BB_LINE.replace(" 3 ", " 4 "))).toThrow("The general check digit is wrong");
  });
});
