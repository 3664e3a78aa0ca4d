import { describe, expect, it } from "vitest";
import { brCode, crc16, isValidTxid, normalizeText, parseBrCode, tlv } from "./pix-brcode";

// Pix BR Code against the Banco Central's published example, parsed back and CRC-checked.

// The BR Code manual's static example (key 123e4567-…, Fulano de Tal, Brasília).
const BCB_STATIC = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

describe("Pix BR Code", () => {
  it("reproduces the BCB manual's static example byte for byte, CRC included", () => {
    expect(crc16(BCB_STATIC.slice(0, -4))).toBe("1D3D");
    const fields = parseBrCode(BCB_STATIC);
    expect(fields).toEqual({
      "00": "01",
      "26": { "00": "br.gov.bcb.pix", "01": "123e4567-e12b-12d1-a456-426655440000" },
      "52": "0000",
      "53": "986",
      "58": "BR",
      "59": "Fulano de Tal",
      "60": "BRASILIA",
      "62": { "05": "***" },
      "63": "1D3D",
    });
  });

  it("builds a dynamic charge: point of initiation 12, the location, the amount, normalised name and city, txid ***", () => {
    const code = brCode({ location: "pix.sandbox.example/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25", amount: 95373, merchantName: "Crédito Fácil Sociedade de Crédito Direto S.A.", merchantCity: "São José dos Campos" });
    expect(parseBrCode(code)).toEqual({
      "00": "01",
      "01": "12",
      "26": { "00": "br.gov.bcb.pix", "25": "pix.sandbox.example/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25" },
      "52": "0000",
      "53": "986",
      "54": "953.73",
      "58": "BR",
      "59": "CREDITO FACIL SOCIEDADE D",
      "60": "SAO JOSE DOS CA",
      "62": { "05": "***" },
      "63": code.slice(-4),
    });
    expect(code.slice(-8, -4)).toBe("6304");
  });

  it("refuses a payload whose CRC does not match", () => {
    expect(() => parseBrCode(BCB_STATIC.slice(0, -1) + "E")).toThrow("The CRC does not match");
  });

  it("formats amounts with two decimals and lengths with two digits", () => {
    expect(tlv("54", "1.05")).toBe("54041.05");
    const code = brCode({ key: "+5511999990000", amount: 5, merchantName: "A", merchantCity: "B", txid: "TX1" });
    expect((parseBrCode(code) as Record<string, unknown>)["54"]).toBe("0.05");
    expect(normalizeText("  Ação & Cia. Ltda  ", 25)).toBe("ACAO CIA LTDA");
  });

  it("checks txids by the BCB rule (26–35 alphanumerics)", () => {
    expect(isValidTxid("a".repeat(26))).toBe(true);
    expect(isValidTxid("A1".repeat(17) + "Z")).toBe(true);
    expect(isValidTxid("a".repeat(25))).toBe(false);
    expect(isValidTxid("a".repeat(36))).toBe(false);
    expect(isValidTxid(`${"a".repeat(25)}-`)).toBe(false);
  });
});
