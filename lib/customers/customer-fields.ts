import { Prisma } from "@prisma/client";
import { DomainError } from "@/lib/errors";
import { dateColumn } from "@/lib/serialize";
import { parseCnpj, type CustomerKind } from "./document";
import type { AddressView, PayrollView, UpdateCustomerBody } from "./schemas";

// The mutable fields of a customer, shared by create and update: checks the rules that depend on the
// kind (a date of birth is a person's, a foundation date a company's) and converts API values to columns.
// Only the keys present in the input appear in the result, so an update changes only what was sent.

export type CustomerFields = {
  name?: string;
  birthDate?: Date | null;
  foundationDate?: Date | null;
  email?: string | null;
  phone?: string | null;
  address?: AddressView | null;
  monthlyIncome?: bigint | null;
  payroll?: PayrollView | null;
};

type FieldError = { param: string; in: "body"; message: string };

function kindErrors(kind: CustomerKind, input: UpdateCustomerBody): FieldError[] {
  const errors: FieldError[] = [];
  const refuse = (param: string, message: string) => errors.push({ param, in: "body", message });
  if (kind === "company" && input.birth_date != null) {
    refuse("birth_date", "Only persons (CPF) have a birth date; send foundation_date for a company");
  }
  if (kind === "person" && input.foundation_date != null) {
    refuse("foundation_date", "Only companies (CNPJ) have a foundation date; send birth_date for a person");
  }
  if (kind === "company" && input.payroll != null) {
    refuse("payroll", "Only persons (CPF) have a payroll link");
  }
  return errors;
}

export function customerFields(kind: CustomerKind, input: UpdateCustomerBody): CustomerFields {
  const errors = kindErrors(kind, input);
  if (errors.length > 0) throw new DomainError("validation_error", "One or more fields are invalid", { errors });
  const fields: CustomerFields = {};
  if (input.name !== undefined) fields.name = input.name;
  if (input.birth_date !== undefined) fields.birthDate = input.birth_date === null ? null : dateColumn(input.birth_date);
  if (input.foundation_date !== undefined) {
    fields.foundationDate = input.foundation_date === null ? null : dateColumn(input.foundation_date);
  }
  if (input.email !== undefined) fields.email = input.email;
  if (input.phone !== undefined) fields.phone = input.phone;
  if (input.address !== undefined) fields.address = input.address === null ? null : { ...input.address, complement: input.address.complement ?? null };
  if (input.monthly_income !== undefined) fields.monthlyIncome = input.monthly_income === null ? null : BigInt(input.monthly_income);
  if (input.payroll !== undefined) fields.payroll = payrollColumn(input.payroll);
  return fields;
}

function payrollColumn(payroll: UpdateCustomerBody["payroll"]): PayrollView | null {
  if (!payroll) return null;
  if (payroll.type === "inss") return { type: "inss", benefit_number: payroll.benefit_number };
  return {
    type: "private",
    employer_cnpj: parseCnpj(payroll.employer_cnpj, "payroll.employer_cnpj"),
    registration: payroll.registration,
  };
}

/** The Prisma data of the fields: a cleared JSON column is SQL NULL. */
export function columnData(fields: CustomerFields) {
  const { address, payroll, ...rest } = fields;
  return {
    ...rest,
    ...(address !== undefined ? { address: address ?? Prisma.DbNull } : {}),
    ...(payroll !== undefined ? { payroll: payroll ?? Prisma.DbNull } : {}),
  };
}
