# Generated from sdk/openapi.json by sdk/python/generate.py — do not edit.
from typing import Any, Mapping, Optional


class OperationMethods:
    """One method per operation of the OpenAPI document (the client implements `_call`)."""

    def _call(self, name: str, *, path: Mapping[str, str], query: Optional[Mapping[str, Any]], body: Optional[Mapping[str, Any]], request_id: Optional[str], timeout: Optional[float], headers: Optional[Mapping[str, str]] = None) -> Any:
        raise NotImplementedError

    def get_health(self, *, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/health — Check the API, your credential and your environment"""
        return self._call("get_health", path={}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_token(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/auth/token — Get an OAuth2 access token (client credentials) or rotate a refresh token"""
        return self._call("create_token", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_open_api_document(self, *, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/openapi.json — This OpenAPI 3.1 document"""
        return self._call("get_open_api_document", path={}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_customers(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/customers — List customers"""
        return self._call("list_customers", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_customer(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/customers — Register a customer (person or company)"""
        return self._call("create_customer", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_customer(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/customers/{id} — Get a customer"""
        return self._call("get_customer", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def update_customer(self, *, id: str, body: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """PATCH /v1/customers/{id} — Update a customer"""
        return self._call("update_customer", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def delete_customer(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """DELETE /v1/customers/{id} — Erase a customer's data (LGPD) when no credit operation holds it"""
        return self._call("delete_customer", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_clients(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/clients — List customers (deprecated alias of GET /v1/customers)"""
        return self._call("list_clients", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def get_client(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/clients/{id} — Get a customer (deprecated alias of GET /v1/customers/{id})"""
        return self._call("get_client", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_simulations(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/simulations — List simulations, newest first"""
        return self._call("list_simulations", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_simulation(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/simulations — Simulate a loan: schedule, IOF and CET"""
        return self._call("create_simulation", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_simulation(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/simulations/{id} — Get a simulation"""
        return self._call("get_simulation", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_proposals(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/proposals — List proposals (newest first)"""
        return self._call("list_proposals", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_proposal(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/proposals — Create a proposal (draft) from a customer and a simulation or inline terms"""
        return self._call("create_proposal", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_proposal(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/proposals/{id} — Get a proposal"""
        return self._call("get_proposal", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def submit_proposal(self, *, id: str, body: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/proposals/{id}/submit — Submit a draft for review (draft → pending_review); a payroll draft may bring a newer margin query"""
        return self._call("submit_proposal", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def approve_proposal(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/proposals/{id}/approve — Approve (pending_review → approved); staff: proposals:review"""
        return self._call("approve_proposal", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def reject_proposal(self, *, id: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/proposals/{id}/reject — Reject with a reason (pending_review → rejected); staff: proposals:review"""
        return self._call("reject_proposal", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def sign_proposal(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/proposals/{id}/sign — Record the borrower's signature (approved → signed)"""
        return self._call("sign_proposal", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def cancel_proposal(self, *, id: str, body: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/proposals/{id}/cancel — Cancel (from draft, pending_review, approved or signed; a signed payroll proposal's averbação is ended)"""
        return self._call("cancel_proposal", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def list_contracts(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/contracts — List contracts (newest first)"""
        return self._call("list_contracts", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def issue_contract(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/contracts — Issue a contract from a signed proposal"""
        return self._call("issue_contract", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_contract(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/contracts/{id} — Get a contract"""
        return self._call("get_contract", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def cancel_contract(self, *, id: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/contracts/{id}/cancel — Cancel a contract (borrower's withdrawal within 7 days, before any payment)"""
        return self._call("cancel_contract", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def write_off_contract(self, *, id: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/contracts/{id}/write-off — Write off a contract in default (active → written_off)"""
        return self._call("write_off_contract", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def list_contract_installments(self, *, id: str, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/contracts/{id}/installments — A contract's installments, by due date"""
        return self._call("list_contract_installments", path={"id": id}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_installments(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/installments — List installments by contract, status and due-date range (earliest due first)"""
        return self._call("list_installments", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def get_installment(self, *, id: str, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/installments/{id} — Get an installment and the amount due on a date (late charges included)"""
        return self._call("get_installment", path={"id": id}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_risk_assessments(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/risk-assessments — List risk assessments, newest first"""
        return self._call("list_risk_assessments", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_risk_assessment(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/risk-assessments — Score a customer for a proposal, a simulation or inline terms"""
        return self._call("create_risk_assessment", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_risk_assessment(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/risk-assessments/{id} — Get a risk assessment"""
        return self._call("get_risk_assessment", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_margin_queries(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payroll/margin-queries — List margin queries, newest first"""
        return self._call("list_margin_queries", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_margin_query(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/payroll/margin-queries — Query a customer's payroll margin at the authority"""
        return self._call("create_margin_query", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_margin_query(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payroll/margin-queries/{id} — Get a margin query"""
        return self._call("get_margin_query", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_margin_reservations(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payroll/margin-reservations — List margin reservations, newest first"""
        return self._call("list_margin_reservations", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_margin_reservation(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/payroll/margin-reservations — Reserve an installment against a valid margin query"""
        return self._call("create_margin_reservation", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_margin_reservation(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payroll/margin-reservations/{id} — Get a margin reservation"""
        return self._call("get_margin_reservation", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def cancel_margin_reservation(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/payroll/margin-reservations/{id}/cancel — Release a reservation (reserved → released)"""
        return self._call("cancel_margin_reservation", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_endorsements(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payroll/endorsements — List endorsements, newest first"""
        return self._call("list_endorsements", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_endorsement(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/payroll/endorsements — Endorse (averbação) a signed payroll proposal against its reservation"""
        return self._call("create_endorsement", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_endorsement(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payroll/endorsements/{id} — Get an endorsement"""
        return self._call("get_endorsement", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def get_collection_account(self, *, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/collection-account — The collection account charges are issued under in this environment"""
        return self._call("get_collection_account", path={}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def put_collection_account(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """PUT /v1/collection-account — Set the collection account of this environment (collections:admin)"""
        return self._call("put_collection_account", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def list_charges(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/charges — List charges, newest first (filters: contract, status, method, due range)"""
        return self._call("list_charges", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_charge(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/charges — Create a boleto or Pix charge for open installments of a contract"""
        return self._call("create_charge", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_charge(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/charges/{id} — Get a charge"""
        return self._call("get_charge", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def cancel_charge(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/charges/{id}/cancel — Cancel a charge (pending, partially paid or overdue)"""
        return self._call("cancel_charge", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_payments(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payments — List payments received, newest first, with their allocation"""
        return self._call("list_payments", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def get_payment(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/payments/{id} — Get a payment and its allocation"""
        return self._call("get_payment", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_refunds(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/refunds — List refunds, newest first (filter: contract)"""
        return self._call("list_refunds", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_refund(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/refunds — Record money paid back to the borrower from a contract's credit"""
        return self._call("create_refund", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_refund(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/refunds/{id} — Get a refund"""
        return self._call("get_refund", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def sandbox_pay_charge(self, *, id: str, body: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/sandbox/charges/{id}/pay — Pay a charge as the bank would — sandbox only"""
        return self._call("sandbox_pay_charge", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def receive_provider_notification(self, *, provider: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/charges/notifications/{provider} — Inbound payment notification from the payment provider (no API key: HMAC-signed)"""
        return self._call("receive_provider_notification", path={"provider": provider}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_payoff_quote(self, *, id: str, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/contracts/{id}/payoff-quote — What settles the contract on a date (present value at the contract rate, plus late charges)"""
        return self._call("get_payoff_quote", path={"id": id}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_settlements(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/settlements — List settlements, newest first (filters: contract, status, type)"""
        return self._call("list_settlements", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_settlement(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/settlements — Settle a contract in full or prepay part of it"""
        return self._call("create_settlement", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_settlement(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/settlements/{id} — Get a settlement"""
        return self._call("get_settlement", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def cancel_settlement(self, *, id: str, body: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/settlements/{id}/cancel — Cancel a pending settlement (and its open charge)"""
        return self._call("cancel_settlement", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def create_settlement_batch(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/settlements/batch — Settle many contracts in one request (up to 5000 items)"""
        return self._call("create_settlement_batch", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_settlement_batch(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/settlements/batch/{id} — A settlement batch: progress and results"""
        return self._call("get_settlement_batch", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_assignments(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/assignments — List assignments, newest first (filter: status)"""
        return self._call("list_assignments", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_assignment(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/assignments — Offer contracts to an assignee (cessão) at a discount rate or a price"""
        return self._call("create_assignment", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_assignment(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/assignments/{id} — Get an assignment with its contracts and prices"""
        return self._call("get_assignment", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_assignment_contracts(self, *, id: str, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/assignments/{id}/contracts — An assignment's contracts with their prices, a page at a time (by contract id)"""
        return self._call("list_assignment_contracts", path={"id": id}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def settle_assignment(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/assignments/{id}/settle — Settle an assignment: its contracts become `assigned` and their later receipts the assignee's"""
        return self._call("settle_assignment", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def cancel_assignment(self, *, id: str, body: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/assignments/{id}/cancel — Cancel a pending assignment (its contracts are free again)"""
        return self._call("cancel_assignment", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def decline_assignment(self, *, id: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/assignments/{id}/decline — Record that the assignee declined a pending assignment (its contracts are free again)"""
        return self._call("decline_assignment", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def buyback_assignment(self, *, id: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/assignments/{id}/buyback — Buy contracts of a settled assignment back from the assignee (recompra)"""
        return self._call("buyback_assignment", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def list_webhook_endpoints(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/webhook-endpoints — List webhook endpoints, newest first (filter: enabled)"""
        return self._call("list_webhook_endpoints", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def create_webhook_endpoint(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/webhook-endpoints — Register a webhook endpoint; its signing secret is in this response only"""
        return self._call("create_webhook_endpoint", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def get_webhook_endpoint(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/webhook-endpoints/{id} — Get a webhook endpoint"""
        return self._call("get_webhook_endpoint", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def update_webhook_endpoint(self, *, id: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """PATCH /v1/webhook-endpoints/{id} — Change an endpoint's URL, event types or description, or enable / disable it"""
        return self._call("update_webhook_endpoint", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def delete_webhook_endpoint(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """DELETE /v1/webhook-endpoints/{id} — Delete a webhook endpoint and its delivery log"""
        return self._call("delete_webhook_endpoint", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def rotate_webhook_secret(self, *, id: str, body: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/webhook-endpoints/{id}/rotate-secret — Rotate an endpoint's signing secret (the old one keeps signing for 24 h)"""
        return self._call("rotate_webhook_secret", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def test_webhook_endpoint(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/webhook-endpoints/{id}/test — Send a `webhook_endpoint.test` event to this endpoint"""
        return self._call("test_webhook_endpoint", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def recover_webhook_endpoint(self, *, id: str, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/webhook-endpoints/{id}/recover — Queue again the events an endpoint missed in a window (after it was disabled or its receiver was down)"""
        return self._call("recover_webhook_endpoint", path={"id": id}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)

    def list_events(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/events — List events, newest first (filter: type)"""
        return self._call("list_events", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def get_event(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/events/{id} — Get an event"""
        return self._call("get_event", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def list_webhook_deliveries(self, *, query: Optional[Mapping[str, Any]] = None, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/webhook-deliveries — List webhook deliveries, newest first (filters: endpoint, event, status)"""
        return self._call("list_webhook_deliveries", path={}, query=query, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def get_webhook_delivery(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """GET /v1/webhook-deliveries/{id} — Get a delivery with every attempt (status code, duration, request and response bodies)"""
        return self._call("get_webhook_delivery", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def resend_webhook_delivery(self, *, id: str, request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/webhook-deliveries/{id}/resend — Send a delivery again now"""
        return self._call("resend_webhook_delivery", path={"id": id}, query=None, body=None, request_id=request_id, timeout=timeout, headers=headers)

    def simulate_repasse(self, *, body: Mapping[str, Any], request_id: Optional[str] = None, timeout: Optional[float] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """POST /v1/sandbox/repasse — Simulate the paying source's monthly transfer (repasse) of payroll installments — sandbox only"""
        return self._call("simulate_repasse", path={}, query=None, body=body, request_id=request_id, timeout=timeout, headers=headers)
