import type { z } from "zod";

// Field errors in Brazilian Portuguese for the panel's JSON endpoints (app/api/panel/**), whose forms show them
// beside the fields. The /v1 API stays English. Two sources of messages:
//  1. zod's own issues (too short, wrong type, not one of the values…): `ptBrErrorMap`, passed to the parse —
//     zod's bundled `pt` locale is European Portuguese ("ficheiro", "registo"), not what Brazilian staff read;
//  2. the messages the panel's schemas and services write themselves (English, shared with /v1): `toPtBr`
//     translates the ones a panel form can meet, exactly or by pattern, and leaves any other as sent.

type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: "um texto",
  number: "um número",
  int: "um número inteiro",
  boolean: "verdadeiro ou falso",
  array: "uma lista",
  object: "um objeto",
  date: "uma data",
  null: "nulo",
};

const quoted = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

function tooSmall(issue: Extract<Issue, { code: "too_small" }>): string {
  const min = Number(issue.minimum);
  switch (issue.origin) {
    case "string":
      return min <= 1 ? "Preencha este campo" : `Ao menos ${min} caracteres`;
    case "array":
    case "set":
      return min <= 1 ? "Escolha ao menos um item" : `Escolha ao menos ${min} itens`;
    default:
      return issue.inclusive === false ? `Deve ser maior que ${min}` : `Deve ser no mínimo ${min}`;
  }
}

function tooBig(issue: Extract<Issue, { code: "too_big" }>): string {
  const max = Number(issue.maximum);
  switch (issue.origin) {
    case "string":
      return `No máximo ${max} caracteres`;
    case "array":
    case "set":
      return `No máximo ${max} itens`;
    default:
      return issue.inclusive === false ? `Deve ser menor que ${max}` : `Deve ser no máximo ${max}`;
  }
}

/** zod's issues in Brazilian Portuguese (pass as `{ error: ptBrErrorMap }` to a parse). */
export const ptBrErrorMap: z.core.$ZodErrorMap = (issue) => {
  if ((issue.code === "invalid_type" || issue.code === "invalid_value") && issue.input === undefined) return "Campo obrigatório";
  switch (issue.code) {
    case "invalid_type":
      return `Valor inválido: esperado ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_format":
      if (issue.format === "email") return "Informe um e-mail válido";
      if (issue.format === "url") return "Informe uma URL válida";
      return "Formato inválido";
    case "invalid_value":
      return issue.values.length === 1 ? `Deve ser ${quoted(issue.values)}` : `Escolha um destes valores: ${quoted(issue.values)}`;
    case "not_multiple_of":
      return `Deve ser múltiplo de ${String(issue.divisor)}`;
    default:
      return "Valor inválido";
  }
};

// The messages the panel's schemas and services write (English, as /v1 sends them) and what a Brazilian reads.
const EXACT: Record<string, string> = {
  "Unknown field": "Campo desconhecido",
  "Give it a name": "Dê um nome",
  "Choose at least one permission": "Escolha ao menos uma permissão",
  "a valid e-mail address": "Informe um e-mail válido",
  "Wrong password": "Senha incorreta",
  "Wrong password for this account": "Senha incorreta para esta conta",
  "Choose a password other than the current one": "Escolha uma senha diferente da atual",
  "Your name is required": "Informe seu nome",
  "Give the reason (at least 3 characters)": "Informe o motivo (ao menos 3 caracteres)",
  "7 digits": "7 dígitos",
  "Must contain a letter (A to Z, accents allowed) or a digit: the Pix BR Code carries the name without other characters":
    "Precisa ter uma letra (de A a Z, com ou sem acento) ou um dígito: o BR Code do Pix leva o nome sem os outros caracteres",
  "Must contain a letter (A to Z, accents allowed) or a digit: the Pix BR Code carries the city without other characters":
    "Precisa ter uma letra (de A a Z, com ou sem acento) ou um dígito: o BR Code do Pix leva a cidade sem os outros caracteres",
  "A host and path without scheme, e.g. pix.example-psp.com.br/qr/v2": "Host e caminho, sem https:// (ex.: pix.example-psp.com.br/qr/v2)",
  "1234567 is the shared sandbox account's agreement": "1234567 é o convênio da conta compartilhada do sandbox",
  "This agreement belongs to another collection account": "Este convênio pertence a outra conta de cobrança",
  "A CNPJ has 14 characters": "Um CNPJ tem 14 caracteres",
  "A CNPJ has 12 letters (A–Z) or digits followed by 2 check digits (dots, dashes, slashes and spaces are ignored)":
    "Um CNPJ tem 12 letras (A–Z) ou dígitos seguidos de 2 dígitos verificadores (pontos, traços, barras e espaços são ignorados)",
  "A CNPJ made of one repeated character is not valid": "Um CNPJ de um único caractere repetido não é válido",
  "The CNPJ's check digits do not match": "Os dígitos verificadores do CNPJ não conferem",
  "Must not repeat an event type": "Não repita um tipo de evento",
  '"*" (every event) stands alone': '"*" (todos os eventos) vem sozinho',
  "Send at least one field": "Envie ao menos um campo",
  "Not an absolute URL": "Informe uma URL completa (https://…)",
  "Only https (and http for local development in the sandbox)": "Somente https (e http para desenvolvimento local no sandbox)",
  "The URL must not carry credentials": "A URL não pode conter usuário ou senha",
  "The URL must not have a fragment": "A URL não pode ter fragmento (#…)",
  "Webhook URLs must use https": "URLs de webhook usam https",
};

const PATTERNS: [RegExp, (...groups: string[]) => string][] = [
  [/^At least (\d+) characters$/, (n) => `Ao menos ${n} caracteres`],
  [/^The host (.+) does not resolve$/, (host) => `O host ${host} não foi encontrado no DNS`],
  [
    /^(.+) resolves to (.+), a (.+) address: only public addresses receive webhooks$/,
    (host, address, range) => `${host} aponta para ${address}, um endereço ${range}: só endereços públicos recebem webhooks`,
  ],
];

/** A panel field message in Brazilian Portuguese; one it does not know stays as it came. */
export function toPtBr(message: string): string {
  const exact = EXACT[message];
  if (exact !== undefined) return exact;
  for (const [pattern, render] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return render(...match.slice(1));
  }
  return message;
}
