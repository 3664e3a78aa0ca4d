// Generated from sdk/openapi.json by sdk/java/generate.mjs — do not edit.
package com.creditplatform.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** One method per operation of the OpenAPI document, named by its operationId (the client implements {@code call}). */
public abstract class GeneratedOperations {
  protected abstract JsonNode call(String operationId, Map<String, String> pathParams, Request request);

  /** GET /v1/health — Check the API, your credential and your environment */
  public JsonNode getHealth(Request request) {
    return call("getHealth", Map.of(), request);
  }

  /** GET /v1/health with no query or body. */
  public JsonNode getHealth() {
    return call("getHealth", Map.of(), Request.create());
  }

  /** POST /v1/auth/token — Get an OAuth2 access token (client credentials) or rotate a refresh token */
  public JsonNode createToken(Request request) {
    return call("createToken", Map.of(), request);
  }

  /** POST /v1/auth/token with no query or body. */
  public JsonNode createToken() {
    return call("createToken", Map.of(), Request.create());
  }

  /** GET /v1/openapi.json — This OpenAPI 3.1 document */
  public JsonNode getOpenApiDocument(Request request) {
    return call("getOpenApiDocument", Map.of(), request);
  }

  /** GET /v1/openapi.json with no query or body. */
  public JsonNode getOpenApiDocument() {
    return call("getOpenApiDocument", Map.of(), Request.create());
  }

  /** GET /v1/customers — List customers */
  public JsonNode listCustomers(Request request) {
    return call("listCustomers", Map.of(), request);
  }

  /** GET /v1/customers with no query or body. */
  public JsonNode listCustomers() {
    return call("listCustomers", Map.of(), Request.create());
  }

  /** POST /v1/customers — Register a customer (person or company) */
  public JsonNode createCustomer(Request request) {
    return call("createCustomer", Map.of(), request);
  }

  /** POST /v1/customers with no query or body. */
  public JsonNode createCustomer() {
    return call("createCustomer", Map.of(), Request.create());
  }

  /** GET /v1/customers/{id} — Get a customer */
  public JsonNode getCustomer(String id, Request request) {
    return call("getCustomer", Map.of("id", id), request);
  }

  /** GET /v1/customers/{id} with no query or body. */
  public JsonNode getCustomer(String id) {
    return call("getCustomer", Map.of("id", id), Request.create());
  }

  /** PATCH /v1/customers/{id} — Update a customer */
  public JsonNode updateCustomer(String id, Request request) {
    return call("updateCustomer", Map.of("id", id), request);
  }

  /** PATCH /v1/customers/{id} with no query or body. */
  public JsonNode updateCustomer(String id) {
    return call("updateCustomer", Map.of("id", id), Request.create());
  }

  /** DELETE /v1/customers/{id} — Erase a customer's data (LGPD) when no credit operation holds it */
  public JsonNode deleteCustomer(String id, Request request) {
    return call("deleteCustomer", Map.of("id", id), request);
  }

  /** DELETE /v1/customers/{id} with no query or body. */
  public JsonNode deleteCustomer(String id) {
    return call("deleteCustomer", Map.of("id", id), Request.create());
  }

  /** GET /v1/clients — List customers (deprecated alias of GET /v1/customers) */
  public JsonNode listClients(Request request) {
    return call("listClients", Map.of(), request);
  }

  /** GET /v1/clients with no query or body. */
  public JsonNode listClients() {
    return call("listClients", Map.of(), Request.create());
  }

  /** GET /v1/clients/{id} — Get a customer (deprecated alias of GET /v1/customers/{id}) */
  public JsonNode getClient(String id, Request request) {
    return call("getClient", Map.of("id", id), request);
  }

  /** GET /v1/clients/{id} with no query or body. */
  public JsonNode getClient(String id) {
    return call("getClient", Map.of("id", id), Request.create());
  }

  /** GET /v1/simulations — List simulations, newest first */
  public JsonNode listSimulations(Request request) {
    return call("listSimulations", Map.of(), request);
  }

  /** GET /v1/simulations with no query or body. */
  public JsonNode listSimulations() {
    return call("listSimulations", Map.of(), Request.create());
  }

