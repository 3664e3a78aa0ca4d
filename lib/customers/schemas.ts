import { z } from "zod";
import { todayInBrazil } from "@/lib/clock";
import { listEnvelope, ListQuery } from "@/lib/pagination";

// Request and response schemas of /v1/customers. Their descriptions are the API reference (OpenAPI).

export const UFS = [
  "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
  "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
] as const;


const pastDate = (earliest: string) =>
  z.iso
    .date()
    .refine((d) => d >= earliest, { error: `Must be on or after ${earliest}` })
    .refine((d) => d <= todayInBrazil(), { error: "Must not be in the future" });

export const AddressInput = z
  .strictObject({
    street: z.string().trim().min(1).max(200).meta({ description: "Street (logradouro)." }),
    number: z.string().trim().min(1).max(20).meta({ description: "Number; `S/N` when there is none.", example: "1578" }),
    complement: z.string().trim().min(1).max(100).nullish().meta({ description: "Apartment, suite, block (optional)." }),
    district: z.string().trim().min(1).max(100).meta({ description: "District (bairro)." }),
    city: z.string().trim().min(1).max(100),
    state: z.enum(UFS, { error: "Must be one of the 27 Brazilian state codes (UF), upper case, e.g. SP" }).meta({
      description: "State code (UF), one of the 27, upper case.",
    }),
    zip_code: z
      .string()
      .trim()
      .regex(/^\d{5}-?\d{3}$/, "Must be a CEP: 8 digits, e.g. 01310100 or 01310-100")
      .transform((cep) => cep.replace("-", ""))
      .meta({ description: "CEP, 8 digits; `01310-100` is accepted and stored as `01310100`.", example: "01310100" }),
  })
  .meta({ id: "AddressInput", description: "Postal address in Brazil. On update it is replaced as a whole." });
export type AddressInput = z.infer<typeof AddressInput>;

export const PayrollInput = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("inss").meta({ description: "An INSS retirement or pension benefit." }),
      benefit_number: z
        .string()
        .regex(/^\d{10}$/, "Must be the 10-digit INSS benefit number (NB), digits only")
        .meta({ description: "INSS benefit number (NB), 10 digits.", example: "1234567890" }),
    }),
    z.strictObject({
      type: z.literal("private").meta({ description: "Employment at a private company (consignado privado)." }),
      employer_cnpj: z
        .string()
        .trim()
        .min(1)
        .max(32)
        .meta({ description: "The employer's CNPJ, formatted or not, numeric or alphanumeric; validated like `document`.", example: "11.222.333/0001-81" }),
      registration: z.string().trim().min(1).max(30).meta({ description: "Employee registration (matrícula) at the employer." }),
    }),
  ])
  .meta({
    id: "PayrollInput",
    description: "Payroll link for payroll-deductible credit: persons only. Either an INSS benefit or a private employer.",
  });
export type PayrollInput = z.infer<typeof PayrollInput>;

const mutableFields = {
  name: z.string().trim().min(1).max(200).meta({ description: "Full name (person) or legal name (company).", example: "Maria da Silva" }),
  birth_date: pastDate("1900-01-01")
    .nullish()
    .meta({ description: "Persons only: YYYY-MM-DD, from 1900-01-01, not in the future. On a company: 400.", example: "1985-04-12" }),
  foundation_date: pastDate("1800-01-01")
    .nullish()
    .meta({ description: "Companies only: YYYY-MM-DD, not in the future. On a person: 400.", example: "2010-09-01" }),
  email: z.email().max(254).nullish().meta({ example: "maria@example.com" }),
  phone: z
    .string()
    .regex(/^\+[1-9]\d{7,14}$/, "Must be in E.164 form: +, country code and number, digits only, e.g. +5511987654321")
    .nullish()
    .meta({ description: "E.164: `+`, country code and number, digits only.", example: "+5511987654321" }),
  address: AddressInput.nullish(),
  monthly_income: z
    .int()
    .min(0)
    .nullish()
    .meta({ description: "Monthly income (persons) or revenue (companies) in integer centavos of BRL, ≥ 0.", example: 850000 }),
  payroll: PayrollInput.nullish(),
};

