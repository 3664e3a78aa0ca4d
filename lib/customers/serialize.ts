import type { Customer } from "@prisma/client";
import { centavosOrNull, isoDateOrNull } from "@/lib/serialize";
import { formatDocument, type CustomerKind } from "./document";
import type { AddressView, CustomerView, PayrollView } from "./schemas";

// Database row → the API's customer object. Every field is listed explicitly (nothing leaks by accident);
// address and payroll are JSON columns written only by customer-fields.ts, in the API's own shape.

export function toCustomerView(row: Customer): CustomerView {
  const kind = row.kind as CustomerKind;
  return {
    id: row.id,
    object: "customer",
    kind,
    document: row.document,
    document_formatted: formatDocument(kind, row.document),
    name: row.name,
    birth_date: isoDateOrNull(row.birthDate),
    foundation_date: isoDateOrNull(row.foundationDate),
    email: row.email,
    phone: row.phone,
    address: toAddressView(row.address as AddressView | null),
    monthly_income: centavosOrNull(row.monthlyIncome),
    payroll: toPayrollView(row.payroll as PayrollView | null),
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toAddressView(a: AddressView | null): AddressView | null {
  if (!a) return null;
  return {
    street: a.street,
    number: a.number,
    complement: a.complement ?? null,
    district: a.district,
    city: a.city,
    state: a.state,
    zip_code: a.zip_code,
  };
}

function toPayrollView(p: PayrollView | null): PayrollView | null {
  if (!p) return null;
  if (p.type === "inss") return { type: "inss", benefit_number: p.benefit_number };
  return { type: "private", employer_cnpj: p.employer_cnpj, registration: p.registration };
}
