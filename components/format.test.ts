import { describe, expect, it } from "vitest";
import { formatBRL, formatBRLWhole, formatDate, formatDateTime, formatDocument, formatMonth, formatPercent, formatPercentValue, isMoneyField, parseBRL } from "./format";

describe("panel formatting", () => {
  it("formats centavos as reais without floating point", () => {
    expect([0, 5, 99, 100, 123456789, -150, 100000000000].map(formatBRL)).toEqual(["R$ 0,00", "R$ 0,05", "R$ 0,99", "R$ 1,00", "R$ 1.234.567,89", "-R$ 1,50", "R$ 1.000.000.000,00"]);
  });
  it("tells the audit log's money fields (shown in reais) from counts and ids", () => {
    const money = ["amount", "amount_due", "amount_paid", "credit", "credit_before", "credit_after", "face_value", "price", "principal", "refundable", "fee", "outstanding_balance", "monthly_income"];
    const other = ["contracts", "late_installments", "payment_id", "charge_id", "score", "number", "held", "competence"];
    expect(money.filter(isMoneyField)).toEqual(money);
    expect(other.filter(isMoneyField)).toEqual([]);
  });
  it("parses what a person types in reais into centavos, without floating point", () => {
    const cases: [string, number | null][] = [
      ["1.234,56", 123456], ["1234,56", 123456], ["R$ 12,5", 1250], ["12,05", 1205], ["0,01", 1], ["1234.56", 123456], ["19.9", 1990],
      ["1.234", 123400], ["1.234.567", 123456700], ["50", 5000], ["R$ 1.000.000,00", 100000000],
      ["", null], ["0", null], ["0,00", null], ["1,234", null], ["12,345", null], ["1.23.4", null], ["-5", null], ["abc", null], ["1e3", null], ["12.3456", null],
    ];
    for (const [input, centavos] of cases) expect(parseBRL(input), input).toBe(centavos);
  });

  it("formats CPF and CNPJ", () => {
    expect(formatDocument("52998224725")).toBe("529.982.247-25");
    expect(formatDocument("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatDocument("12ABC34501DE35")).toBe("12.ABC.345/01DE-35");
  });
  it("formats axis reais, exact percentages, months and São Paulo times", () => {
    expect([0, 99, 123456789, -150].map(formatBRLWhole)).toEqual(["R$ 0", "R$ 0", "R$ 1.234.567", "-R$ 1"]);
    expect(["0.0000", "0.1234", "1.0000", "0.0005", "12.5000", "bad"].map(formatPercent)).toEqual(["0,00%", "12,34%", "100,00%", "0,05%", "1250,00%", "bad"]);
    // Contract rates as the API gives them: any number of places, never fewer than two shown, none invented.
    expect(["0.0399", "0.0185", "0.01855", "0.02", "1", "0.1"].map(formatPercent)).toEqual(["3,99%", "1,85%", "1,855%", "2,00%", "100,00%", "10,00%"]);
    expect(["66.54", "3.99", "120", "bad"].map(formatPercentValue)).toEqual(["66,54%", "3,99%", "120%", "bad"]);
    expect(["2026-01", "2026-05", "2025-12"].map((m) => formatMonth(m))).toEqual(["jan/2026", "mai/2026", "dez/2025"]);
    expect(["2026-01", "2025-12"].map((m) => formatMonth(m, "en"))).toEqual(["Jan/2026", "Dec/2025"]);
    // 02:00 UTC on 1 May is still 30 April in São Paulo, whatever the browser's zone.
    expect(formatDateTime("2026-05-01T02:00:00Z")).toBe("30/04/2026, 23:00:00");
    expect(["2026-05-04", "1960-12-31"].map(formatDate)).toEqual(["04/05/2026", "31/12/1960"]);
  });
});
