import { z } from "zod";
import { idSchema } from "@/lib/id-schema";
import { CreateCustomerBody, CustomerList, CustomerResponse, DeletedCustomer, ListCustomersQuery, UpdateCustomerBody } from "@/lib/customers/schemas";
import { defineOperation } from "../operation";

// /v1/customers (persons and companies) and its deprecated alias /v1/clients (spec: since 1.1.0).

export const CustomerParams = z.strictObject({
  id: idSchema("customer", "customer").meta({ description: "The customer's id.", example: "cus_01JD0000000000000000000000" }),
});

const TAGS = ["Customers"];
const ISOLATION = "A customer of another tenant or of the other environment answers 404, like one that does not exist.";

const listDescription =
  "Newest first, with the standard pagination (`limit`, `cursor` → `has_more`, `next_cursor`). " +
  "Filter by `document` to find a customer by CPF or CNPJ.";

export const createCustomerOperation = defineOperation({
  operationId: "createCustomer",
  method: "POST",
  path: "/v1/customers",
  summary: "Register a customer (person or company)",
  description:
    "The kind is inferred from `document`: a CPF makes a person, a CNPJ (numeric or the alphanumeric form of 2026) " +
    "a company. Check digits are validated strictly (since 1.3.0): an invalid document is a 400 `invalid_document` " +
    "with `reason` (`invalid_length`, `invalid_characters`, `repeated_digits`, `invalid_check_digits`) and the " +
    "field in `errors`; so is an invalid `payroll.employer_cnpj`. `birth_date` and `payroll` are for persons, " +
    "`foundation_date` for companies (400 `validation_error` otherwise). One customer per document per tenant and " +
    "environment: a second one is a 409 `duplicate_document`. Emits the `customer.created` event.",
  tags: TAGS,
  auth: "bearer",
  permission: "customers:write",
  body: CreateCustomerBody,
  responses: { 201: { description: "The customer was created.", schema: CustomerResponse } },
  errors: [409],
});

export const listCustomersOperation = defineOperation({
  operationId: "listCustomers",
  method: "GET",
  path: "/v1/customers",
  summary: "List customers",
  description: listDescription,
  tags: TAGS,
  auth: "bearer",
  permission: "customers:read",
  query: ListCustomersQuery,
  responses: { 200: { description: "A page of customers.", schema: CustomerList } },
});

export const getCustomerOperation = defineOperation({
  operationId: "getCustomer",
  method: "GET",
  path: "/v1/customers/{id}",
  summary: "Get a customer",
  description: ISOLATION,
  tags: TAGS,
  auth: "bearer",
  permission: "customers:read",
  params: CustomerParams,
  responses: { 200: { description: "The customer.", schema: CustomerResponse } },
  errors: [404],
});

export const updateCustomerOperation = defineOperation({
  operationId: "updateCustomer",
  method: "PATCH",
  path: "/v1/customers/{id}",
  summary: "Update a customer",
  description:
    "Changes only the fields sent; `null` clears an optional field; `address` and `payroll` are replaced whole. " +
    "`document` and `kind` cannot change (400 unknown field). When something changes, emits `customer.updated` " +
    `with \`changed_fields\` and their earlier values in \`previous_attributes\`. ${ISOLATION}`,
  tags: TAGS,
  auth: "bearer",
  permission: "customers:write",
  alsoRequires: "customers:read",
  params: CustomerParams,
  body: UpdateCustomerBody,
  responses: { 200: { description: "The customer after the update.", schema: CustomerResponse } },
  errors: [404],
});

export const deleteCustomerOperation = defineOperation({
  operationId: "deleteCustomer",
  method: "DELETE",
  path: "/v1/customers/{id}",
  summary: "Erase a customer's data (LGPD) when no credit operation holds it",
  description:
    "The data subject's deletion right (LGPD art. 18 VI), for a customer no credit operation holds. Needs `customers:erase`, granted " +
    "only by name (never by `write` or `customers:write`: it cannot be undone). A customer with a proposal, a contract or a margin " +
    "reservation (of any status), or a reservation call to the payroll authority still being recovered, is 409 `conflict` naming it " +
    "(`proposal_id`, `contract_id`, `margin_reservation_id` or `reservation_recovery_id`): the records of a credit operation are kept at least five years after the relationship ends (Lei 9.613/1998 art. 10, LGPD art. 16 I) " +
    "and never erased here. Otherwise, in one transaction: the customer, its simulations, risk assessments and margin queries are " +
    "deleted; their events (`customer.created`, `customer.updated`, `simulation.created`, `risk_assessment.created`, " +
    "`margin_query.completed`) keep id, type and time but their `data` becomes `{ id, object, erased: true }` (so does a delivery " +
    "not yet sent), and the webhook attempts that carried them lose the bodies sent and received; audit rows about them keep who " +
    "did what and when, not the values; stored answers of idempotent requests holding them answer their replays 404 (the key stays " +
    "used: a retried creation cannot register the person anew); settled reservation-recovery calls lose the CPF and benefit number. Emits `customer.deleted` " +
    "(`{ id, object, deleted: true }`), audited with counts only. The document is free again: registering the person later makes a " +
    `new customer. Afterwards the id answers 404. ${ISOLATION}`,
  tags: TAGS,
  auth: "bearer",
  permission: "customers:erase",
  params: CustomerParams,
  responses: { 200: { description: "Erased.", schema: DeletedCustomer, example: { id: "cus_01JD0000000000000000000000", object: "customer", deleted: true } } },
  errors: [404, 409],
});

const DEPRECATED = { successor: "/v1/customers", since: "2023-08-01" }; // release 1.1.0
const deprecatedNote =
  "Deprecated since 1.1.0: use the same call under /v1/customers. Answers exactly like it, plus the headers " +
  '`Deprecation: @1690848000` (RFC 9745: deprecated since 2023-08-01, release 1.1.0), `Link: </v1/customers…>; rel="successor-version"` and `Warning`.';

export const listClientsOperation = defineOperation({
  ...listCustomersOperation,
  operationId: "listClients",
  path: "/v1/clients",
  summary: "List customers (deprecated alias of GET /v1/customers)",
  description: `${deprecatedNote} ${listDescription}`,
  deprecated: DEPRECATED,
});

export const getClientOperation = defineOperation({
  ...getCustomerOperation,
  operationId: "getClient",
  path: "/v1/clients/{id}",
  summary: "Get a customer (deprecated alias of GET /v1/customers/{id})",
  description: `${deprecatedNote} ${ISOLATION}`,
  deprecated: DEPRECATED,
});

export const customerOperations = [
  createCustomerOperation,
  listCustomersOperation,
  getCustomerOperation,
  updateCustomerOperation,
  deleteCustomerOperation,
  listClientsOperation,
  getClientOperation,
];
