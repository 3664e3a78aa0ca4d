import { randomInt } from "node:crypto";
import type { Environment } from "@prisma/client";
import * as byId from "@/app/v1/simulations/[id]/route";
import * as collection from "@/app/v1/simulations/route";
import type { Permission } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION, SANDBOX } from "../helpers/http";
import { problem } from "../helpers/problem";

// A caller is a tenant + key + the base address of the key's environment.
export type Caller = { tenantId: string; base: string; headers: Record<string, string> };

export async function caller(environment: Environment = "sandbox", permissions?: Permission[], tenantId?: string): Promise<Caller> {
  const id = tenantId ?? (await newTenant()).tenant.id;
  const { key } = await newKey(id, environment, permissions);
  return { tenantId: id, base: environment === "sandbox" ? SANDBOX : PRODUCTION, headers: bearer(key, id) };
}

export const simulate = (who: Caller, json: unknown, headers: Record<string, string> = {}) =>
  call(collection.POST, { base: who.base, path: "/v1/simulations", json, headers: { ...who.headers, ...headers } });

export const list = (who: Caller, query = "") => call(collection.GET, { base: who.base, path: `/v1/simulations${query}`, headers: who.headers });

export const get = (who: Caller, id: string) =>
  call(byId.GET, { base: who.base, path: `/v1/simulations/${id}`, params: { id }, headers: who.headers });

/** A customer row written directly (the customers module is tested on its own). */
export async function customer(who: Caller, environment: Environment, payroll: Record<string, string> | null, kind = "person") {
  const row = await db().customer.create({
    data: {
      id: newId("customer"),
      tenantId: who.tenantId,
      environment,
      kind,
      document: String(randomInt(10 ** 10, 10 ** 11)),
      name: "Maria da Silva",
      ...(payroll ? { payroll } : {}),
    },
  });
  return row.id;
}

/** A sandbox person with an INSS payroll link: payroll products need one. */
export const inssCustomer = (who: Caller) => customer(who, "sandbox", { type: "inss", benefit_number: "1234567890" });

// Fixed dates: 2026-03-02 is a Monday; 2026-04-02 a Thursday (Good Friday is 04-03).
export const PERSONAL = {
  product: "personal_loan",
  requested_amount: 1000_00,
  term: 12,
  monthly_rate: "0.01",
  disbursement_date: "2026-03-02",
  iof_financed: false,
};

export const INSS_96 = {
  product: "inss_payroll",
  requested_amount: 10_000_00,
  term: 96,
  monthly_rate: "0.0185",
  disbursement_date: "2026-03-02",
};

export { problem };

export const invalid = (...errors: { param: string; message: string }[]) =>
  problem("validation_error", 400, "The request is invalid", "One or more fields are invalid", { errors: errors.map((e) => ({ ...e, in: "body" })) });

export const ruleViolation = (product: string, ...errors: { param: string; message: string }[]) =>
  problem("product_rule_violation", 400, "The terms break the product's rules", `The simulation breaks the rules of product ${product}`, {
    errors: errors.map((e) => ({ ...e, in: "body" })),
  });

export const payrollLinkRequired = (link: "inss" | "private", message: string) => {
  const product = link === "inss" ? "inss_payroll" : "private_payroll";
  return problem("payroll_link_required", 400, "The product needs a customer with a matching payroll link", `${product} requires a customer with a payroll link of type ${link}`, {
    errors: [{ param: "customer_id", in: "body", message }],
  });
};
