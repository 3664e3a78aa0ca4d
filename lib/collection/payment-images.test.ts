import jsQR from "jsqr";
import { PNG } from "pngjs";
import encodeQR from "qr";
import { describe, expect, it } from "vitest";
import { barWidths, decodeI2of5 } from "@/tests/helpers/i2of5";
import { barcode, bankFreeField } from "./boleto";
import { boletoBarcodeSvg, pixQrPngDataUrl, pixQrSvg } from "./payment-images";
import { brCode } from "./pix-brcode";

// The images are read back the way a bank app or a Pix app reads them: the barcode's bars decoded as
// Interleaved 2 of 5, the QR code's pixels decoded by a QR reader.

describe("boleto barcode image", () => {
  it("encodes the 44 digits in Interleaved 2 of 5 with a 3:1 ratio", () => {
    const { freeField } = bankFreeField("1234567", 1000000042, "17");
    const code = barcode({ bankCode: "001", dueDate: "2026-12-10", amount: 1_234_56, freeField });
    expect(decodeI2of5(barWidths(boletoBarcodeSvg(code)))).toBe(code);
  });

  it("refuses anything but 44 digits", () => {
    expect(() => boletoBarcodeSvg("123")).toThrow(RangeError);
  });
});

describe("Pix QR code image", () => {
  const code = brCode({ location: "pix.sandbox.credit-platform.example/qr/v2/9d36b84fc70b478fb95c12729b90ca25", amount: 95373, merchantName: "Crédito Fácil SCD", merchantCity: "São Paulo" });

  it("the PNG data URL reads back as the BR Code", async () => {
    const url = pixQrPngDataUrl(code);
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    const png = PNG.sync.read(Buffer.from(url.slice("data:image/png;base64,".length), "base64"));
    const read = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(read?.data).toBe(code);
  });

  it("the PNG has 4 pixels per module and a quiet zone of 2 modules, in 8-bit grayscale", () => {
    const modules = encodeQR(code, "raw", { ecc: "medium", border: 1 }).length - 2;
    const png = PNG.sync.read(Buffer.from(pixQrPngDataUrl(code).slice("data:image/png;base64,".length), "base64"));
    expect({ width: png.width, height: png.height, colorType: png.colorType, depth: png.depth }).toEqual({ width: (modules + 4) * 4, height: (modules + 4) * 4, colorType: 0, depth: 8 });
    // The top-left finder pattern's outer ring starts after the quiet zone: white at (7, 7), black at (8, 8).
    expect([png.data[(7 * png.width + 7) * 4], png.data[(8 * png.width + 8) * 4]]).toEqual([255, 0]);
  });

  it("the SVG for the printable page draws the same symbol on white (size = modules + 2 × margin)", () => {
    const svg = pixQrSvg(code);
    const size = encodeQR(code, "raw", { ecc: "medium", border: 2 }).length;
    expect(svg).toMatch(new RegExp(`^<svg viewBox="0 0 ${size} ${size}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="#fff"/><path `));
  });
});
