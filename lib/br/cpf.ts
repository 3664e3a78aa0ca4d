import { invalid, mod11CheckDigit, stripPunctuation, valid, type DocumentResult } from "./document-result";

const DV1_WEIGHTS = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const DV2_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];

// The two check digits of a 9-digit CPF base.
export function cpfCheckDigits(base: string): string {
  if (!/^\d{9}$/.test(base)) throw new RangeError("CPF base must be 9 digits");
  const digits = [...base].map(Number);
  const dv1 = mod11CheckDigit(digits, DV1_WEIGHTS);
  const dv2 = mod11CheckDigit([...digits, dv1], DV2_WEIGHTS);
  return `${dv1}${dv2}`;
}

// Accepts "529.982.247-25" or "52998224725"; returns the 11 digits when valid.
export function validateCpf(input: string): DocumentResult {
  const value = stripPunctuation(input);
  if (!/^\d*$/.test(value)) return invalid("invalid_characters");
  if (value.length !== 11) return invalid("invalid_length");
  if (/^(\d)\1{10}$/.test(value)) return invalid("repeated_digits");
  if (cpfCheckDigits(value.slice(0, 9)) !== value.slice(9)) return invalid("invalid_check_digits");
  return valid(value);
}

export const isValidCpf = (input: string): boolean => validateCpf(input).ok;

// "52998224725" → "529.982.247-25"; throws on an invalid CPF so bad data is never displayed as good.
export function formatCpf(input: string): string {
  const result = validateCpf(input);
  if (!result.ok) throw new RangeError(`invalid CPF: ${result.error}`);
  const v = result.value;
  return `${v.slice(0, 3)}.${v.slice(3, 6)}.${v.slice(6, 9)}-${v.slice(9)}`;
}

// "***.982.247-**" style masking where a CPF is shown to someone who needs only to recognise it (the payment page; LGPD data minimization).
export function maskCpf(input: string): string {
  return formatCpf(input).replace(/^\d{3}/, "***").replace(/\d{2}$/, "**");
}
