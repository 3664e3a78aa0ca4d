import bwipjs from "bwip-js/node";
import { PNG } from "pngjs";
import encodeQR from "qr";

// The images people pay from, drawn by well-kept libraries from the codes this module computes: the
// boleto's barcode (Interleaved 2 of 5 as FEBRABAN prints it: wide = 3 × narrow, the library's default
// ratio; 13 mm tall) and the Pix QR code (error correction M, as PSPs print it).

/** The boleto barcode as SVG (no text under it: the linha digitável is printed above it). */
export function boletoBarcodeSvg(barcode: string): string {
  if (!/^\d{44}$/.test(barcode)) throw new RangeError("A boleto barcode has 44 digits");
  return bwipjs.toSVG({ bcid: "interleaved2of5", text: barcode, height: 13, includetext: false });
}

const QR_OPTIONS = { ecc: "medium", border: 2 } as const; // error correction M; a 2-module quiet zone
const QR_SCALE = 4; // pixels per module

/**
 * `pix.qr_code`: the BR Code as a PNG data URL (≈ 2 kB), ready for an <img> or an e-mail. The symbol comes from
 * `qr` (paulmillr/qr: ISO/IEC 18004 with the mask chosen by penalty score, word-parallel: ≈ 0.25 ms against
 * ≈ 1.8 ms for `qrcode`), the PNG from `pngjs` as 8-bit grayscale with the "Up" row filter (each row of modules
 * repeats QR_SCALE times, so most rows filter to zeros: smaller than pngjs's adaptive choice, which tries all
 * five filters on every row and cost ≈ 2.5 ms). Together the image went from the bulk of a Pix charge's CPU to
 * well under a millisecond (bench/README.md).
 */
export function pixQrPngDataUrl(brcode: string): string {
  const matrix = encodeQR(brcode, "raw", QR_OPTIONS);
  const side = matrix.length * QR_SCALE;
  const pixels = Buffer.alloc(side * side, 255);
  for (let row = 0; row < matrix.length; row++) {
    const y = row * QR_SCALE;
    const line = matrix[row]!;
    for (let col = 0; col < line.length; col++) if (line[col]) pixels.fill(0, y * side + col * QR_SCALE, y * side + (col + 1) * QR_SCALE);
    for (let dy = 1; dy < QR_SCALE; dy++) pixels.copy(pixels, (y + dy) * side, y * side, (y + 1) * side);
  }
  const png = PNG.sync.write({ width: side, height: side, data: pixels } as PNG, {
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
    bitDepth: 8,
    filterType: 2,
  });
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** The same QR code as SVG markup (black modules on a white square), for the printable page. */
export function pixQrSvg(brcode: string): string {
  const svg = encodeQR(brcode, "svg", QR_OPTIONS);
  return svg.replace(/^<svg ([^>]*)>/, '<svg $1><rect width="100%" height="100%" fill="#fff"/>');
}
