// Customers (issue: `/v1/customers`): persons (CPF) and companies (CNPJ), one per document per tenant and
// environment. Services take the caller's scope, never speak HTTP, and throw DomainError.
export { createCustomer, type CustomerContext } from "./create-customer";
export { getCustomer } from "./get-customer";
export { listCustomers } from "./list-customers";
export { updateCustomer } from "./update-customer";
export { eraseCustomer } from "./erase-customer";
export { toCustomerView } from "./serialize";
export { CreateCustomerBody, CustomerList, CustomerResponse, DeletedCustomer, ListCustomersQuery, UpdateCustomerBody, type CustomerView } from "./schemas";
