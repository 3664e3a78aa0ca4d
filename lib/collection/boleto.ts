import { daysBetween, type IsoDate } from "@/lib/finance";

// FEBRABAN boleto (bloqueto de cobrança): the 44-digit barcode, its 47-digit linha digitável and the
// due-date factor, as every Brazilian bank prints and every bank app reads them. Pure functions.
//
// Barcode: bank(3) currency(1, "9" = real) general-DV(1) factor(4) amount(10, centavos) free-field(25).
// Linha digitável: field 1 = bank + currency + free[0..5) + mod-10 DV; field 2 = free[5..15) + DV;
// field 3 = free[15..25) + DV; field 4 = the general DV; field 5 = factor + amount.

/** Day 0 of the due-date factor. */
export const FACTOR_BASE_DATE = "1997-10-07";

/**
 * Due-date factor: days since 1997-10-07. It reached 9999 on 2025-02-21 and restarted at 1000 on
 * 2025-02-22 (FEBRABAN): factor = ((days − 1000) mod 9000) + 1000 once past 9999.
 */
export function dueDateFactor(dueDate: IsoDate): string {
  const days = daysBetween(FACTOR_BASE_DATE, dueDate);
  if (days < 1000) throw new RangeError(`No due-date factor before 2000-07-03: ${dueDate}`);
  const factor = days <= 9999 ? days : ((days - 1000) % 9000) + 1000;
  return String(factor).padStart(4, "0");
}

/** General check digit of the barcode: weights 2..9 from the right; 11 − (sum mod 11); 0, 10 and 11 become 1. */
export function mod11(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight = weight === 9 ? 2 : weight + 1) sum += Number(digits[i]) * weight;
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

/** Check digit of a linha digitável field: weights 2,1 from the right, digits of each product summed. */
export function mod10(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight = weight === 2 ? 1 : 2) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

export type BarcodeInput = {
  /** FEBRABAN bank code, 3 digits (e.g. "001" Banco do Brasil). */
  bankCode: string;
  dueDate: IsoDate;
  /** Integer centavos, at most R$ 99.999.999,99. */
  amount: number;
  /** The bank's 25-digit campo livre (see bankFreeField). */
  freeField: string;
};

export function barcode(input: BarcodeInput): string {
  if (!/^\d{3}$/.test(input.bankCode)) throw new RangeError(`Bank code must be 3 digits: ${input.bankCode}`);
  if (!/^\d{25}$/.test(input.freeField)) throw new RangeError("The free field must be 25 digits");
  if (!Number.isSafeInteger(input.amount) || input.amount < 0 || input.amount > 99_999_999_99) throw new RangeError(`Amount out of range: ${input.amount}`);
  const body = `${input.bankCode}9${dueDateFactor(input.dueDate)}${String(input.amount).padStart(10, "0")}${input.freeField}`;
  return `${body.slice(0, 4)}${mod11(body)}${body.slice(4)}`;
}

/** The 47-digit line people type, formatted "AAABC.CCCCX DDDDD.DDDDDY EEEEE.EEEEEZ K UUUUVVVVVVVVVV". */
export function digitableLine(code: string): string {
  if (!/^\d{44}$/.test(code)) throw new RangeError("A barcode has 44 digits");
  const free = code.slice(19);
  const f1 = `${code.slice(0, 4)}${free.slice(0, 5)}`;
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  const withDv = (f: string) => `${f}${mod10(f)}`;
  const [a, b, c] = [withDv(f1), withDv(f2), withDv(f3)];
  return `${a.slice(0, 5)}.${a.slice(5)} ${b.slice(0, 5)}.${b.slice(5)} ${c.slice(0, 5)}.${c.slice(5)} ${code[4]} ${code.slice(5, 19)}`;
}

/** The barcode a linha digitável encodes, checking each field's DV and the general DV (throws when wrong). */
export function barcodeFromLine(line: string): string {
  const digits = line.replace(/[\s.]/g, "");
  if (!/^\d{47}$/.test(digits)) throw new RangeError("A linha digitável has 47 digits");
  const fields = [digits.slice(0, 10), digits.slice(10, 21), digits.slice(21, 32)];
  for (const [i, f] of fields.entries()) {
    if (mod10(f.slice(0, -1)) !== Number(f.at(-1))) throw new RangeError(`Field ${i + 1}'s check digit is wrong`);
  }
  const code = `${digits.slice(0, 4)}${digits[32]}${digits.slice(33)}${digits.slice(4, 9)}${digits.slice(10, 20)}${digits.slice(21, 31)}`;
  if (mod11(code.slice(0, 4) + code.slice(5)) !== Number(code[4])) throw new RangeError("The general check digit is wrong");
  return code;
}

/**
 * Banco do Brasil's campo livre for 7-digit agreements (convênio), wallet (carteira) 17/18:
 * "000000" + nosso número (17 = convênio 7 + sequence 10) + carteira 2.
 */
export function bankFreeField(agreement: string, sequence: number, wallet: string): { freeField: string; ourNumber: string } {
  if (!/^\d{7}$/.test(agreement)) throw new RangeError("The agreement (convênio) must be 7 digits");
  if (!/^\d{2}$/.test(wallet)) throw new RangeError("The wallet (carteira) must be 2 digits");
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > 9_999_999_999) throw new RangeError(`Sequence out of range: ${sequence}`);
  const ourNumber = `${agreement}${String(sequence).padStart(10, "0")}`;
  return { freeField: `000000${ourNumber}${wallet}`, ourNumber };
}
