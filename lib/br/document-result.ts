// Result of validating a CPF or CNPJ: the normalized document (no punctuation) or a machine code.
export type DocumentErrorCode = "invalid_characters" | "invalid_length" | "repeated_digits" | "invalid_check_digits";

export type DocumentResult = { ok: true; value: string } | { ok: false; error: DocumentErrorCode };

export const valid = (value: string): DocumentResult => ({ ok: true, value });
export const invalid = (error: DocumentErrorCode): DocumentResult => ({ ok: false, error });

// Punctuation users type or paste: dots, dashes, slashes and whitespace.
export const stripPunctuation = (input: string): string => input.replace(/[.\-/\s]/g, "");

// Mod-11 check digit used by CPF and CNPJ: r = Σ value·weight mod 11; DV = 0 if r < 2 else 11 − r.
export function mod11CheckDigit(values: readonly number[], weights: readonly number[]): number {
  const sum = values.reduce((acc, value, i) => acc + value * (weights[i] ?? 0), 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}