  /** POST /v1/simulations — Simulate a loan: schedule, IOF and CET */
  public JsonNode createSimulation(Request request) {
    return call("createSimulation", Map.of(), request);
  }

  /** POST /v1/simulations with no query or body. */
  public JsonNode createSimulation() {
    return call("createSimulation", Map.of(), Request.create());
  }

  /** GET /v1/simulations/{id} — Get a simulation */
  public JsonNode getSimulation(String id, Request request) {
    return call("getSimulation", Map.of("id", id), request);
  }

  /** GET /v1/simulations/{id} with no query or body. */
  public JsonNode getSimulation(String id) {
    return call("getSimulation", Map.of("id", id), Request.create());
  }

  /** GET /v1/proposals — List proposals (newest first) */
  public JsonNode listProposals(Request request) {
    return call("listProposals", Map.of(), request);
  }

  /** GET /v1/proposals with no query or body. */
  public JsonNode listProposals() {
    return call("listProposals", Map.of(), Request.create());
  }

  /** POST /v1/proposals — Create a proposal (draft) from a customer and a simulation or inline terms */
  public JsonNode createProposal(Request request) {
    return call("createProposal", Map.of(), request);
  }

  /** POST /v1/proposals with no query or body. */
  public JsonNode createProposal() {
    return call("createProposal", Map.of(), Request.create());
  }

  /** GET /v1/proposals/{id} — Get a proposal */
  public JsonNode getProposal(String id, Request request) {
    return call("getProposal", Map.of("id", id), request);
  }

  /** GET /v1/proposals/{id} with no query or body. */
  public JsonNode getProposal(String id) {
    return call("getProposal", Map.of("id", id), Request.create());
  }

  /** POST /v1/proposals/{id}/submit — Submit a draft for review (draft → pending_review); a payroll draft may bring a newer margin query */
  public JsonNode submitProposal(String id, Request request) {
    return call("submitProposal", Map.of("id", id), request);
  }

  /** POST /v1/proposals/{id}/submit with no query or body. */
  public JsonNode submitProposal(String id) {
    return call("submitProposal", Map.of("id", id), Request.create());
  }

  /** POST /v1/proposals/{id}/approve — Approve (pending_review → approved); staff: proposals:review */
  public JsonNode approveProposal(String id, Request request) {
    return call("approveProposal", Map.of("id", id), request);
  }

  /** POST /v1/proposals/{id}/approve with no query or body. */
  public JsonNode approveProposal(String id) {
    return call("approveProposal", Map.of("id", id), Request.create());
  }

  /** POST /v1/proposals/{id}/reject — Reject with a reason (pending_review → rejected); staff: proposals:review */
  public JsonNode rejectProposal(String id, Request request) {
    return call("rejectProposal", Map.of("id", id), request);
  }

  /** POST /v1/proposals/{id}/reject with no query or body. */
  public JsonNode rejectProposal(String id) {
    return call("rejectProposal", Map.of("id", id), Request.create());
  }

  /** POST /v1/proposals/{id}/sign — Record the borrower's signature (approved → signed) */
  public JsonNode signProposal(String id, Request request) {
    return call("signProposal", Map.of("id", id), request);
  }

  /** POST /v1/proposals/{id}/sign with no query or body. */
  public JsonNode signProposal(String id) {
    return call("signProposal", Map.of("id", id), Request.create());
  }

  /** POST /v1/proposals/{id}/cancel — Cancel (from draft, pending_review, approved or signed; a signed payroll proposal's averbação is ended) */
  public JsonNode cancelProposal(String id, Request request) {
    return call("cancelProposal", Map.of("id", id), request);
  }

  /** POST /v1/proposals/{id}/cancel with no query or body. */
  public JsonNode cancelProposal(String id) {
    return call("cancelProposal", Map.of("id", id), Request.create());
  }

  /** GET /v1/contracts — List contracts (newest first) */
  public JsonNode listContracts(Request request) {
    return call("listContracts", Map.of(), request);
  }

  /** GET /v1/contracts with no query or body. */
  public JsonNode listContracts() {
    return call("listContracts", Map.of(), Request.create());
  }

