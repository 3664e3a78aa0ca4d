import type { Environment } from "@prisma/client";
import * as clientById from "@/app/v1/clients/[id]/route";
import * as clients from "@/app/v1/clients/route";
import * as customerById from "@/app/v1/customers/[id]/route";
import * as customers from "@/app/v1/customers/route";
import type { Permission } from "@/lib/auth/permissions";
import { cpfCheckDigits } from "@/lib/br";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION, SANDBOX } from "../helpers/http";
import { problem } from "../helpers/problem";

// Shared by the customer tests: a caller (tenant + key + base address), request helpers and sample bodies.

export type Caller = { tenantId: string; keyId: string; key: string; base: string; headers: Record<string, string> };

export async function caller(environment: Environment = "sandbox", permissions?: Permission[], tenantId?: string): Promise<Caller> {
  const id = tenantId ?? (await newTenant()).tenant.id;
  const { apiKey, key } = await newKey(id, environment, permissions);
  return { tenantId: id, keyId: apiKey.id, key, base: environment === "sandbox" ? SANDBOX : PRODUCTION, headers: bearer(key, id) };
}

export const post = (who: Caller, json: unknown, headers: Record<string, string> = {}) =>
  call(customers.POST, { base: who.base, path: "/v1/customers", json, headers: { ...who.headers, ...headers } });

export const list = (who: Caller, query = "", handler = customers.GET, path = "/v1/customers") =>
  call(handler, { base: who.base, path: `${path}${query}`, headers: who.headers });

export const listClients = (who: Caller, query = "") => list(who, query, clients.GET, "/v1/clients");

export const get = (who: Caller, id: string) =>
  call(customerById.GET, { base: who.base, path: `/v1/customers/${id}`, params: { id }, headers: who.headers });

export const getClient = (who: Caller, id: string) =>
  call(clientById.GET, { base: who.base, path: `/v1/clients/${id}`, params: { id }, headers: who.headers });

export const patch = (who: Caller, id: string, json: unknown) =>
  call(customerById.PATCH, { base: who.base, path: `/v1/customers/${id}`, params: { id }, json, headers: who.headers });

/** A valid CPF per n (distinct for n < 1,000,000). */
export function cpf(n: number): string {
  const base = String(123_000_000 + n);
  return `${base}${cpfCheckDigits(base)}`;
}

export const PERSON = {
  document: "529.982.247-25",
  name: "Maria da Silva",
  birth_date: "1985-04-12",
  email: "maria@example.com",
  phone: "+5511987654321",
  address: { street: "Avenida Paulista", number: "1578", complement: "Apto 12", district: "Bela Vista", city: "São Paulo", state: "SP", zip_code: "01310-100" },
  monthly_income: 850000,
  payroll: { type: "inss", benefit_number: "1234567890" },
};

export const COMPANY = { document: "11.222.333/0001-81", name: "Padaria Boa Vista Ltda", foundation_date: "2010-09-01" };

export { problem };

export const invalidFields = (errors: { param: string; message: string }[]) =>
  problem("validation_error", 400, "The request is invalid", "One or more fields are invalid", {
    errors: errors.map((e) => ({ param: e.param, in: "body", message: e.message })),
  });

export const invalidDocument = (reason: string, message: string, param = "document") =>
  problem("invalid_document", 400, "The CPF or CNPJ is invalid", message, { reason, errors: [{ param, in: "body", message }] });
