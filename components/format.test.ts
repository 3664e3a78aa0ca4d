import { describe, expect, it } from "vitest";
import { formatBRL, formatDocument } from "./format";

describe("panel formatting", () => {
  it("formats centavos as reais without floating point", () => {
    expect([0, 5, 99, 100, 123456789, -150, 100000000000].map(formatBRL)).toEqual(["R$ 0,00", "R$ 0,05", "R$ 0,99", "R$ 1,00", "R$ 1.234.567,89", "-R$ 1,50", "R$ 1.000.000.000,00"]);
  });
  it("formats CPF and CNPJ", () => {
    expect(formatDocument("52998224725")).toBe("529.982.247-25");
    expect(formatDocument("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatDocument("12ABC34501DE35")).toBe("12.ABC.345/01DE-35");
  });
});
