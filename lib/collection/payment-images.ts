import bwipjs from "bwip-js/node";
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

/** `pix.qr_code`: the BR Code as a PNG data URL (about 5 kB), ready for an <img> or an e-mail. */
export function pixQrPngDataUrl(brcode: string): Promise<string> {
  return QRCode.toDataURL(brcode, { ...QR_OPTIONS, scale: 4 });
}

/** The same QR code as SVG markup, for the printable page. */
export function pixQrSvg(brcode: string): Promise<string> {
  return QRCode.toString(brcode, { ...QR_OPTIONS, type: "svg" });
}
