import { grants, type Resource } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors";
import { EVENT_CATALOG, EVENT_TYPES, type EventDefinition } from "./event-catalog";

// Which events a credential may see. An event carries its resource's object (a customer.created event holds the
// customer, CPF and income included), so an event is read — listed, fetched, seen in a delivery's body, or
// subscribed to — only with that resource's read permission, besides `webhooks:*`: a `webhooks:read` key is not a
// way around `customers:read`. The panel's owners and admins see every event.

const RESOURCE_OF: Record<string, Resource> = {
  customer: "customers",
  simulation: "simulations",
  proposal: "proposals",
  risk_assessment: "risk",
  margin_query: "payroll",
  margin_reservation: "payroll",
  endorsement: "payroll",
  repasse: "payroll",
  contract: "contracts",
  installment: "installments",
  charge: "collections",
  payment: "collections",
  refund: "collections",
  settlement: "settlements",
  assignment: "assignments",
  webhook_endpoint: "webhooks",
};

// Events whose object carries a customer's personal data besides its own (a risk assessment's inputs: birth date and
// income; a margin query's benefit number and margin base): read only with customers:read too, as their endpoints are.
const ALSO_READS: Record<string, Resource> = { risk_assessment: "customers", margin_query: "customers" };

// Events whose data is another resource's object than their prefix names (contract.credit_applied carries a payment):
// the catalogue says whose, and that wins over the prefix.
const RESOURCE_OF_TYPE = new Map((EVENT_CATALOG as readonly EventDefinition[]).flatMap((e) => (e.resource ? [[e.type, e.resource] as const] : [])));

/** The resource whose read permission an event type needs (its object's). */
export function eventResource(type: string): Resource {
  const resource = RESOURCE_OF_TYPE.get(type) ?? RESOURCE_OF[type.slice(0, type.indexOf("."))];
  if (!resource) throw new Error(`No resource for event type ${type}`);
  return resource;
}

/** Every resource whose read permission an event type needs: its object's, and customers' when it carries theirs. */
export function eventResources(type: string): Resource[] {
  const also = RESOURCE_OF_TYPE.has(type) ? undefined : ALSO_READS[type.slice(0, type.indexOf("."))];
  return also ? [eventResource(type), also] : [eventResource(type)];
}

/** Every event type the permissions may read. */
export function readableEventTypes(permissions: readonly string[]): string[] {
  return EVENT_TYPES.filter((type) => eventResources(type).every((r) => grants(permissions, `${r}:read`)));
}

/** 403 unless the permissions may read events of `type`. */
export function checkEventReadable(permissions: readonly string[], type: string): void {
  for (const resource of eventResources(type)) {
    if (!grants(permissions, `${resource}:read`)) throw new DomainError("forbidden", `Events of type ${type} carry ${resource} data: this needs the ${resource}:read permission`);
  }
}

/** 403 unless the permissions may read every event subscribed to (`*`: every type, also those added later). */
export function checkSubscribable(permissions: readonly string[], eventTypes: readonly string[] | undefined): void {
  if (eventTypes === undefined) return;
  if (eventTypes.includes("*")) {
    const missing = [...new Set(EVENT_TYPES.flatMap(eventResources))].filter((r) => !grants(permissions, `${r}:read`));
    if (missing.length > 0) throw new DomainError("forbidden", `Every event ("*") needs every resource's read permission (or read); missing: ${missing.map((r) => `${r}:read`).join(", ")}`);
    return;
  }
  for (const type of eventTypes) checkEventReadable(permissions, type);
}
