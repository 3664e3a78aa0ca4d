import { formatCnpj, formatCpf, validateCnpj, validateCpf, type DocumentErrorCode } from "@/lib/br";
import { DomainError } from "@/lib/errors";

// A customer's document decides its kind: a CPF (11 digits) is a person, a CNPJ (14 characters, the
// 2026 alphanumeric form included) is a company. Validation is strict (spec: since 1.3.0): check digits,
// length, characters and repeated digits; a failure is a 400 `invalid_document` that says why.

export type CustomerKind = "person" | "company";
export type ParsedDocument = { kind: CustomerKind; document: string };

const LABEL: Record<CustomerKind, string> = { person: "CPF", company: "CNPJ" };

/** Each `reason` an `invalid_document` problem carries, and its message (the API reference lists these keys). */
export const REASONS: Record<DocumentErrorCode, (label: string) => string> = {
  invalid_characters: (label) =>
    label === "CPF"
      ? "A CPF has digits only (dots, dashes, slashes and spaces are ignored)"
      : "A CNPJ has 12 letters (A–Z) or digits followed by 2 check digits (dots, dashes, slashes and spaces are ignored)",
  invalid_length: (label) => (label === "CPF" ? "A CPF has 11 digits" : "A CNPJ has 14 characters"),
  repeated_digits: (label) => `A ${label} made of one repeated character is not valid`,
  invalid_check_digits: (label) => `The ${label}'s check digits do not match`,
};

/** Letters and digits only, upper-cased: how documents are stored and matched. */
export const compactDocument = (input: string): string => input.replace(/[^0-9A-Za-z]/g, "").toUpperCase();

function invalidDocument(param: string, reason: DocumentErrorCode, message: string): DomainError {
  return new DomainError("invalid_document", message, { reason, errors: [{ param, in: "body", message }] });
}

/** The customer's document: kind inferred from its length (11 → CPF, otherwise CNPJ), then validated. */
export function parseDocument(input: string, param = "document"): ParsedDocument {
  const length = compactDocument(input).length;
  if (length !== 11 && length !== 14) {
    throw invalidDocument(param, "invalid_length", "A document is a CPF (11 digits) or a CNPJ (14 characters)");
  }
  const kind: CustomerKind = length === 11 ? "person" : "company";
  const result = kind === "person" ? validateCpf(input) : validateCnpj(input);
  if (!result.ok) throw invalidDocument(param, result.error, REASONS[result.error](LABEL[kind]));
  return { kind, document: result.value };
}

/** Why a CNPJ is not valid, in the words `parseCnpj` answers with, or null: for a form that shows every field's
 *  error at once (the panel's collection account), where the service would stop at the first. */
export function cnpjProblem(input: string): string | null {
  const result = validateCnpj(input);
  return result.ok ? null : REASONS[result.error]("CNPJ");
}

/** A CNPJ that must be a company's (e.g. a payroll employer): the normalized 14 characters. */
export function parseCnpj(input: string, param: string): string {
  const result = validateCnpj(input);
  if (!result.ok) throw invalidDocument(param, result.error, REASONS[result.error]("CNPJ"));
  return result.value;
}

export function formatDocument(kind: CustomerKind, document: string): string {
  return kind === "person" ? formatCpf(document) : formatCnpj(document);
}
