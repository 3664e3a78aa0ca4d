import { invalid, mod11CheckDigit, stripPunctuation, valid, type DocumentResult } from "./document-result";

const DV1_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const DV2_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

// Alphanumeric CNPJ (IN RFB 2.229/2024, from July 2026): each character is worth its ASCII code − 48,
// so digits keep their value and A = 17 … Z = 42; numeric CNPJs validate exactly as before.
const charValue = (char: string): number => char.charCodeAt(0) - 48;

// The two numeric check digits of a 12-character base ([0-9A-Z]).
export function cnpjCheckDigits(base: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new RangeError("CNPJ base must be 12 characters [0-9A-Z]");
  const values = [...base].map(charValue);
  const dv1 = mod11CheckDigit(values, DV1_WEIGHTS);
  const dv2 = mod11CheckDigit([...values, dv1], DV2_WEIGHTS);
  return `${dv1}${dv2}`;
}

// Accepts "11.222.333/0001-81", "12.ABC.345/01DE-35" or unpunctuated; letters are upper-cased.
// Returns the 14 characters when valid.
export function validateCnpj(input: string): DocumentResult {
  // ASCII letters only, checked before upper-casing: Unicode case mapping turns "ß" into "SS" and "ı" into "I".
  const stripped = stripPunctuation(input);
  if (!/^[0-9A-Za-z]*$/.test(stripped)) return invalid("invalid_characters");
  const value = stripped.toUpperCase();
  if (value.length !== 14) return invalid("invalid_length");
  if (!/^\d{2}$/.test(value.slice(12))) return invalid("invalid_characters");
  if (/^(.)\1{13}$/.test(value)) return invalid("repeated_digits");
  if (cnpjCheckDigits(value.slice(0, 12)) !== value.slice(12)) return invalid("invalid_check_digits");
  return valid(value);
}

export const isValidCnpj = (input: string): boolean => validateCnpj(input).ok;

// "11222333000181" → "11.222.333/0001-81"; throws on an invalid CNPJ.
export function formatCnpj(input: string): string {
  const result = validateCnpj(input);
  if (!result.ok) throw new RangeError(`invalid CNPJ: ${result.error}`);
  const v = result.value;
  return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}`;
}

// The 8-character root (raiz) shared by a company's head office and branches.
export const cnpjRoot = (normalized: string): string => normalized.slice(0, 8);