  /** POST /v1/contracts — Issue a contract from a signed proposal */
  public JsonNode issueContract(Request request) {
    return call("issueContract", Map.of(), request);
  }

  /** POST /v1/contracts with no query or body. */
  public JsonNode issueContract() {
    return call("issueContract", Map.of(), Request.create());
  }

  /** GET /v1/contracts/{id} — Get a contract */
  public JsonNode getContract(String id, Request request) {
    return call("getContract", Map.of("id", id), request);
  }

  /** GET /v1/contracts/{id} with no query or body. */
  public JsonNode getContract(String id) {
    return call("getContract", Map.of("id", id), Request.create());
  }

  /** POST /v1/contracts/{id}/cancel — Cancel a contract (borrower's withdrawal within 7 days, before any payment) */
  public JsonNode cancelContract(String id, Request request) {
    return call("cancelContract", Map.of("id", id), request);
  }

  /** POST /v1/contracts/{id}/cancel with no query or body. */
  public JsonNode cancelContract(String id) {
    return call("cancelContract", Map.of("id", id), Request.create());
  }

  /** POST /v1/contracts/{id}/write-off — Write off a contract in default (active → written_off) */
  public JsonNode writeOffContract(String id, Request request) {
    return call("writeOffContract", Map.of("id", id), request);
  }

  /** POST /v1/contracts/{id}/write-off with no query or body. */
  public JsonNode writeOffContract(String id) {
    return call("writeOffContract", Map.of("id", id), Request.create());
  }

  /** GET /v1/contracts/{id}/installments — A contract's installments, by due date */
  public JsonNode listContractInstallments(String id, Request request) {
    return call("listContractInstallments", Map.of("id", id), request);
  }

  /** GET /v1/contracts/{id}/installments with no query or body. */
  public JsonNode listContractInstallments(String id) {
    return call("listContractInstallments", Map.of("id", id), Request.create());
  }

  /** GET /v1/installments — List installments by contract, status and due-date range (earliest due first) */
  public JsonNode listInstallments(Request request) {
    return call("listInstallments", Map.of(), request);
  }

  /** GET /v1/installments with no query or body. */
  public JsonNode listInstallments() {
    return call("listInstallments", Map.of(), Request.create());
  }

  /** GET /v1/installments/{id} — Get an installment and the amount due on a date (late charges included) */
  public JsonNode getInstallment(String id, Request request) {
    return call("getInstallment", Map.of("id", id), request);
  }

  /** GET /v1/installments/{id} with no query or body. */
  public JsonNode getInstallment(String id) {
    return call("getInstallment", Map.of("id", id), Request.create());
  }

  /** GET /v1/risk-assessments — List risk assessments, newest first */
  public JsonNode listRiskAssessments(Request request) {
    return call("listRiskAssessments", Map.of(), request);
  }

  /** GET /v1/risk-assessments with no query or body. */
  public JsonNode listRiskAssessments() {
    return call("listRiskAssessments", Map.of(), Request.create());
  }

  /** POST /v1/risk-assessments — Score a customer for a proposal, a simulation or inline terms */
  public JsonNode createRiskAssessment(Request request) {
    return call("createRiskAssessment", Map.of(), request);
  }

  /** POST /v1/risk-assessments with no query or body. */
  public JsonNode createRiskAssessment() {
    return call("createRiskAssessment", Map.of(), Request.create());
  }

  /** GET /v1/risk-assessments/{id} — Get a risk assessment */
  public JsonNode getRiskAssessment(String id, Request request) {
    return call("getRiskAssessment", Map.of("id", id), request);
  }

  /** GET /v1/risk-assessments/{id} with no query or body. */
  public JsonNode getRiskAssessment(String id) {
    return call("getRiskAssessment", Map.of("id", id), Request.create());
  }

  /** GET /v1/payroll/margin-queries — List margin queries, newest first */
  public JsonNode listMarginQueries(Request request) {
    return call("listMarginQueries", Map.of(), request);
  }

  /** GET /v1/payroll/margin-queries with no query or body. */
  public JsonNode listMarginQueries() {
    return call("listMarginQueries", Map.of(), Request.create());
  }