export const CreateCustomerBody = z
  .strictObject({
    document: z.string().trim().min(1).max(32).meta({
      description:
        "CPF (11 digits → `kind: person`) or CNPJ (14 characters → `kind: company`, incl. the alphanumeric CNPJ of " +
        "2026), with or without punctuation. Check digits are validated strictly: an invalid document is a 400 " +
        "`invalid_document` whose `reason` is `invalid_length`, `invalid_characters`, `repeated_digits` or " +
        "`invalid_check_digits`. Unique per tenant and environment (409 `duplicate_document`). Immutable.",
      example: "529.982.247-25",
    }),
    ...mutableFields,
  })
  .meta({ id: "CreateCustomerBody", description: "Only `document` and `name` are required; an absent or null field is stored as null." });
export type CreateCustomerBody = z.infer<typeof CreateCustomerBody>;

export const UpdateCustomerBody = CreateCustomerBody.omit({ document: true })
  .partial()
  .meta({
    id: "UpdateCustomerBody",
    description:
      "Partial update: only the fields sent change; `null` clears an optional field; `address` and `payroll` are " +
      "replaced as a whole. `document` and `kind` are immutable (sending them is a 400 unknown field).",
  });
export type UpdateCustomerBody = z.infer<typeof UpdateCustomerBody>;

const AddressView = z.object({
  street: z.string(),
  number: z.string(),
  complement: z.string().nullable(),
  district: z.string(),
  city: z.string(),
  state: z.enum(UFS),
  zip_code: z.string().meta({ description: "CEP, 8 digits." }),
});
export type AddressView = z.infer<typeof AddressView>;

const PayrollView = z.discriminatedUnion("type", [
  z.object({ type: z.literal("inss"), benefit_number: z.string() }),
  z.object({ type: z.literal("private"), employer_cnpj: z.string().meta({ description: "Normalized CNPJ." }), registration: z.string() }),
]);
export type PayrollView = z.infer<typeof PayrollView>;

export const CustomerResponse = z
  .object({
    id: z.string().meta({ example: "cus_01JD0000000000000000000000" }),
    object: z.literal("customer"),
    kind: z.enum(["person", "company"]).meta({ description: "Inferred from the document: CPF → person, CNPJ → company." }),
    document: z.string().meta({ description: "Normalized: 11 digits (CPF) or 14 upper-case characters (CNPJ).", example: "52998224725" }),
    document_formatted: z.string().meta({ example: "529.982.247-25" }),
    name: z.string(),
    birth_date: z.string().nullable().meta({ description: "YYYY-MM-DD (persons)." }),
    foundation_date: z.string().nullable().meta({ description: "YYYY-MM-DD (companies)." }),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: AddressView.nullable(),
    monthly_income: z.number().int().nullable().meta({ description: "Integer centavos of BRL." }),
    payroll: PayrollView.nullable(),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string().meta({ description: "ISO 8601 UTC." }),
    updated_at: z.string().meta({ description: "ISO 8601 UTC." }),
  })
  .meta({ id: "Customer", description: "A person (CPF) or company (CNPJ) of this tenant and environment. Absent fields are null." });
export type CustomerView = z.infer<typeof CustomerResponse>;

export const ListCustomersQuery = ListQuery.extend({
  document: z.string().trim().min(1).max(32).optional().meta({
    description: "Only the customer with this CPF or CNPJ, formatted or not (`529.982.247-25` = `52998224725`); an empty list when none.",
  }),
});
export type ListCustomersQuery = z.infer<typeof ListCustomersQuery>;

export const CustomerList = listEnvelope(CustomerResponse).meta({ id: "CustomerList" });
export type CustomerList = z.infer<typeof CustomerList>;

/** DELETE /v1/customers/{id}'s answer and the `customer.deleted` event's data (./erase-customer.ts). */
export const DeletedCustomer = z
  .object({ id: z.string(), object: z.literal("customer"), deleted: z.literal(true) })
  .meta({ id: "DeletedCustomer", description: "The customer was erased." });
export type DeletedCustomer = z.infer<typeof DeletedCustomer>;
