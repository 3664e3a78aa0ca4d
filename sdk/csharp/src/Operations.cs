// Generated from sdk/openapi.json by sdk/csharp/generate.mjs — do not edit.
using System.Collections.Generic;

namespace CreditPlatform.Sdk
{
    /// <summary>One /v1 operation: method, path template, path parameters, body media type, credential, page.</summary>
    public sealed class Operation
    {
        public Operation(string id, string method, string path, string[] pathParams, string body, bool auth, bool paginated, bool retrySafe)
        {
            Id = id; Method = method; Path = path; PathParams = pathParams; Body = body; Auth = auth; Paginated = paginated; RetrySafe = retrySafe;
        }
        public string Id { get; }
        public string Method { get; }
        public string Path { get; }
        public string[] PathParams { get; }
        public string Body { get; }
        public bool Auth { get; }
        public bool Paginated { get; }
        /// <summary>Sent again after an unknown outcome: GET, PUT, DELETE, and POSTs the server replays by X-Request-Id.</summary>
        public bool RetrySafe { get; }
    }

    /// <summary>Every /v1 operation by its operationId.</summary>
    public static class Operations
    {
        public static readonly IReadOnlyDictionary<string, Operation> All = new Dictionary<string, Operation>
        {
            ["getHealth"] = new Operation("getHealth", "GET", "/v1/health", new string[] {  }, null, true, false, true),
            ["createToken"] = new Operation("createToken", "POST", "/v1/auth/token", new string[] {  }, "application/x-www-form-urlencoded", false, false, false),
            ["getOpenApiDocument"] = new Operation("getOpenApiDocument", "GET", "/v1/openapi.json", new string[] {  }, null, false, false, true),
            ["listCustomers"] = new Operation("listCustomers", "GET", "/v1/customers", new string[] {  }, null, true, true, true),
            ["createCustomer"] = new Operation("createCustomer", "POST", "/v1/customers", new string[] {  }, "application/json", true, false, true),
            ["getCustomer"] = new Operation("getCustomer", "GET", "/v1/customers/{id}", new string[] { "id" }, null, true, false, true),
            ["updateCustomer"] = new Operation("updateCustomer", "PATCH", "/v1/customers/{id}", new string[] { "id" }, "application/json", true, false, false),
            ["deleteCustomer"] = new Operation("deleteCustomer", "DELETE", "/v1/customers/{id}", new string[] { "id" }, null, true, false, true),
            ["listClients"] = new Operation("listClients", "GET", "/v1/clients", new string[] {  }, null, true, true, true),
            ["getClient"] = new Operation("getClient", "GET", "/v1/clients/{id}", new string[] { "id" }, null, true, false, true),
            ["listSimulations"] = new Operation("listSimulations", "GET", "/v1/simulations", new string[] {  }, null, true, true, true),
            ["createSimulation"] = new Operation("createSimulation", "POST", "/v1/simulations", new string[] {  }, "application/json", true, false, true),
            ["getSimulation"] = new Operation("getSimulation", "GET", "/v1/simulations/{id}", new string[] { "id" }, null, true, false, true),
            ["listProposals"] = new Operation("listProposals", "GET", "/v1/proposals", new string[] {  }, null, true, true, true),
            ["createProposal"] = new Operation("createProposal", "POST", "/v1/proposals", new string[] {  }, "application/json", true, false, true),
            ["getProposal"] = new Operation("getProposal", "GET", "/v1/proposals/{id}", new string[] { "id" }, null, true, false, true),
            ["submitProposal"] = new Operation("submitProposal", "POST", "/v1/proposals/{id}/submit", new string[] { "id" }, "application/json", true, false, true),
            ["approveProposal"] = new Operation("approveProposal", "POST", "/v1/proposals/{id}/approve", new string[] { "id" }, null, true, false, true),
            ["rejectProposal"] = new Operation("rejectProposal", "POST", "/v1/proposals/{id}/reject", new string[] { "id" }, "application/json", true, false, true),
            ["signProposal"] = new Operation("signProposal", "POST", "/v1/proposals/{id}/sign", new string[] { "id" }, null, true, false, true),
            ["cancelProposal"] = new Operation("cancelProposal", "POST", "/v1/proposals/{id}/cancel", new string[] { "id" }, "application/json", true, false, true),
            ["listContracts"] = new Operation("listContracts", "GET", "/v1/contracts", new string[] {  }, null, true, true, true),
            ["issueContract"] = new Operation("issueContract", "POST", "/v1/contracts", new string[] {  }, "application/json", true, false, true),
            ["getContract"] = new Operation("getContract", "GET", "/v1/contracts/{id}", new string[] { "id" }, null, true, false, true),
            ["cancelContract"] = new Operation("cancelContract", "POST", "/v1/contracts/{id}/cancel", new string[] { "id" }, "application/json", true, false, true),
            ["writeOffContract"] = new Operation("writeOffContract", "POST", "/v1/contracts/{id}/write-off", new string[] { "id" }, "application/json", true, false, true),
            ["listContractInstallments"] = new Operation("listContractInstallments", "GET", "/v1/contracts/{id}/installments", new string[] { "id" }, null, true, true, true),
            ["listInstallments"] = new Operation("listInstallments", "GET", "/v1/installments", new string[] {  }, null, true, true, true),
            ["getInstallment"] = new Operation("getInstallment", "GET", "/v1/installments/{id}", new string[] { "id" }, null, true, false, true),
            ["listRiskAssessments"] = new Operation("listRiskAssessments", "GET", "/v1/risk-assessments", new string[] {  }, null, true, true, true),
            ["createRiskAssessment"] = new Operation("createRiskAssessment", "POST", "/v1/risk-assessments", new string[] {  }, "application/json", true, false, true),
            ["getRiskAssessment"] = new Operation("getRiskAssessment", "GET", "/v1/risk-assessments/{id}", new string[] { "id" }, null, true, false, true),
            ["listMarginQueries"] = new Operation("listMarginQueries", "GET", "/v1/payroll/margin-queries", new string[] {  }, null, true, true, true),
            ["createMarginQuery"] = new Operation("createMarginQuery", "POST", "/v1/payroll/margin-queries", new string[] {  }, "application/json", true, false, true),
            ["getMarginQuery"] = new Operation("getMarginQuery", "GET", "/v1/payroll/margin-queries/{id}", new string[] { "id" }, null, true, false, true),
            ["listMarginReservations"] = new Operation("listMarginReservations", "GET", "/v1/payroll/margin-reservations", new string[] {  }, null, true, true, true),
            ["createMarginReservation"] = new Operation("createMarginReservation", "POST", "/v1/payroll/margin-reservations", new string[] {  }, "application/json", true, false, true),
            ["getMarginReservation"] = new Operation("getMarginReservation", "GET", "/v1/payroll/margin-reservations/{id}", new string[] { "id" }, null, true, false, true),
            ["cancelMarginReservation"] = new Operation("cancelMarginReservation", "POST", "/v1/payroll/margin-reservations/{id}/cancel", new string[] { "id" }, null, true, false, true),
            ["listEndorsements"] = new Operation("listEndorsements", "GET", "/v1/payroll/endorsements", new string[] {  }, null, true, true, true),
            ["createEndorsement"] = new Operation("createEndorsement", "POST", "/v1/payroll/endorsements", new string[] {  }, "application/json", true, false, true),
            ["getEndorsement"] = new Operation("getEndorsement", "GET", "/v1/payroll/endorsements/{id}", new string[] { "id" }, null, true, false, true),
            ["getCollectionAccount"] = new Operation("getCollectionAccount", "GET", "/v1/collection-account", new string[] {  }, null, true, false, true),
            ["putCollectionAccount"] = new Operation("putCollectionAccount", "PUT", "/v1/collection-account", new string[] {  }, "application/json", true, false, true),
            ["listCharges"] = new Operation("listCharges", "GET", "/v1/charges", new string[] {  }, null, true, true, true),
            ["createCharge"] = new Operation("createCharge", "POST", "/v1/charges", new string[] {  }, "application/json", true, false, true),
            ["getCharge"] = new Operation("getCharge", "GET", "/v1/charges/{id}", new string[] { "id" }, null, true, false, true),
            ["cancelCharge"] = new Operation("cancelCharge", "POST", "/v1/charges/{id}/cancel", new string[] { "id" }, null, true, false, true),
            ["listPayments"] = new Operation("listPayments", "GET", "/v1/payments", new string[] {  }, null, true, true, true),
            ["getPayment"] = new Operation("getPayment", "GET", "/v1/payments/{id}", new string[] { "id" }, null, true, false, true),
            ["listRefunds"] = new Operation("listRefunds", "GET", "/v1/refunds", new string[] {  }, null, true, true, true),
            ["createRefund"] = new Operation("createRefund", "POST", "/v1/refunds", new string[] {  }, "application/json", true, false, true),
            ["getRefund"] = new Operation("getRefund", "GET", "/v1/refunds/{id}", new string[] { "id" }, null, true, false, true),
            ["sandboxPayCharge"] = new Operation("sandboxPayCharge", "POST", "/v1/sandbox/charges/{id}/pay", new string[] { "id" }, "application/json", true, false, true),
            ["receiveProviderNotification"] = new Operation("receiveProviderNotification", "POST", "/v1/charges/notifications/{provider}", new string[] { "provider" }, "application/json", false, false, false),
            ["getPayoffQuote"] = new Operation("getPayoffQuote", "GET", "/v1/contracts/{id}/payoff-quote", new string[] { "id" }, null, true, false, true),
            ["listSettlements"] = new Operation("listSettlements", "GET", "/v1/settlements", new string[] {  }, null, true, true, true),
            ["createSettlement"] = new Operation("createSettlement", "POST", "/v1/settlements", new string[] {  }, "application/json", true, false, true),
            ["getSettlement"] = new Operation("getSettlement", "GET", "/v1/settlements/{id}", new string[] { "id" }, null, true, false, true),
            ["cancelSettlement"] = new Operation("cancelSettlement", "POST", "/v1/settlements/{id}/cancel", new string[] { "id" }, "application/json", true, false, true),
            ["createSettlementBatch"] = new Operation("createSettlementBatch", "POST", "/v1/settlements/batch", new string[] {  }, "application/json", true, false, true),
            ["getSettlementBatch"] = new Operation("getSettlementBatch", "GET", "/v1/settlements/batch/{id}", new string[] { "id" }, null, true, false, true),
            ["listAssignments"] = new Operation("listAssignments", "GET", "/v1/assignments", new string[] {  }, null, true, true, true),
            ["createAssignment"] = new Operation("createAssignment", "POST", "/v1/assignments", new string[] {  }, "application/json", true, false, true),
            ["getAssignment"] = new Operation("getAssignment", "GET", "/v1/assignments/{id}", new string[] { "id" }, null, true, false, true),
            ["listAssignmentContracts"] = new Operation("listAssignmentContracts", "GET", "/v1/assignments/{id}/contracts", new string[] { "id" }, null, true, true, true),
            ["settleAssignment"] = new Operation("settleAssignment", "POST", "/v1/assignments/{id}/settle", new string[] { "id" }, null, true, false, true),
            ["cancelAssignment"] = new Operation("cancelAssignment", "POST", "/v1/assignments/{id}/cancel", new string[] { "id" }, "application/json", true, false, true),
            ["declineAssignment"] = new Operation("declineAssignment", "POST", "/v1/assignments/{id}/decline", new string[] { "id" }, "application/json", true, false, true),
            ["buybackAssignment"] = new Operation("buybackAssignment", "POST", "/v1/assignments/{id}/buyback", new string[] { "id" }, "application/json", true, false, true),
            ["listWebhookEndpoints"] = new Operation("listWebhookEndpoints", "GET", "/v1/webhook-endpoints", new string[] {  }, null, true, true, true),
            ["createWebhookEndpoint"] = new Operation("createWebhookEndpoint", "POST", "/v1/webhook-endpoints", new string[] {  }, "application/json", true, false, true),
            ["getWebhookEndpoint"] = new Operation("getWebhookEndpoint", "GET", "/v1/webhook-endpoints/{id}", new string[] { "id" }, null, true, false, true),
            ["updateWebhookEndpoint"] = new Operation("updateWebhookEndpoint", "PATCH", "/v1/webhook-endpoints/{id}", new string[] { "id" }, "application/json", true, false, false),
            ["deleteWebhookEndpoint"] = new Operation("deleteWebhookEndpoint", "DELETE", "/v1/webhook-endpoints/{id}", new string[] { "id" }, null, true, false, true),
            ["rotateWebhookSecret"] = new Operation("rotateWebhookSecret", "POST", "/v1/webhook-endpoints/{id}/rotate-secret", new string[] { "id" }, "application/json", true, false, true),
            ["testWebhookEndpoint"] = new Operation("testWebhookEndpoint", "POST", "/v1/webhook-endpoints/{id}/test", new string[] { "id" }, null, true, false, true),
            ["recoverWebhookEndpoint"] = new Operation("recoverWebhookEndpoint", "POST", "/v1/webhook-endpoints/{id}/recover", new string[] { "id" }, "application/json", true, false, true),
            ["listEvents"] = new Operation("listEvents", "GET", "/v1/events", new string[] {  }, null, true, true, true),
            ["getEvent"] = new Operation("getEvent", "GET", "/v1/events/{id}", new string[] { "id" }, null, true, false, true),
            ["listWebhookDeliveries"] = new Operation("listWebhookDeliveries", "GET", "/v1/webhook-deliveries", new string[] {  }, null, true, true, true),
            ["getWebhookDelivery"] = new Operation("getWebhookDelivery", "GET", "/v1/webhook-deliveries/{id}", new string[] { "id" }, null, true, false, true),
            ["resendWebhookDelivery"] = new Operation("resendWebhookDelivery", "POST", "/v1/webhook-deliveries/{id}/resend", new string[] { "id" }, null, true, false, true),
            ["simulateRepasse"] = new Operation("simulateRepasse", "POST", "/v1/sandbox/repasse", new string[] {  }, "application/json", true, false, true),
        };
    }
}