  /** POST /v1/payroll/margin-queries — Query a customer's payroll margin at the authority */
  public JsonNode createMarginQuery(Request request) {
    return call("createMarginQuery", Map.of(), request);
  }

  /** POST /v1/payroll/margin-queries with no query or body. */
  public JsonNode createMarginQuery() {
    return call("createMarginQuery", Map.of(), Request.create());
  }

  /** GET /v1/payroll/margin-queries/{id} — Get a margin query */
  public JsonNode getMarginQuery(String id, Request request) {
    return call("getMarginQuery", Map.of("id", id), request);
  }

  /** GET /v1/payroll/margin-queries/{id} with no query or body. */
  public JsonNode getMarginQuery(String id) {
    return call("getMarginQuery", Map.of("id", id), Request.create());
  }

  /** GET /v1/payroll/margin-reservations — List margin reservations, newest first */
  public JsonNode listMarginReservations(Request request) {
    return call("listMarginReservations", Map.of(), request);
  }

  /** GET /v1/payroll/margin-reservations with no query or body. */
  public JsonNode listMarginReservations() {
    return call("listMarginReservations", Map.of(), Request.create());
  }

  /** POST /v1/payroll/margin-reservations — Reserve an installment against a valid margin query */
  public JsonNode createMarginReservation(Request request) {
    return call("createMarginReservation", Map.of(), request);
  }

  /** POST /v1/payroll/margin-reservations with no query or body. */
  public JsonNode createMarginReservation() {
    return call("createMarginReservation", Map.of(), Request.create());
  }

  /** GET /v1/payroll/margin-reservations/{id} — Get a margin reservation */
  public JsonNode getMarginReservation(String id, Request request) {
    return call("getMarginReservation", Map.of("id", id), request);
  }

  /** GET /v1/payroll/margin-reservations/{id} with no query or body. */
  public JsonNode getMarginReservation(String id) {
    return call("getMarginReservation", Map.of("id", id), Request.create());
  }

  /** POST /v1/payroll/margin-reservations/{id}/cancel — Release a reservation (reserved → released) */
  public JsonNode cancelMarginReservation(String id, Request request) {
    return call("cancelMarginReservation", Map.of("id", id), request);
  }

  /** POST /v1/payroll/margin-reservations/{id}/cancel with no query or body. */
  public JsonNode cancelMarginReservation(String id) {
    return call("cancelMarginReservation", Map.of("id", id), Request.create());
  }

  /** GET /v1/payroll/endorsements — List endorsements, newest first */
  public JsonNode listEndorsements(Request request) {
    return call("listEndorsements", Map.of(), request);
  }

  /** GET /v1/payroll/endorsements with no query or body. */
  public JsonNode listEndorsements() {
    return call("listEndorsements", Map.of(), Request.create());
  }

  /** POST /v1/payroll/endorsements — Endorse (averbação) a signed payroll proposal against its reservation */
  public JsonNode createEndorsement(Request request) {
    return call("createEndorsement", Map.of(), request);
  }

  /** POST /v1/payroll/endorsements with no query or body. */
  public JsonNode createEndorsement() {
    return call("createEndorsement", Map.of(), Request.create());
  }

  /** GET /v1/payroll/endorsements/{id} — Get an endorsement */
  public JsonNode getEndorsement(String id, Request request) {
    return call("getEndorsement", Map.of("id", id), request);
  }

  /** GET /v1/payroll/endorsements/{id} with no query or body. */
  public JsonNode getEndorsement(String id) {
    return call("getEndorsement", Map.of("id", id), Request.create());
  }

  /** GET /v1/collection-account — The collection account charges are issued under in this environment */
  public JsonNode getCollectionAccount(Request request) {
    return call("getCollectionAccount", Map.of(), request);
  }

  /** GET /v1/collection-account with no query or body. */
  public JsonNode getCollectionAccount() {
    return call("getCollectionAccount", Map.of(), Request.create());
  }

  /** PUT /v1/collection-account — Set the collection account of this environment (collections:admin) */
  public JsonNode putCollectionAccount(Request request) {
    return call("putCollectionAccount", Map.of(), request);
  }

