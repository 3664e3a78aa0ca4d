import jsQR from "jsqr";
import { PNG } from "pngjs";
import QRCode from "qrcode";
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

  it("the SVG for the printable page draws the same symbol (size = modules + 2 × margin)", async () => {
    const svg = await pixQrSvg(code);
    const size = QRCode.create(code, { errorCorrectionLevel: "M" }).modules.size + 4;
    expect(svg).toMatch(new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}"`));
  });
});
