// Generated from sdk/openapi.json by sdk/csharp/generate.mjs — do not edit.
using System.Collections.Generic;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace CreditPlatform.Sdk
{
    /// <summary>One method per operation of the OpenAPI document: its operationId in PascalCase + Async.</summary>
    public partial class CreditPlatformClient
    {
        private static readonly IDictionary<string, string> NoPathParams = new Dictionary<string, string>();

        /// <summary>GET /v1/health — Check the API, your credential and your environment</summary>
        public Task<JToken> GetHealthAsync(Request request = null) => CallAsync("getHealth", NoPathParams, request);

        /// <summary>POST /v1/auth/token — Get an OAuth2 access token (client credentials) or rotate a refresh token</summary>
        public Task<JToken> CreateTokenAsync(Request request = null) => CallAsync("createToken", NoPathParams, request);

        /// <summary>GET /v1/openapi.json — This OpenAPI 3.1 document</summary>
        public Task<JToken> GetOpenApiDocumentAsync(Request request = null) => CallAsync("getOpenApiDocument", NoPathParams, request);

        /// <summary>GET /v1/customers — List customers</summary>
        public Task<JToken> ListCustomersAsync(Request request = null) => CallAsync("listCustomers", NoPathParams, request);

        /// <summary>POST /v1/customers — Register a customer (person or company)</summary>
        public Task<JToken> CreateCustomerAsync(Request request = null) => CallAsync("createCustomer", NoPathParams, request);

        /// <summary>GET /v1/customers/{id} — Get a customer</summary>
        public Task<JToken> GetCustomerAsync(string id, Request request = null) => CallAsync("getCustomer", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>PATCH /v1/customers/{id} — Update a customer</summary>
        public Task<JToken> UpdateCustomerAsync(string id, Request request = null) => CallAsync("updateCustomer", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>DELETE /v1/customers/{id} — Erase a customer's data (LGPD) when no credit operation holds it</summary>
        public Task<JToken> DeleteCustomerAsync(string id, Request request = null) => CallAsync("deleteCustomer", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/clients — List customers (deprecated alias of GET /v1/customers)</summary>
        public Task<JToken> ListClientsAsync(Request request = null) => CallAsync("listClients", NoPathParams, request);

        /// <summary>GET /v1/clients/{id} — Get a customer (deprecated alias of GET /v1/customers/{id})</summary>
        public Task<JToken> GetClientAsync(string id, Request request = null) => CallAsync("getClient", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/simulations — List simulations, newest first</summary>
        public Task<JToken> ListSimulationsAsync(Request request = null) => CallAsync("listSimulations", NoPathParams, request);

        /// <summary>POST /v1/simulations — Simulate a loan: schedule, IOF and CET</summary>
        public Task<JToken> CreateSimulationAsync(Request request = null) => CallAsync("createSimulation", NoPathParams, request);

        /// <summary>GET /v1/simulations/{id} — Get a simulation</summary>
        public Task<JToken> GetSimulationAsync(string id, Request request = null) => CallAsync("getSimulation", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/proposals — List proposals (newest first)</summary>
        public Task<JToken> ListProposalsAsync(Request request = null) => CallAsync("listProposals", NoPathParams, request);

        /// <summary>POST /v1/proposals — Create a proposal (draft) from a customer and a simulation or inline terms</summary>
        public Task<JToken> CreateProposalAsync(Request request = null) => CallAsync("createProposal", NoPathParams, request);

        /// <summary>GET /v1/proposals/{id} — Get a proposal</summary>
        public Task<JToken> GetProposalAsync(string id, Request request = null) => CallAsync("getProposal", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/proposals/{id}/submit — Submit a draft for review (draft → pending_review); a payroll draft may bring a newer margin query</summary>
        public Task<JToken> SubmitProposalAsync(string id, Request request = null) => CallAsync("submitProposal", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/proposals/{id}/approve — Approve (pending_review → approved); staff: proposals:review</summary>
        public Task<JToken> ApproveProposalAsync(string id, Request request = null) => CallAsync("approveProposal", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/proposals/{id}/reject — Reject with a reason (pending_review → rejected); staff: proposals:review</summary>
        public Task<JToken> RejectProposalAsync(string id, Request request = null) => CallAsync("rejectProposal", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/proposals/{id}/sign — Record the borrower's signature (approved → signed)</summary>
        public Task<JToken> SignProposalAsync(string id, Request request = null) => CallAsync("signProposal", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/proposals/{id}/cancel — Cancel (from draft, pending_review, approved or signed; a signed payroll proposal's averbação is ended)</summary>
        public Task<JToken> CancelProposalAsync(string id, Request request = null) => CallAsync("cancelProposal", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/contracts — List contracts (newest first)</summary>
        public Task<JToken> ListContractsAsync(Request request = null) => CallAsync("listContracts", NoPathParams, request);

        /// <summary>POST /v1/contracts — Issue a contract from a signed proposal</summary>
        public Task<JToken> IssueContractAsync(Request request = null) => CallAsync("issueContract", NoPathParams, request);

        /// <summary>GET /v1/contracts/{id} — Get a contract</summary>
        public Task<JToken> GetContractAsync(string id, Request request = null) => CallAsync("getContract", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/contracts/{id}/cancel — Cancel a contract (borrower's withdrawal within 7 days, before any payment)</summary>
        public Task<JToken> CancelContractAsync(string id, Request request = null) => CallAsync("cancelContract", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/contracts/{id}/write-off — Write off a contract in default (active → written_off)</summary>
        public Task<JToken> WriteOffContractAsync(string id, Request request = null) => CallAsync("writeOffContract", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/contracts/{id}/installments — A contract's installments, by due date</summary>
        public Task<JToken> ListContractInstallmentsAsync(string id, Request request = null) => CallAsync("listContractInstallments", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/installments — List installments by contract, status and due-date range (earliest due first)</summary>
        public Task<JToken> ListInstallmentsAsync(Request request = null) => CallAsync("listInstallments", NoPathParams, request);

        /// <summary>GET /v1/installments/{id} — Get an installment and the amount due on a date (late charges included)</summary>
        public Task<JToken> GetInstallmentAsync(string id, Request request = null) => CallAsync("getInstallment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/risk-assessments — List risk assessments, newest first</summary>
        public Task<JToken> ListRiskAssessmentsAsync(Request request = null) => CallAsync("listRiskAssessments", NoPathParams, request);

        /// <summary>POST /v1/risk-assessments — Score a customer for a proposal, a simulation or inline terms</summary>
        public Task<JToken> CreateRiskAssessmentAsync(Request request = null) => CallAsync("createRiskAssessment", NoPathParams, request);

        /// <summary>GET /v1/risk-assessments/{id} — Get a risk assessment</summary>
        public Task<JToken> GetRiskAssessmentAsync(string id, Request request = null) => CallAsync("getRiskAssessment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/payroll/margin-queries — List margin queries, newest first</summary>
        public Task<JToken> ListMarginQueriesAsync(Request request = null) => CallAsync("listMarginQueries", NoPathParams, request);

        /// <summary>POST /v1/payroll/margin-queries — Query a customer's payroll margin at the authority</summary>
        public Task<JToken> CreateMarginQueryAsync(Request request = null) => CallAsync("createMarginQuery", NoPathParams, request);

        /// <summary>GET /v1/payroll/margin-queries/{id} — Get a margin query</summary>
        public Task<JToken> GetMarginQueryAsync(string id, Request request = null) => CallAsync("getMarginQuery", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/payroll/margin-reservations — List margin reservations, newest first</summary>
        public Task<JToken> ListMarginReservationsAsync(Request request = null) => CallAsync("listMarginReservations", NoPathParams, request);

        /// <summary>POST /v1/payroll/margin-reservations — Reserve an installment against a valid margin query</summary>
        public Task<JToken> CreateMarginReservationAsync(Request request = null) => CallAsync("createMarginReservation", NoPathParams, request);

        /// <summary>GET /v1/payroll/margin-reservations/{id} — Get a margin reservation</summary>
        public Task<JToken> GetMarginReservationAsync(string id, Request request = null) => CallAsync("getMarginReservation", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/payroll/margin-reservations/{id}/cancel — Release a reservation (reserved → released)</summary>
        public Task<JToken> CancelMarginReservationAsync(string id, Request request = null) => CallAsync("cancelMarginReservation", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/payroll/endorsements — List endorsements, newest first</summary>
        public Task<JToken> ListEndorsementsAsync(Request request = null) => CallAsync("listEndorsements", NoPathParams, request);

        /// <summary>POST /v1/payroll/endorsements — Endorse (averbação) a signed payroll proposal against its reservation</summary>
        public Task<JToken> CreateEndorsementAsync(Request request = null) => CallAsync("createEndorsement", NoPathParams, request);

        /// <summary>GET /v1/payroll/endorsements/{id} — Get an endorsement</summary>
        public Task<JToken> GetEndorsementAsync(string id, Request request = null) => CallAsync("getEndorsement", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/collection-account — The collection account charges are issued under in this environment</summary>
        public Task<JToken> GetCollectionAccountAsync(Request request = null) => CallAsync("getCollectionAccount", NoPathParams, request);

        /// <summary>PUT /v1/collection-account — Set the collection account of this environment (collections:admin)</summary>
        public Task<JToken> PutCollectionAccountAsync(Request request = null) => CallAsync("putCollectionAccount", NoPathParams, request);

        /// <summary>GET /v1/charges — List charges, newest first (filters: contract, status, method, due range)</summary>
        public Task<JToken> ListChargesAsync(Request request = null) => CallAsync("listCharges", NoPathParams, request);

        /// <summary>POST /v1/charges — Create a boleto or Pix charge for open installments of a contract</summary>
        public Task<JToken> CreateChargeAsync(Request request = null) => CallAsync("createCharge", NoPathParams, request);

        /// <summary>GET /v1/charges/{id} — Get a charge</summary>
        public Task<JToken> GetChargeAsync(string id, Request request = null) => CallAsync("getCharge", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/charges/{id}/cancel — Cancel a charge (pending, partially paid or overdue)</summary>
        public Task<JToken> CancelChargeAsync(string id, Request request = null) => CallAsync("cancelCharge", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/payments — List payments received, newest first, with their allocation</summary>
        public Task<JToken> ListPaymentsAsync(Request request = null) => CallAsync("listPayments", NoPathParams, request);

        /// <summary>GET /v1/payments/{id} — Get a payment and its allocation</summary>
        public Task<JToken> GetPaymentAsync(string id, Request request = null) => CallAsync("getPayment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/refunds — List refunds, newest first (filter: contract)</summary>
        public Task<JToken> ListRefundsAsync(Request request = null) => CallAsync("listRefunds", NoPathParams, request);

        /// <summary>POST /v1/refunds — Record money paid back to the borrower from a contract's credit</summary>
        public Task<JToken> CreateRefundAsync(Request request = null) => CallAsync("createRefund", NoPathParams, request);

        /// <summary>GET /v1/refunds/{id} — Get a refund</summary>
        public Task<JToken> GetRefundAsync(string id, Request request = null) => CallAsync("getRefund", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/sandbox/charges/{id}/pay — Pay a charge as the bank would — sandbox only</summary>
        public Task<JToken> SandboxPayChargeAsync(string id, Request request = null) => CallAsync("sandboxPayCharge", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/charges/notifications/{provider} — Inbound payment notification from the payment provider (no API key: HMAC-signed)</summary>
        public Task<JToken> ReceiveProviderNotificationAsync(string provider, Request request = null) => CallAsync("receiveProviderNotification", new Dictionary<string, string> { ["provider"] = provider }, request);

        /// <summary>GET /v1/contracts/{id}/payoff-quote — What settles the contract on a date (present value at the contract rate, plus late charges)</summary>
        public Task<JToken> GetPayoffQuoteAsync(string id, Request request = null) => CallAsync("getPayoffQuote", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/settlements — List settlements, newest first (filters: contract, status, type)</summary>
        public Task<JToken> ListSettlementsAsync(Request request = null) => CallAsync("listSettlements", NoPathParams, request);

        /// <summary>POST /v1/settlements — Settle a contract in full or prepay part of it</summary>
        public Task<JToken> CreateSettlementAsync(Request request = null) => CallAsync("createSettlement", NoPathParams, request);

        /// <summary>GET /v1/settlements/{id} — Get a settlement</summary>
        public Task<JToken> GetSettlementAsync(string id, Request request = null) => CallAsync("getSettlement", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/settlements/{id}/cancel — Cancel a pending settlement (and its open charge)</summary>
        public Task<JToken> CancelSettlementAsync(string id, Request request = null) => CallAsync("cancelSettlement", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/settlements/batch — Settle many contracts in one request (up to 5000 items)</summary>
        public Task<JToken> CreateSettlementBatchAsync(Request request = null) => CallAsync("createSettlementBatch", NoPathParams, request);

        /// <summary>GET /v1/settlements/batch/{id} — A settlement batch: progress and results</summary>
        public Task<JToken> GetSettlementBatchAsync(string id, Request request = null) => CallAsync("getSettlementBatch", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/assignments — List assignments, newest first (filter: status)</summary>
        public Task<JToken> ListAssignmentsAsync(Request request = null) => CallAsync("listAssignments", NoPathParams, request);

        /// <summary>POST /v1/assignments — Offer contracts to an assignee (cessão) at a discount rate or a price</summary>
        public Task<JToken> CreateAssignmentAsync(Request request = null) => CallAsync("createAssignment", NoPathParams, request);

        /// <summary>GET /v1/assignments/{id} — Get an assignment with its contracts and prices</summary>
        public Task<JToken> GetAssignmentAsync(string id, Request request = null) => CallAsync("getAssignment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/assignments/{id}/contracts — An assignment's contracts with their prices, a page at a time (by contract id)</summary>
        public Task<JToken> ListAssignmentContractsAsync(string id, Request request = null) => CallAsync("listAssignmentContracts", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/assignments/{id}/settle — Settle an assignment: its contracts become `assigned` and their later receipts the assignee's</summary>
        public Task<JToken> SettleAssignmentAsync(string id, Request request = null) => CallAsync("settleAssignment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/assignments/{id}/cancel — Cancel a pending assignment (its contracts are free again)</summary>
        public Task<JToken> CancelAssignmentAsync(string id, Request request = null) => CallAsync("cancelAssignment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/assignments/{id}/decline — Record that the assignee declined a pending assignment (its contracts are free again)</summary>
        public Task<JToken> DeclineAssignmentAsync(string id, Request request = null) => CallAsync("declineAssignment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/assignments/{id}/buyback — Buy contracts of a settled assignment back from the assignee (recompra)</summary>
        public Task<JToken> BuybackAssignmentAsync(string id, Request request = null) => CallAsync("buybackAssignment", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/webhook-endpoints — List webhook endpoints, newest first (filter: enabled)</summary>
        public Task<JToken> ListWebhookEndpointsAsync(Request request = null) => CallAsync("listWebhookEndpoints", NoPathParams, request);

        /// <summary>POST /v1/webhook-endpoints — Register a webhook endpoint; its signing secret is in this response only</summary>
        public Task<JToken> CreateWebhookEndpointAsync(Request request = null) => CallAsync("createWebhookEndpoint", NoPathParams, request);

        /// <summary>GET /v1/webhook-endpoints/{id} — Get a webhook endpoint</summary>
        public Task<JToken> GetWebhookEndpointAsync(string id, Request request = null) => CallAsync("getWebhookEndpoint", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>PATCH /v1/webhook-endpoints/{id} — Change an endpoint's URL, event types or description, or enable / disable it</summary>
        public Task<JToken> UpdateWebhookEndpointAsync(string id, Request request = null) => CallAsync("updateWebhookEndpoint", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>DELETE /v1/webhook-endpoints/{id} — Delete a webhook endpoint and its delivery log</summary>
        public Task<JToken> DeleteWebhookEndpointAsync(string id, Request request = null) => CallAsync("deleteWebhookEndpoint", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/webhook-endpoints/{id}/rotate-secret — Rotate an endpoint's signing secret (the old one keeps signing for 24 h)</summary>
        public Task<JToken> RotateWebhookSecretAsync(string id, Request request = null) => CallAsync("rotateWebhookSecret", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/webhook-endpoints/{id}/test — Send a `webhook_endpoint.test` event to this endpoint</summary>
        public Task<JToken> TestWebhookEndpointAsync(string id, Request request = null) => CallAsync("testWebhookEndpoint", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/webhook-endpoints/{id}/recover — Queue again the events an endpoint missed in a window (after it was disabled or its receiver was down)</summary>
        public Task<JToken> RecoverWebhookEndpointAsync(string id, Request request = null) => CallAsync("recoverWebhookEndpoint", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/events — List events, newest first (filter: type)</summary>
        public Task<JToken> ListEventsAsync(Request request = null) => CallAsync("listEvents", NoPathParams, request);

        /// <summary>GET /v1/events/{id} — Get an event</summary>
        public Task<JToken> GetEventAsync(string id, Request request = null) => CallAsync("getEvent", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>GET /v1/webhook-deliveries — List webhook deliveries, newest first (filters: endpoint, event, status)</summary>
        public Task<JToken> ListWebhookDeliveriesAsync(Request request = null) => CallAsync("listWebhookDeliveries", NoPathParams, request);

        /// <summary>GET /v1/webhook-deliveries/{id} — Get a delivery with every attempt (status code, duration, request and response bodies)</summary>
        public Task<JToken> GetWebhookDeliveryAsync(string id, Request request = null) => CallAsync("getWebhookDelivery", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/webhook-deliveries/{id}/resend — Send a delivery again now</summary>
        public Task<JToken> ResendWebhookDeliveryAsync(string id, Request request = null) => CallAsync("resendWebhookDelivery", new Dictionary<string, string> { ["id"] = id }, request);

        /// <summary>POST /v1/sandbox/repasse — Simulate the paying source's monthly transfer (repasse) of payroll installments — sandbox only</summary>
        public Task<JToken> SimulateRepasseAsync(Request request = null) => CallAsync("simulateRepasse", NoPathParams, request);
    }
}