  /** PUT /v1/collection-account with no query or body. */
  public JsonNode putCollectionAccount() {
    return call("putCollectionAccount", Map.of(), Request.create());
  }

  /** GET /v1/charges — List charges, newest first (filters: contract, status, method, due range) */
  public JsonNode listCharges(Request request) {
    return call("listCharges", Map.of(), request);
  }

  /** GET /v1/charges with no query or body. */
  public JsonNode listCharges() {
    return call("listCharges", Map.of(), Request.create());
  }

  /** POST /v1/charges — Create a boleto or Pix charge for open installments of a contract */
  public JsonNode createCharge(Request request) {
    return call("createCharge", Map.of(), request);
  }

  /** POST /v1/charges with no query or body. */
  public JsonNode createCharge() {
    return call("createCharge", Map.of(), Request.create());
  }

  /** GET /v1/charges/{id} — Get a charge */
  public JsonNode getCharge(String id, Request request) {
    return call("getCharge", Map.of("id", id), request);
  }

  /** GET /v1/charges/{id} with no query or body. */
  public JsonNode getCharge(String id) {
    return call("getCharge", Map.of("id", id), Request.create());
  }

  /** POST /v1/charges/{id}/cancel — Cancel a charge (pending, partially paid or overdue) */
  public JsonNode cancelCharge(String id, Request request) {
    return call("cancelCharge", Map.of("id", id), request);
  }

  /** POST /v1/charges/{id}/cancel with no query or body. */
  public JsonNode cancelCharge(String id) {
    return call("cancelCharge", Map.of("id", id), Request.create());
  }

  /** GET /v1/payments — List payments received, newest first, with their allocation */
  public JsonNode listPayments(Request request) {
    return call("listPayments", Map.of(), request);
  }

  /** GET /v1/payments with no query or body. */
  public JsonNode listPayments() {
    return call("listPayments", Map.of(), Request.create());
  }

  /** GET /v1/payments/{id} — Get a payment and its allocation */
  public JsonNode getPayment(String id, Request request) {
    return call("getPayment", Map.of("id", id), request);
  }

  /** GET /v1/payments/{id} with no query or body. */
  public JsonNode getPayment(String id) {
    return call("getPayment", Map.of("id", id), Request.create());
  }

  /** GET /v1/refunds — List refunds, newest first (filter: contract) */
  public JsonNode listRefunds(Request request) {
    return call("listRefunds", Map.of(), request);
  }

  /** GET /v1/refunds with no query or body. */
  public JsonNode listRefunds() {
    return call("listRefunds", Map.of(), Request.create());
  }

  /** POST /v1/refunds — Record money paid back to the borrower from a contract's credit */
  public JsonNode createRefund(Request request) {
    return call("createRefund", Map.of(), request);
  }

  /** POST /v1/refunds with no query or body. */
  public JsonNode createRefund() {
    return call("createRefund", Map.of(), Request.create());
  }

  /** GET /v1/refunds/{id} — Get a refund */
  public JsonNode getRefund(String id, Request request) {
    return call("getRefund", Map.of("id", id), request);
  }

  /** GET /v1/refunds/{id} with no query or body. */
  public JsonNode getRefund(String id) {
    return call("getRefund", Map.of("id", id), Request.create());
  }

  /** POST /v1/sandbox/charges/{id}/pay — Pay a charge as the bank would — sandbox only */
  public JsonNode sandboxPayCharge(String id, Request request) {
    return call("sandboxPayCharge", Map.of("id", id), request);
  }

  /** POST /v1/sandbox/charges/{id}/pay with no query or body. */
  public JsonNode sandboxPayCharge(String id) {
    return call("sandboxPayCharge", Map.of("id", id), Request.create());
  }

  /** POST /v1/charges/notifications/{provider} — Inbound payment notification from the payment provider (no API key: HMAC-signed) */
  public JsonNode receiveProviderNotification(String provider, Request request) {
    return call("receiveProviderNotification", Map.of("provider", provider), request);
  }

