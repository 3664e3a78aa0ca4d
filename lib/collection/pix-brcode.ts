// The Pix BR Code ("copia e cola"): EMV QRCPS-MPM TLV fields as the Banco Central's manual defines them, with
// its CRC-16/CCITT-FALSE. Pure functions; the QR image is drawn from this text by the `qrcode` library.

export type BrCodeInput = {
  /** Dynamic charges: the PSP's payload location (no scheme), e.g. "pix.example.com/qr/v2/9d36b84f…". */
  location?: string;
  /** Static charges: the receiver's Pix key. */
  key?: string;
  /** Integer centavos; absent for an open amount (static only). */
  amount?: number;
  merchantName: string;
  merchantCity: string;
  /** Static: the txid (or "***"); dynamic charges always carry "***" (the txid lives at the location). */
  txid?: string;
  /** Merchant category code; "0000" when not informed. */
  mcc?: string;
};

/** One TLV field: id (2 digits), length (2 digits), value. */
export function tlv(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`Field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR; 4 upper-case hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** Upper-case ASCII without accents or symbols other than space, cut to `max` (names and cities in the BR Code). */
export function normalizeText(text: string, max: number): string {
  const plain = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 ]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
  return plain.slice(0, max).trim();
}

export function brCode(input: BrCodeInput): string {
  if ((input.location === undefined) === (input.key === undefined)) throw new RangeError("Give exactly one of location (dynamic) and key (static)");
  if (input.amount !== undefined && (!Number.isSafeInteger(input.amount) || input.amount <= 0)) throw new RangeError(`Amount must be positive centavos: ${input.amount}`);
  const account = tlv("00", "br.gov.bcb.pix") + (input.location !== undefined ? tlv("25", input.location) : tlv("01", input.key!));
  const txid = input.location !== undefined ? "***" : (input.txid ?? "***");
  const fields = [
    tlv("00", "01"),
    ...(input.location !== undefined ? [tlv("01", "12")] : []),
    tlv("26", account),
    tlv("52", input.mcc ?? "0000"),
    tlv("53", "986"),
    ...(input.amount !== undefined ? [tlv("54", formatAmount(input.amount))] : []),
    tlv("58", "BR"),
    tlv("59", normalizeText(input.merchantName, 25)),
    tlv("60", normalizeText(input.merchantCity, 15)),
    tlv("62", tlv("05", txid)),
  ].join("");
  const withCrcHeader = `${fields}6304`;
  return `${withCrcHeader}${crc16(withCrcHeader)}`;
}

function formatAmount(centavos: number): string {
  return `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, "0")}`;
}

export interface TlvTree {
  [id: string]: string | TlvTree;
}

/** Parses a BR Code back into its fields (26 and 62 nested) after checking its CRC; throws when malformed. */
export function parseBrCode(code: string): TlvTree {
  if (!/6304[0-9A-F]{4}$/.test(code)) throw new RangeError("A BR Code ends with its CRC field 63");
  if (crc16(code.slice(0, -4)) !== code.slice(-4)) throw new RangeError("The CRC does not match");
  return parseTlv(code, ["26", "62"]);
}

function parseTlv(text: string, nested: string[] = []): TlvTree {
  const out: TlvTree = {};
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const length = Number(text.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length) || i + 4 + length > text.length) throw new RangeError(`Malformed field at ${i}`);
    const value = text.slice(i + 4, i + 4 + length);
    out[id] = nested.includes(id) ? parseTlv(value) : value;
    i += 4 + length;
  }
  return out;
}

/** A txid as the BCB rules ask: 26–35 characters of [a-zA-Z0-9]. */
export function isValidTxid(txid: string): boolean {
  return /^[a-zA-Z0-9]{26,35}$/.test(txid);
}
