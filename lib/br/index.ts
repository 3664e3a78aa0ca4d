// Brazilian document helpers: pure validation and formatting of CPF and CNPJ (incl. alphanumeric).
export { type DocumentErrorCode, type DocumentResult } from "./document-result";
export { validateCpf, isValidCpf, formatCpf, maskCpf, cpfCheckDigits } from "./cpf";
export { validateCnpj, isValidCnpj, formatCnpj, cnpjCheckDigits, cnpjRoot } from "./cnpj";