  /** POST /v1/charges/notifications/{provider} with no query or body. */
  public JsonNode receiveProviderNotification(String provider) {
    return call("receiveProviderNotification", Map.of("provider", provider), Request.create());
  }

  /** GET /v1/contracts/{id}/payoff-quote — What settles the contract on a date (present value at the contract rate, plus late charges) */
  public JsonNode getPayoffQuote(String id, Request request) {
    return call("getPayoffQuote", Map.of("id", id), request);
  }

  /** GET /v1/contracts/{id}/payoff-quote with no query or body. */
  public JsonNode getPayoffQuote(String id) {
    return call("getPayoffQuote", Map.of("id", id), Request.create());
  }

  /** GET /v1/settlements — List settlements, newest first (filters: contract, status, type) */
  public JsonNode listSettlements(Request request) {
    return call("listSettlements", Map.of(), request);
  }

  /** GET /v1/settlements with no query or body. */
  public JsonNode listSettlements() {
    return call("listSettlements", Map.of(), Request.create());
  }

  /** POST /v1/settlements — Settle a contract in full or prepay part of it */
  public JsonNode createSettlement(Request request) {
    return call("createSettlement", Map.of(), request);
  }

  /** POST /v1/settlements with no query or body. */
  public JsonNode createSettlement() {
    return call("createSettlement", Map.of(), Request.create());
  }

  /** GET /v1/settlements/{id} — Get a settlement */
  public JsonNode getSettlement(String id, Request request) {
    return call("getSettlement", Map.of("id", id), request);
  }

  /** GET /v1/settlements/{id} with no query or body. */
  public JsonNode getSettlement(String id) {
    return call("getSettlement", Map.of("id", id), Request.create());
  }

  /** POST /v1/settlements/{id}/cancel — Cancel a pending settlement (and its open charge) */
  public JsonNode cancelSettlement(String id, Request request) {
    return call("cancelSettlement", Map.of("id", id), request);
  }

  /** POST /v1/settlements/{id}/cancel with no query or body. */
  public JsonNode cancelSettlement(String id) {
    return call("cancelSettlement", Map.of("id", id), Request.create());
  }

  /** POST /v1/settlements/batch — Settle many contracts in one request (up to 5000 items) */
  public JsonNode createSettlementBatch(Request request) {
    return call("createSettlementBatch", Map.of(), request);
  }

  /** POST /v1/settlements/batch with no query or body. */
  public JsonNode createSettlementBatch() {
    return call("createSettlementBatch", Map.of(), Request.create());
  }

  /** GET /v1/settlements/batch/{id} — A settlement batch: progress and results */
  public JsonNode getSettlementBatch(String id, Request request) {
    return call("getSettlementBatch", Map.of("id", id), request);
  }

  /** GET /v1/settlements/batch/{id} with no query or body. */
  public JsonNode getSettlementBatch(String id) {
    return call("getSettlementBatch", Map.of("id", id), Request.create());
  }

  /** GET /v1/assignments — List assignments, newest first (filter: status) */
  public JsonNode listAssignments(Request request) {
    return call("listAssignments", Map.of(), request);
  }

  /** GET /v1/assignments with no query or body. */
  public JsonNode listAssignments() {
    return call("listAssignments", Map.of(), Request.create());
  }

  /** POST /v1/assignments — Offer contracts to an assignee (cessão) at a discount rate or a price */
  public JsonNode createAssignment(Request request) {
    return call("createAssignment", Map.of(), request);
  }

  /** POST /v1/assignments with no query or body. */
  public JsonNode createAssignment() {
    return call("createAssignment", Map.of(), Request.create());
  }

  /** GET /v1/assignments/{id} — Get an assignment with its contracts and prices */
  public JsonNode getAssignment(String id, Request request) {
    return call("getAssignment", Map.of("id", id), request);
  }

  /** GET /v1/assignments/{id} with no query or body. */
  public JsonNode getAssignment(String id) {
    return call("getAssignment", Map.of("id", id), Request.create());
  }

  /** GET /v1/assignments/{id}/contracts — An assignment's contracts with their prices, a page at a time (by contract id) */
  public JsonNode listAssignmentContracts(String id, Request request) {
    return call("listAssignmentContracts", Map.of("id", id), request);
  }

