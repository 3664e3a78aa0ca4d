import bwipjs from "bwip-js/node";
import { PNG } from "pngjs";
import QRCode from "qrcode";

// The images people pay from, drawn by well-kept libraries from the codes this module computes: the
// boleto's barcode (Interleaved 2 of 5 as FEBRABAN prints it: wide = 3 × narrow, the library's default
// ratio; 13 mm tall) and the Pix QR code (error correction M, as PSPs print it).

/** The boleto barcode as SVG (no text under it: the linha digitável is printed above it). */
export function boletoBarcodeSvg(barcode: string): string {
  if (!/^\d{44}$/.test(barcode)) throw new RangeError("A boleto barcode has 44 digits");
  return bwipjs.toSVG({ bcid: "interleaved2of5", text: barcode, height: 13, includetext: false });
}

const QR_OPTIONS = { errorCorrectionLevel: "M", margin: 2 } as const;
const QR_SCALE = 4; // pixels per module

/**
 * `pix.qr_code`: the BR Code as a PNG data URL (≈ 3 kB), ready for an <img> or an e-mail. The symbol comes from
 * `qrcode` (QRCode.create), the PNG from `pngjs` as 8-bit grayscale: `qrcode`'s own PNG path draws RGBA through a
 * stream and cost ≈ 3× more CPU per charge (measured: ≈ 5 ms vs ≈ 1.7 ms), the bulk of creating a Pix charge.
 */
export function pixQrPngDataUrl(brcode: string): string {
  const { modules } = QRCode.create(brcode, { errorCorrectionLevel: QR_OPTIONS.errorCorrectionLevel });
  const side = (modules.size + 2 * QR_OPTIONS.margin) * QR_SCALE;
  const pixels = Buffer.alloc(side * side, 255);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      const x = (col + QR_OPTIONS.margin) * QR_SCALE;
      for (let dy = 0; dy < QR_SCALE; dy++) {
        const y = (row + QR_OPTIONS.margin) * QR_SCALE + dy;
        pixels.fill(0, y * side + x, y * side + x + QR_SCALE);
      }
    }
  }
  const png = PNG.sync.write({ width: side, height: side, data: pixels } as PNG, { colorType: 0, inputColorType: 0, inputHasAlpha: false, bitDepth: 8 });
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** The same QR code as SVG markup, for the printable page. */
export function pixQrSvg(brcode: string): Promise<string> {
  return QRCode.toString(brcode, { ...QR_OPTIONS, type: "svg" });
}