  /** GET /v1/assignments/{id}/contracts with no query or body. */
  public JsonNode listAssignmentContracts(String id) {
    return call("listAssignmentContracts", Map.of("id", id), Request.create());
  }

  /** POST /v1/assignments/{id}/settle — Settle an assignment: its contracts become `assigned` and their later receipts the assignee's */
  public JsonNode settleAssignment(String id, Request request) {
    return call("settleAssignment", Map.of("id", id), request);
  }

  /** POST /v1/assignments/{id}/settle with no query or body. */
  public JsonNode settleAssignment(String id) {
    return call("settleAssignment", Map.of("id", id), Request.create());
  }

  /** POST /v1/assignments/{id}/cancel — Cancel a pending assignment (its contracts are free again) */
  public JsonNode cancelAssignment(String id, Request request) {
    return call("cancelAssignment", Map.of("id", id), request);
  }

  /** POST /v1/assignments/{id}/cancel with no query or body. */
  public JsonNode cancelAssignment(String id) {
    return call("cancelAssignment", Map.of("id", id), Request.create());
  }

  /** POST /v1/assignments/{id}/decline — Record that the assignee declined a pending assignment (its contracts are free again) */
  public JsonNode declineAssignment(String id, Request request) {
    return call("declineAssignment", Map.of("id", id), request);
  }

  /** POST /v1/assignments/{id}/decline with no query or body. */
  public JsonNode declineAssignment(String id) {
    return call("declineAssignment", Map.of("id", id), Request.create());
  }

  /** POST /v1/assignments/{id}/buyback — Buy contracts of a settled assignment back from the assignee (recompra) */
  public JsonNode buybackAssignment(String id, Request request) {
    return call("buybackAssignment", Map.of("id", id), request);
  }

  /** POST /v1/assignments/{id}/buyback with no query or body. */
  public JsonNode buybackAssignment(String id) {
    return call("buybackAssignment", Map.of("id", id), Request.create());
  }

  /** GET /v1/webhook-endpoints — List webhook endpoints, newest first (filter: enabled) */
  public JsonNode listWebhookEndpoints(Request request) {
    return call("listWebhookEndpoints", Map.of(), request);
  }

  /** GET /v1/webhook-endpoints with no query or body. */
  public JsonNode listWebhookEndpoints() {
    return call("listWebhookEndpoints", Map.of(), Request.create());
  }

  /** POST /v1/webhook-endpoints — Register a webhook endpoint; its signing secret is in this response only */
  public JsonNode createWebhookEndpoint(Request request) {
    return call("createWebhookEndpoint", Map.of(), request);
  }

  /** POST /v1/webhook-endpoints with no query or body. */
  public JsonNode createWebhookEndpoint() {
    return call("createWebhookEndpoint", Map.of(), Request.create());
  }

  /** GET /v1/webhook-endpoints/{id} — Get a webhook endpoint */
  public JsonNode getWebhookEndpoint(String id, Request request) {
    return call("getWebhookEndpoint", Map.of("id", id), request);
  }

  /** GET /v1/webhook-endpoints/{id} with no query or body. */
  public JsonNode getWebhookEndpoint(String id) {
    return call("getWebhookEndpoint", Map.of("id", id), Request.create());
  }

  /** PATCH /v1/webhook-endpoints/{id} — Change an endpoint's URL, event types or description, or enable / disable it */
  public JsonNode updateWebhookEndpoint(String id, Request request) {
    return call("updateWebhookEndpoint", Map.of("id", id), request);
  }

  /** PATCH /v1/webhook-endpoints/{id} with no query or body. */
  public JsonNode updateWebhookEndpoint(String id) {
    return call("updateWebhookEndpoint", Map.of("id", id), Request.create());
  }

  /** DELETE /v1/webhook-endpoints/{id} — Delete a webhook endpoint and its delivery log */
  public JsonNode deleteWebhookEndpoint(String id, Request request) {
    return call("deleteWebhookEndpoint", Map.of("id", id), request);
  }

  /** DELETE /v1/webhook-endpoints/{id} with no query or body. */
  public JsonNode deleteWebhookEndpoint(String id) {
    return call("deleteWebhookEndpoint", Map.of("id", id), Request.create());
  }

  /** POST /v1/webhook-endpoints/{id}/rotate-secret — Rotate an endpoint's signing secret (the old one keeps signing for 24 h) */
  public JsonNode rotateWebhookSecret(String id, Request request) {
    return call("rotateWebhookSecret", Map.of("id", id), request);
  }

  /** POST /v1/webhook-endpoints/{id}/rotate-secret with no query or body. */
  public JsonNode rotateWebhookSecret(String id) {
    return call("rotateWebhookSecret", Map.of("id", id), Request.create());
  }

  /** POST /v1/webhook-endpoints/{id}/test — Send a `webhook_endpoint.test` event to this endpoint */
  public JsonNode testWebhookEndpoint(String id, Request request) {
    return call("testWebhookEndpoint", Map.of("id", id), request);
  }

  /** POST /v1/webhook-endpoints/{id}/test with no query or body. */
  public JsonNode testWebhookEndpoint(String id) {
    return call("testWebhookEndpoint", Map.of("id", id), Request.create());
  }

  /** POST /v1/webhook-endpoints/{id}/recover — Queue again the events an endpoint missed in a window (after it was disabled or its receiver was down) */
  public JsonNode recoverWebhookEndpoint(String id, Request request) {
    return call("recoverWebhookEndpoint", Map.of("id", id), request);
  }

  /** POST /v1/webhook-endpoints/{id}/recover with no query or body. */
  public JsonNode recoverWebhookEndpoint(String id) {
    return call("recoverWebhookEndpoint", Map.of("id", id), Request.create());
  }

  /** GET /v1/events — List events, newest first (filter: type) */
  public JsonNode listEvents(Request request) {
    return call("listEvents", Map.of(), request);
  }

  /** GET /v1/events with no query or body. */
  public JsonNode listEvents() {
    return call("listEvents", Map.of(), Request.create());
  }

  /** GET /v1/events/{id} — Get an event */
  public JsonNode getEvent(String id, Request request) {
    return call("getEvent", Map.of("id", id), request);
  }

  /** GET /v1/events/{id} with no query or body. */
  public JsonNode getEvent(String id) {
    return call("getEvent", Map.of("id", id), Request.create());
  }

  /** GET /v1/webhook-deliveries — List webhook deliveries, newest first (filters: endpoint, event, status) */
  public JsonNode listWebhookDeliveries(Request request) {
    return call("listWebhookDeliveries", Map.of(), request);
  }

  /** GET /v1/webhook-deliveries with no query or body. */
  public JsonNode listWebhookDeliveries() {
    return call("listWebhookDeliveries", Map.of(), Request.create());
  }

  /** GET /v1/webhook-deliveries/{id} — Get a delivery with every attempt (status code, duration, request and response bodies) */
  public JsonNode getWebhookDelivery(String id, Request request) {
    return call("getWebhookDelivery", Map.of("id", id), request);
  }

  /** GET /v1/webhook-deliveries/{id} with no query or body. */
  public JsonNode getWebhookDelivery(String id) {
    return call("getWebhookDelivery", Map.of("id", id), Request.create());
  }

  /** POST /v1/webhook-deliveries/{id}/resend — Send a delivery again now */
  public JsonNode resendWebhookDelivery(String id, Request request) {
    return call("resendWebhookDelivery", Map.of("id", id), request);
  }

  /** POST /v1/webhook-deliveries/{id}/resend with no query or body. */
  public JsonNode resendWebhookDelivery(String id) {
    return call("resendWebhookDelivery", Map.of("id", id), Request.create());
  }

  /** POST /v1/sandbox/repasse — Simulate the paying source's monthly transfer (repasse) of payroll installments — sandbox only */
  public JsonNode simulateRepasse(Request request) {
    return call("simulateRepasse", Map.of(), request);
  }

  /** POST /v1/sandbox/repasse with no query or body. */
  public JsonNode simulateRepasse() {
    return call("simulateRepasse", Map.of(), Request.create());
  }
}
