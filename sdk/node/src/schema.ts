// Generated from sdk/openapi.json by sdk/node/scripts/generate.mjs — do not edit.
export interface paths {
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check the API, your credential and your environment
         * @description Answers once the credential, tenant, environment and rate-limit checks pass. `environment` is the environment of the base address used (spec §4 rule 1); `version` is the API's semantic version. While the database is unavailable it answers 503 (`application/json`, `Retry-After`) with `status: "database_unavailable"`, so a load balancer can take the instance out of rotation.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an OAuth2 access token (client credentials) or rotate a refresh token
         * @description Form-encoded (RFC 6749). `grant_type=client_credentials` authenticates the client (HTTP Basic or `client_id`/`client_secret` in the form) and returns a 3600 s JWT access token plus a 30-day refresh token. `grant_type=refresh_token` spends the given refresh token and returns a new pair; presenting a spent refresh token revokes every token of that grant. `scope` narrows the scopes (default: all of the client's). X-Tenant-Id is optional here (the client names the tenant); when sent it must match. Not idempotent: token responses are never stored (`Cache-Control: no-store`). Errors carry RFC 6749 `error` and `error_description` alongside the problem fields.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Public: no credential needed.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers
         * @description Newest first, with the standard pagination (`limit`, `cursor` → `has_more`, `next_cursor`). Filter by `document` to find a customer by CPF or CNPJ.
         *
         *     Requires permission `customers:read`.
         */
        get: operations["listCustomers"];
        put?: never;
        /**
         * Register a customer (person or company)
         * @description The kind is inferred from `document`: a CPF makes a person, a CNPJ (numeric or the alphanumeric form of 2026) a company. Check digits are validated strictly (since 1.3.0): an invalid document is a 400 `invalid_document` with `reason` (`invalid_length`, `invalid_characters`, `repeated_digits`, `invalid_check_digits`) and the field in `errors`; so is an invalid `payroll.employer_cnpj`. `birth_date` and `payroll` are for persons, `foundation_date` for companies (400 `validation_error` otherwise). One customer per document per tenant and environment: a second one is a 409 `duplicate_document`. Emits the `customer.created` event.
         *
         *     Requires permission `customers:write`.
         */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a customer
         * @description A customer of another tenant or of the other environment answers 404, like one that does not exist.
         *
         *     Requires permission `customers:read`.
         */
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a customer
         * @description Changes only the fields sent; `null` clears an optional field; `address` and `payroll` are replaced whole. `document` and `kind` cannot change (400 unknown field). When something changes, emits `customer.updated` with `changed_fields`. A customer of another tenant or of the other environment answers 404, like one that does not exist.
         *
         *     Requires permission `customers:write`.
         */
        patch: operations["updateCustomer"];
        trace?: never;
    };
    "/v1/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers (deprecated alias of GET /v1/customers)
         * @deprecated
         * @description Deprecated since 1.1.0: use the same call under /v1/customers. Answers exactly like it, plus the headers `Deprecation: true`, `Link: </v1/customers…>; rel="successor-version"` and `Warning`. Newest first, with the standard pagination (`limit`, `cursor` → `has_more`, `next_cursor`). Filter by `document` to find a customer by CPF or CNPJ.
         *
         *     Requires permission `customers:read`.
         */
        get: operations["listClients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a customer (deprecated alias of GET /v1/customers/{id})
         * @deprecated
         * @description Deprecated since 1.1.0: use the same call under /v1/customers. Answers exactly like it, plus the headers `Deprecation: true`, `Link: </v1/customers…>; rel="successor-version"` and `Warning`. A customer of another tenant or of the other environment answers 404, like one that does not exist.
         *
         *     Requires permission `customers:read`.
         */
        get: operations["getClient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/simulations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List simulations, newest first
         * @description The standard pagination (`limit`, `cursor`). Items leave out `schedule`: get one by id for it.
         *
         *     Requires permission `simulations:read`.
         */
        get: operations["listSimulations"];
        put?: never;
        /**
         * Simulate a loan: schedule, IOF and CET
         * @description Computes and stores a simulation. Money is integer centavos (BRL); rates are decimal strings compared exactly. `principal` = net + financed fees (+ IOF when `iof_financed`, solved so the borrower still receives the net); `released_amount` = principal − financed fees − financed IOF; `upfront_charges` (fees not financed, IOF when not financed) are paid by the borrower on the disbursement date. CET (Res. CMN 4.881/2020) solves Σ installmentⱼ/(1+CET)^(daysⱼ/365) = released_amount − upfront_charges. Interest accrues on nominal monthly periods; due dates move per `due_date_rule` on the national bank calendar, and IOF and CET use the moved dates. The product's term, rate cap and amount range are enforced: 400 `product_rule_violation` with `errors`. `tax_rate` (deprecated) still works: the answer then carries `Deprecation: true`, `Link: </v1/openapi.json>; rel="deprecation"` and `Warning: 299 - "tax_rate is deprecated; use monthly_rate"`. A simulation changes no agreement, so no audit entry is written; a `simulation.created` event (without the schedule) is.
         *
         *     Requires permission `simulations:write`.
         */
        post: operations["createSimulation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/simulations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a simulation
         * @description The same object POST /v1/simulations answered. Another tenant's or environment's id: 404.
         *
         *     Requires permission `simulations:read`.
         */
        get: operations["getSimulation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List proposals (newest first)
         * @description Requires permission `proposals:read`.
         */
        get: operations["listProposals"];
        put?: never;
        /**
         * Create a proposal (draft) from a customer and a simulation or inline terms
         * @description Freezes the simulation's terms and schedule. The state machine is in docs/state-machines.md.
         *
         *     Requires permission `proposals:write`.
         */
        post: operations["createProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a proposal
         * @description Requires permission `proposals:read`.
         */
        get: operations["getProposal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a draft for review (draft → pending_review)
         * @description 409 `invalid_transition` (with `current_status` and `allowed_actions`) when the status does not allow it; nothing changes then. Submit, approve and sign are also refused once `expires_at` has passed (`current_status: expired`): the proposal is closed as expired then, as the expiry job would. A payroll proposal is approved and signed only while its margin reservation holds (reserved, before its `expires_at`): otherwise 409 `conflict` — cancel it and start from a new margin query.
         *
         *     Requires permission `proposals:write`.
         */
        post: operations["submitProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve (pending_review → approved); staff: proposals:review
         * @description 409 `invalid_transition` (with `current_status` and `allowed_actions`) when the status does not allow it; nothing changes then. Submit, approve and sign are also refused once `expires_at` has passed (`current_status: expired`): the proposal is closed as expired then, as the expiry job would. A payroll proposal is approved and signed only while its margin reservation holds (reserved, before its `expires_at`): otherwise 409 `conflict` — cancel it and start from a new margin query.
         *
         *     Requires permission `proposals:review`.
         */
        post: operations["approveProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject with a reason (pending_review → rejected); staff: proposals:review
         * @description 409 `invalid_transition` (with `current_status` and `allowed_actions`) when the status does not allow it; nothing changes then. Submit, approve and sign are also refused once `expires_at` has passed (`current_status: expired`): the proposal is closed as expired then, as the expiry job would. A payroll proposal is approved and signed only while its margin reservation holds (reserved, before its `expires_at`): otherwise 409 `conflict` — cancel it and start from a new margin query.
         *
         *     Requires permission `proposals:review`.
         */
        post: operations["rejectProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}/sign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record the borrower's signature (approved → signed)
         * @description 409 `invalid_transition` (with `current_status` and `allowed_actions`) when the status does not allow it; nothing changes then. Submit, approve and sign are also refused once `expires_at` has passed (`current_status: expired`): the proposal is closed as expired then, as the expiry job would. A payroll proposal is approved and signed only while its margin reservation holds (reserved, before its `expires_at`): otherwise 409 `conflict` — cancel it and start from a new margin query.
         *
         *     Requires permission `proposals:write`.
         */
        post: operations["signProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel (from draft, pending_review, approved or signed; a signed payroll proposal's averbação is ended)
         * @description 409 `invalid_transition` (with `current_status` and `allowed_actions`) when the status does not allow it; nothing changes then. Submit, approve and sign are also refused once `expires_at` has passed (`current_status: expired`): the proposal is closed as expired then, as the expiry job would. A payroll proposal is approved and signed only while its margin reservation holds (reserved, before its `expires_at`): otherwise 409 `conflict` — cancel it and start from a new margin query.
         *
         *     Requires permission `proposals:write`.
         */
        post: operations["cancelProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contracts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contracts (newest first)
         * @description Requires permission `contracts:read`.
         */
        get: operations["listContracts"];
        put?: never;
        /**
         * Issue a contract from a signed proposal
         * @description Creates the contract (status `active`, number `CCB-<year>-<sequence>`), its installments from the frozen schedule, and moves the proposal to `contract_issued`, all in one transaction. 409 when the proposal is not `signed`. Production: 422 `disbursement_date_passed` when the proposal's disbursement date is before today (cancel it — a payroll one's averbação is ended — and propose again); the sandbox issues back-dated contracts, so late installments and collection can be tried.
         *
         *     Requires permission `contracts:write`.
         */
        post: operations["issueContract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contracts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a contract
         * @description Requires permission `contracts:read`.
         */
        get: operations["getContract"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contracts/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a contract (borrower's withdrawal within 7 days, before any payment)
         * @description CDC art. 49: within 7 days of disbursement and before any payment (409 `invalid_transition` otherwise); 409 `conflict` while the contract is on offer in a pending portfolio assignment. Its installments, open charges and pending settlement are canceled in the same transaction, and a payroll contract's averbação is ended at the authority (endorsement `terminating`, then `terminated` by the worker).
         *
         *     Requires permission `contracts:write`.
         */
        post: operations["cancelContract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contracts/{id}/installments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A contract's installments, by due date
         * @description Requires permission `installments:read`.
         */
        get: operations["listContractInstallments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/installments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List installments by contract, status and due-date range (earliest due first)
         * @description Requires permission `installments:read`.
         */
        get: operations["listInstallments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/installments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an installment and the amount due on a date (late charges included)
         * @description Requires permission `installments:read`.
         */
        get: operations["getInstallment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/risk-assessments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List risk assessments, newest first
         * @description Requires permission `risk:read`.
         */
        get: operations["listRiskAssessments"];
        put?: never;
        /**
         * Score a customer for a proposal, a simulation or inline terms
         * @description Runs the documented scorecard (version 2026-11.4, lib/risk/scorecard.ts; README "Risk and scoring"): a score 0–1000 from income commitment, age, payroll deduction and margin, this platform's payment history, tenure and term; a band (A–E); a decision (approve ≥ 680, review 560–679, decline below, or a knock-out: insufficient margin, inactive or blocked benefit, an overdue installment, commitment above 45%, age above 85 at the last installment); reason codes with their points and text; and the maximum affordable installment. The inputs are stored with the result. Proposal submission runs the same assessment.
         *
         *     Requires permission `risk:write`.
         */
        post: operations["createRiskAssessment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/risk-assessments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a risk assessment
         * @description Requires permission `risk:read`.
         */
        get: operations["getRiskAssessment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll/margin-queries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List margin queries, newest first
         * @description Requires permission `payroll:read`.
         */
        get: operations["listMarginQueries"];
        put?: never;
        /**
         * Query a customer's payroll margin at the authority
         * @description Asks the payroll-loan authority (INSS benefit, or private employer + registration) for the margin and stores its answer: margin base, margin per kind (INSS: loans 35%, card 5%, benefit card 5%), used, reserved and available, source type and status, blocks, paying institution and existing loans (the last three added in 1.4.0), and `valid_until`. Sandbox triggers (last four digits of the INSS benefit number or of the private registration): …0001 insufficient margin (R$ 50,00 available); …0002 benefit blocked for loans; …0003 benefit ceased; …0004 the authority lets the reservation lapse before its announced `expires_at`, so the endorsement is refused with `reservation_expired`; …0005 endorsement refused (`beneficiary_consent_refused`); …0006 authority timeout (504 `authority_timeout`); …0007 authority unavailable (503 `authority_unavailable`). Any other number answers normally, deterministically from the CPF and the number. When the authority cannot answer: 502 `authority_bad_response`, 503 `authority_unavailable` (Retry-After) or 504 `authority_timeout`, all with `retryable`; nothing is stored then, and a retry with the same X-Request-Id runs again.
         *
         *     Requires permission `payroll:write`.
         */
        post: operations["createMarginQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll/margin-queries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a margin query
         * @description Requires permission `payroll:read`.
         */
        get: operations["getMarginQuery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll/margin-reservations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List margin reservations, newest first
         * @description Requires permission `payroll:read`.
         */
        get: operations["listMarginReservations"];
        put?: never;
        /**
         * Reserve an installment against a valid margin query
         * @description Checks the margin query (valid: else 422 `margin_query_expired`; source active and not blocked: else 422 `payroll_source_unavailable`; available loan margin covering the installment: else 422 `insufficient_margin`), then asks the authority. 201 with status `reserved` (and `expires_at`) or `refused` (with the authority's `refusal`). Proposal submission reserves by itself; this endpoint is for integrators that hold margin before a proposal. When the authority cannot answer: 502 `authority_bad_response`, 503 `authority_unavailable` (Retry-After) or 504 `authority_timeout`, all with `retryable`; nothing is stored then, and a retry with the same X-Request-Id runs again.
         *
         *     Requires permission `payroll:write`.
         */
        post: operations["createMarginReservation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll/margin-reservations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a margin reservation
         * @description Requires permission `payroll:read`.
         */
        get: operations["getMarginReservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll/margin-reservations/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Release a reservation (reserved → released)
         * @description Releases the margin at the authority. A reservation already past `expires_at` becomes `expired` instead. 409 `invalid_transition` from any other status; 409 `conflict` (with `proposal_id`) for a proposal's reservation, which goes with its proposal: cancel the proposal. When the authority cannot answer: 502 `authority_bad_response`, 503 `authority_unavailable` (Retry-After) or 504 `authority_timeout`, all with `retryable`; nothing is stored then, and a retry with the same X-Request-Id runs again.
         *
         *     Requires permission `payroll:write`.
         */
        post: operations["cancelMarginReservation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll/endorsements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List endorsements, newest first
         * @description Requires permission `payroll:read`.
         */
        get: operations["listEndorsements"];
        put?: never;
        /**
         * Endorse (averbação) a signed payroll proposal against its reservation
         * @description The authority registers the contract (under the CCB number shown as `contract_number`) against the proposal's reserved margin. `endorsed`: the reservation is consumed and POST /v1/contracts issues the contract under that number (before it: 409 `endorsement_required`). `refused`: the proposal is rejected with the authority's reason and its reservation released (or expired). 409 when the proposal is not signed, was already endorsed, or holds no reserved margin. Against the production authority the endorsement is written ahead: when its answer is lost (a 502, 503 or 504 here, a dropped connection), it stays `submitted` (GET /v1/payroll/endorsements?proposal_id=…) and retrying this request asks the authority again under the same idempotency key and records the answer; without a retry the worker does so a few minutes later (`endorsement.status_changed`). When the authority cannot answer: 502 `authority_bad_response`, 503 `authority_unavailable` (Retry-After) or 504 `authority_timeout`, all with `retryable`; nothing is stored then, and a retry with the same X-Request-Id runs again.
         *
         *     Requires permission `payroll:write`.
         */
        post: operations["createEndorsement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll/endorsements/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an endorsement
         * @description Requires permission `payroll:read`.
         */
        get: operations["getEndorsement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/collection-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The collection account charges are issued under in this environment
         * @description The bank agreement for boletos and the Pix receiver of the credential's tenant and environment. In the sandbox, a tenant that set none gets the shared default (`shared_default: true`: bank 001, agreement 1234567, wallet 17); in production, 404 until one is set.
         *
         *     Requires permission `collections:read`.
         */
        get: operations["getCollectionAccount"];
        /**
         * Set the collection account of this environment (collections:admin)
         * @description Where borrowers' money goes, so it needs `collections:admin`, granted only by name (never by the coarse `write`), and every change is audited with the previous values. Charges already issued keep the account they were issued under (`beneficiary` on the charge); new ones use this one, with a nosso número sequence per agreement. An agreement belongs to one tenant per environment (400 otherwise). Replaces the whole account (PUT): send every field.
         *
         *     Requires permission `collections:admin`.
         */
        put: operations["putCollectionAccount"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/charges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List charges, newest first (filters: contract, status, method, due range)
         * @description Requires permission `collections:read`.
         */
        get: operations["listCharges"];
        put?: never;
        /**
         * Create a boleto or Pix charge for open installments of a contract
         * @description The amount comes from the finance library: each installment's open amount, plus late fine and pro-rata late interest up to the charge's due date when the installment is already late then (`breakdown`). Boleto: a FEBRABAN barcode (44 digits, mod-11 general check digit, due-date factor with the 2025-02-22 rollover) and its linha digitável, under the collection account's bank, agreement and wallet (sandbox: Banco do Brasil layout, agreement 1234567, wallet 17). Pix: a dynamic BR Code (`cob`, expiring after `expires_in` seconds, or `cobv` with a due date, fine and interest) with a BCB txid and its QR code (`pix.qr_code`, PNG). Every charge has a `payment_page_url` the borrower can open and print. 409 `collection_not_configured` in production until the tenant sets its collection account (PUT /v1/collection-account); 409 `contract_not_active` for a settled, canceled or written-off contract.
         *
         *     Requires permission `collections:write`.
         */
        post: operations["createCharge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/charges/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a charge
         * @description Requires permission `collections:read`.
         */
        get: operations["getCharge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/charges/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a charge (pending, partially paid or overdue)
         * @description 409 `invalid_transition` for a paid, canceled or expired charge; 409 `conflict` for a settlement's charge (cancel the settlement: its charge goes with it). Nothing changes then.
         *
         *     Requires permission `collections:write`.
         */
        post: operations["cancelCharge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments received, newest first, with their allocation
         * @description Requires permission `collections:read`.
         */
        get: operations["listPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment and its allocation
         * @description Requires permission `collections:read`.
         */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List refunds, newest first (filter: contract)
         * @description Requires permission `collections:read`.
         */
        get: operations["listRefunds"];
        put?: never;
        /**
         * Record money paid back to the borrower from a contract's credit
         * @description A contract's credit (`credit_balance`: money received beyond what was owed — an overpaid charge, a boleto paid twice, a payment after the contract closed) is the borrower's. Send it back with your bank (Pix, TED) and record it here: the contract's `credit_balance` goes down by `amount` (default: all of it) in one transaction with the refund, its audit row and the event `refund.created`. Any contract status. 409 `insufficient_credit` when the refundable credit is 0 or less than `amount` (`credit_balance` and `refundable` in the problem: money paid toward a pending settlement, and the credit a pending full settlement netted from its payoff, are not refundable until it ends). Idempotent by `X-Request-Id`: send one, since a retry without it would record the refund twice (the second then fails if the credit no longer covers it).
         *
         *     Requires permission `collections:write`.
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a refund
         * @description Requires permission `collections:read`.
         */
        get: operations["getRefund"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/charges/{id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a charge as the bank would — sandbox only
         * @description Applies a payment (default: all that is open on the charge as of `paid_on`) exactly as a provider's notification would: allocated oldest installment first — late fine, late interest, interest, principal — and the rest kept as the contract's credit. A pending settlement's charge: parts short of its amount are held as the contract's credit; the part that reaches it completes the settlement. 409 for a paid, canceled or expired charge (an immediate Pix past its expiry too, before the job marks it), or one with nothing left open and no `amount`; 400 for a `paid_on` before the charge was issued. 404 on the production address.
         *
         *     Requires permission `collections:write`.
         */
        post: operations["sandboxPayCharge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/charges/notifications/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Inbound payment notification from the payment provider (no API key: HMAC-signed)
         * @description For payment providers, not integrators. Authenticated by `X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` with the provider's secret; a timestamp more than 300 s away, a wrong or missing signature: 401 `invalid_signature`, before the body is read. Idempotent by `event_id` per provider: a repeated event answers the payment already made (`replayed: true`) and applies nothing. The charge is found by `txid` (Pix) or `our_number` (boleto) in the environment of the address called (404 when unknown). The payment is allocated like any other. Money for a charge that can no longer be paid (paid, canceled or expired: a boleto paid twice, or after its cancellation) is recorded, never refused: a payment with no `allocations` whose whole amount is the contract's `credit` (kept until used or refunded), with `payment.received`; the charge stays as it is.
         */
        post: operations["receiveProviderNotification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contracts/{id}/payoff-quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What settles the contract on a date (present value at the contract rate, plus late charges)
         * @description Each open installment at its present value on `date` at the contract rate — t = whole months + days/30 from `date` to its due date; interest removed pro rata for paying early (CDC art. 52 §2), rounded half-up per installment so the lines add up to the total — or at face value when due on or before `date`, plus the late fine and pro-rata late interest of those already late, less the contract's credit. Nothing is stored; `valid_until` is the end of `date` in Brasília. 409 `contract_not_active` for a contract neither active nor assigned (an assigned one is quoted and settled: the borrower's right to pay early survives the sale).
         *
         *     Requires permission `settlements:read`.
         */
        get: operations["getPayoffQuote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List settlements, newest first (filters: contract, status, type)
         * @description Requires permission `settlements:read`.
         */
        get: operations["listSettlements"];
        put?: never;
        /**
         * Settle a contract in full or prepay part of it
         * @description `full`: pays the payoff quote of `date` and, once completed, closes the contract (`settled`, event `contract.closed`). `partial`: prepays `amount` and reschedules what is left on the same due dates by the contract's amortization system — every remaining installment smaller (`reduce: installment_amount`) or the same installment and fewer of them (`reduce: term`, the last ones canceled); installments due by `date` must be paid first (409 `open_installments_due`), and an `amount` leaving too little to spread (a R$ 0,00 installment) is 400. `payment_method: received` completes it immediately (funds that arrived outside the platform; dated today, a later `date` is 400); `boleto` / `pix` issue a charge for the amount (`charge_id`) and paying it completes the settlement (parts short of the amount are held as the contract's credit, allocated to nothing, until the rest arrives); a pending settlement not paid by its date is canceled by the collection job two business days after it (a boleto paid on the date is cleared and notified the next business day). One pending settlement per contract (409 `conflict`).
         *
         *     Requires permission `settlements:write`.
         */
        post: operations["createSettlement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a settlement
         * @description Requires permission `settlements:read`.
         */
        get: operations["getSettlement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending settlement (and its open charge)
         * @description 409 `invalid_transition` for a completed or canceled settlement; nothing changes then.
         *
         *     Requires permission `settlements:write`.
         */
        post: operations["cancelSettlement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Settle many contracts in one request (up to 5000 items)
         * @description Each item is a CreateSettlementBody, validated and applied in its own transaction; `results` has one entry per item in request order: `created` with its `settlement_id`, or `failed` with the problem a single request would have got (field errors named `items.<index>.<field>`). More than 5000 items: 413 `batch_too_large`, nothing applied. Idempotent by X-Request-Id (send one): repeating it replays the finished batch (`Idempotent-Replayed: true`); while another request is processing it, 409 `idempotency_in_progress` (retry later); if that request died (its lease, IDEMPOTENCY_LEASE_SECONDS, default 30 s, lapsed), the repeat takes over and applies only the items without a result — every item exactly once. The same X-Request-Id with other items: 422. Progress: GET /v1/settlements/batch/{id}.
         *
         *     Requires permission `settlements:write`.
         */
        post: operations["createSettlementBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements/batch/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A settlement batch: progress and results
         * @description Requires permission `settlements:read`.
         */
        get: operations["getSettlementBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assignments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List assignments, newest first (filter: status)
         * @description Requires permission `assignments:read`.
         */
        get: operations["listAssignments"];
        put?: never;
        /**
         * Offer contracts to an assignee (cessão) at a discount rate or a price
         * @description 1–1000 active contracts, priced on `settlement_date`: with `discount_rate`, each contract's price is the present value of its open installments at that monthly rate (t = whole months + days/30 to each due date; face value when already due), rounded per installment; with `price`, the total is shared in proportion to the contracts' open face value (largest remainder). `pending` until settled or canceled. A contract can be in one pending or settled assignment only, not with a pending settlement, not while it holds the borrower's credit (`credit_balance` > 0: the payoff would net it from the assignee's money — refund or apply it first), and only while active (409 `conflict` / `contract_not_active`; a race is settled by a unique index). `discount_rate` from 0 to 1. Assignee CNPJ validated (400 `invalid_document`). A pending assignment not settled by `settlement_date` and the two business days a payment takes to clear is canceled by the collection job (reason `lapsed: not settled by its date`).
         *
         *     Requires permission `assignments:write`.
         */
        post: operations["createAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assignments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an assignment with its contracts and prices
         * @description Requires permission `assignments:read`.
         */
        get: operations["getAssignment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assignments/{id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Settle an assignment: its contracts become `assigned` and their later receipts the assignee's
         * @description pending → settled. Every contract must still be active (409 `contract_not_active` otherwise: cancel and make a new one) and have the open face value it was priced on (409 `conflict` with `face_value` and `priced_face_value` when it was paid since); each becomes `assigned` (`assignment_id` on the contract, event `contract.assigned`) and is still collected — charges, repasse — with every later payment marked with the `assignment_id`; the borrower may still pay it off early (`POST /v1/settlements`, the payment the assignee's). 409 `conflict` for a contract that came to hold the borrower's credit since; 409 `invalid_transition` past `settlement_date` and its two clearing business days (the prices are present values on that date: make a new one). Event `assignment.status_changed`.
         *
         *     Requires permission `assignments:write`.
         */
        post: operations["settleAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assignments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending assignment (its contracts are free again)
         * @description pending → canceled; a settled or canceled one: 409 `invalid_transition`. Event `assignment.status_changed`.
         *
         *     Requires permission `assignments:write`.
         */
        post: operations["cancelAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints, newest first (filter: enabled)
         * @description Requires permission `webhooks:read`.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint; its signing secret is in this response only
         * @description Events of the credential's environment are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `secret` returned here — store it; it is never shown again (rotate to get a new one). Production URLs must be https and resolve only to public addresses: loopback, private, link-local (169.254.169.254 included), unique-local, multicast and reserved addresses are refused (400 `validation_error` on `url`), here and again before every delivery. Events from the endpoint's creation on are delivered. At most 20 endpoints per environment (409 `conflict`). Each event type subscribed to needs its resource's read permission (`["*"]`: all of them; 403 `forbidden` otherwise).
         *
         *     Requires permission `webhooks:write`.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description Requires permission `webhooks:read`.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its delivery log
         * @description Requires permission `webhooks:write`.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change an endpoint's URL, event types or description, or enable / disable it
         * @description A new `url` is checked as at creation. Disabling ends the endpoint's pending deliveries (`failed`); events while disabled are not delivered (read them with GET /v1/events). Enabling an endpoint the platform disabled (410, or failing for 3 days) clears the reason. Narrowing `event_types` ends its pending deliveries of the types dropped (`failed`). A new `url` or enabling it again is 403 unless the credential may read every event type the endpoint carries now (before this request's `event_types` apply). Events carry their module's objects, so a credential reads — lists, fetches, sees in a delivery's body, subscribes to — only the event types whose resource it may read (`customer.*` needs `customers:read`, `charge.*` `collections:read`, …; coarse `read` grants all): others are left out of lists, and asking for one is 403.
         *
         *     Requires permission `webhooks:write`.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret (the old one keeps signing for 24 h)
         * @description The new secret is in this response only. During the grace period (default 24 h, `grace_period_seconds`) every delivery carries two signatures in `webhook-signature`, one per secret, so a receiver holding either verifies; then only the new one. 0 drops the old secret immediately (for a leaked one). Whoever holds the secret can sign as the platform to the receiver: 403 unless the credential may read every event type the endpoint carries.
         *
         *     Requires permission `webhooks:write`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a `webhook_endpoint.test` event to this endpoint
         * @description Delivered like any event (signed, retried), to this endpoint only. A disabled endpoint: 409 `conflict`.
         *
         *     Requires permission `webhooks:write`.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events, newest first (filter: type)
         * @description Every event of the credential's environment, as webhooks deliver it: for reconciling after downtime, or polling without webhooks. Events carry their module's objects, so a credential reads — lists, fetches, sees in a delivery's body, subscribes to — only the event types whose resource it may read (`customer.*` needs `customers:read`, `charge.*` `collections:read`, …; coarse `read` grants all): others are left out of lists, and asking for one is 403.
         *
         *     Requires permission `webhooks:read`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an event
         * @description 403 `forbidden` for an event whose resource the credential may not read. Events carry their module's objects, so a credential reads — lists, fetches, sees in a delivery's body, subscribes to — only the event types whose resource it may read (`customer.*` needs `customers:read`, `charge.*` `collections:read`, …; coarse `read` grants all): others are left out of lists, and asking for one is 403.
         *
         *     Requires permission `webhooks:read`.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook deliveries, newest first (filters: endpoint, event, status)
         * @description Deliveries of events the credential may not read are left out. Events carry their module's objects, so a credential reads — lists, fetches, sees in a delivery's body, subscribes to — only the event types whose resource it may read (`customer.*` needs `customers:read`, `charge.*` `collections:read`, …; coarse `read` grants all): others are left out of lists, and asking for one is 403.
         *
         *     Requires permission `webhooks:read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery with every attempt (status code, duration, request and response bodies)
         * @description 403 `forbidden` for a delivery of an event the credential may not read (its request body is the event). Events carry their module's objects, so a credential reads — lists, fetches, sees in a delivery's body, subscribes to — only the event types whose resource it may read (`customer.*` needs `customers:read`, `charge.*` `collections:read`, …; coarse `read` grants all): others are left out of lists, and asking for one is 403.
         *
         *     Requires permission `webhooks:read`.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again now
         * @description A failed or succeeded delivery becomes `pending`, its next attempt due now (its attempts so far stay in the log; if this one fails, retries go on from where the schedule stood, 12 attempts in all). 409 `conflict` while an attempt is in flight or the endpoint is disabled.
         *
         *     Requires permission `webhooks:write`.
         */
        post: operations["resendWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/repasse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Simulate the paying source's monthly transfer (repasse) of payroll installments — sandbox only
         * @description Applies a competence month's transfer from the paying source (INSS, or the employer) to the environment's active payroll contracts (or `contract_ids`): `full` pays every installment due in the month, `partial` pays `partial_percent` of each (partially_paid), `none` pays nothing (they stay open, overdue after their due date). Each contract in its own transaction: payments (source `inss_repasse` or `private_payroll_repasse`), installments, the contract's `amount_paid` and `outstanding_balance`, and the events `installment.paid` / `installment.partially_paid` and `repasse.processed` (a contract whose last installment it pays closes: `settled`, event `contract.closed` with reason `paid_off`). A month already processed for a contract is skipped (`already_processed`): running it twice changes nothing the second time. On the production address this operation does not exist (404).
         *
         *     Requires permission `payroll:write`.
         */
        post: operations["simulateRepasse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "customer.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * customer.created
         * @description A customer was registered.
         *
         *     POSTed to each enabled endpoint subscribed to `customer.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_customer_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "customer.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * customer.updated
         * @description A customer's contact, address, income or payroll data changed.
         *
         *     POSTed to each enabled endpoint subscribed to `customer.updated` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_customer_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "simulation.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * simulation.created
         * @description A simulation was priced (its schedule: GET /v1/simulations/{id}).
         *
         *     POSTed to each enabled endpoint subscribed to `simulation.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_simulation_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "proposal.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * proposal.created
         * @description A proposal was created from a simulation (status `draft`).
         *
         *     POSTed to each enabled endpoint subscribed to `proposal.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_proposal_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "proposal.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * proposal.status_changed
         * @description A proposal moved: submitted, approved, rejected, signed, canceled, expired or contract issued.
         *
         *     POSTed to each enabled endpoint subscribed to `proposal.status_changed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_proposal_status_changed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "risk_assessment.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * risk_assessment.created
         * @description A risk assessment was made (on submit, or by POST /v1/risk-assessments).
         *
         *     POSTed to each enabled endpoint subscribed to `risk_assessment.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_risk_assessment_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "margin_query.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * margin_query.completed
         * @description The payroll authority answered a margin query.
         *
         *     POSTed to each enabled endpoint subscribed to `margin_query.completed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_margin_query_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "margin_reservation.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * margin_reservation.status_changed
         * @description A margin reservation was reserved, refused, consumed, released or expired.
         *
         *     POSTed to each enabled endpoint subscribed to `margin_reservation.status_changed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_margin_reservation_status_changed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "endorsement.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * endorsement.status_changed
         * @description The payroll authority endorsed (averbação) or refused an endorsement; or, once its contract closed or was withdrawn, its termination was requested (terminating) or confirmed (terminated).
         *
         *     POSTed to each enabled endpoint subscribed to `endorsement.status_changed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_endorsement_status_changed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contract.issued": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contract.issued
         * @description A contract (CCB) was issued from a signed proposal, with its installments.
         *
         *     POSTed to each enabled endpoint subscribed to `contract.issued` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_contract_issued"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contract.closed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contract.closed
         * @description A contract was settled in full (by a settlement or by its last payment).
         *
         *     POSTed to each enabled endpoint subscribed to `contract.closed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_contract_closed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contract.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contract.canceled
         * @description A contract was canceled within its cancellation window.
         *
         *     POSTed to each enabled endpoint subscribed to `contract.canceled` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_contract_canceled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contract.assigned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contract.assigned
         * @description A contract was sold in a settled assignment; its later receipts are the assignee's.
         *
         *     POSTed to each enabled endpoint subscribed to `contract.assigned` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_contract_assigned"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contract.written_off": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contract.written_off
         * @description A contract was written off.
         *
         *     POSTed to each enabled endpoint subscribed to `contract.written_off` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_contract_written_off"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contract.credit_applied": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contract.credit_applied
         * @description The contract's credit (money received beyond what was owed) paid installments that fell due; the payment (source `contract_credit`) says how.
         *
         *     POSTed to each enabled endpoint subscribed to `contract.credit_applied` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_contract_credit_applied"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "installment.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * installment.paid
         * @description An installment was paid in full.
         *
         *     POSTed to each enabled endpoint subscribed to `installment.paid` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_installment_paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "installment.partially_paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * installment.partially_paid
         * @description Part of an installment was paid (payroll repasse short of the installment).
         *
         *     POSTed to each enabled endpoint subscribed to `installment.partially_paid` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_installment_partially_paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "installment.overdue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * installment.overdue
         * @description An installment was still unpaid once late: after its due date, or after the next business day when that was a weekend or holiday (once per installment).
         *
         *     POSTed to each enabled endpoint subscribed to `installment.overdue` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_installment_overdue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "charge.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * charge.created
         * @description A boleto or Pix charge was issued.
         *
         *     POSTed to each enabled endpoint subscribed to `charge.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_charge_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "charge.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * charge.paid
         * @description A charge was paid in full.
         *
         *     POSTed to each enabled endpoint subscribed to `charge.paid` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_charge_paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "charge.partially_paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * charge.partially_paid
         * @description Part of a charge was paid.
         *
         *     POSTed to each enabled endpoint subscribed to `charge.partially_paid` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_charge_partially_paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "charge.overdue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * charge.overdue
         * @description A charge passed its due date unpaid.
         *
         *     POSTed to each enabled endpoint subscribed to `charge.overdue` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_charge_overdue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "charge.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * charge.canceled
         * @description A charge was canceled.
         *
         *     POSTed to each enabled endpoint subscribed to `charge.canceled` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_charge_canceled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "charge.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * charge.expired
         * @description An immediate Pix charge (cob) expired unpaid.
         *
         *     POSTed to each enabled endpoint subscribed to `charge.expired` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_charge_expired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.received": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.received
         * @description A payment was received: allocated to installments, what is left (all of it for a charge no longer payable) kept as the contract's credit.
         *
         *     POSTed to each enabled endpoint subscribed to `payment.received` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_payment_received"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * refund.created
         * @description Money was paid back to the borrower from the contract's credit (recorded with POST /v1/refunds).
         *
         *     POSTed to each enabled endpoint subscribed to `refund.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_refund_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "repasse.processed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * repasse.processed
         * @description The paying source's monthly transfer (repasse) was applied to a payroll contract.
         *
         *     POSTed to each enabled endpoint subscribed to `repasse.processed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_repasse_processed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "settlement.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * settlement.created
         * @description A full settlement or partial prepayment was requested.
         *
         *     POSTed to each enabled endpoint subscribed to `settlement.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_settlement_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "settlement.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * settlement.completed
         * @description A settlement was paid and applied.
         *
         *     POSTed to each enabled endpoint subscribed to `settlement.completed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_settlement_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "settlement.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * settlement.canceled
         * @description A pending settlement was canceled or lapsed.
         *
         *     POSTed to each enabled endpoint subscribed to `settlement.canceled` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_settlement_canceled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "assignment.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * assignment.created
         * @description Contracts were offered to an assignee (cessão).
         *
         *     POSTed to each enabled endpoint subscribed to `assignment.created` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_assignment_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "assignment.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * assignment.status_changed
         * @description An assignment was settled or canceled.
         *
         *     POSTed to each enabled endpoint subscribed to `assignment.status_changed` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_assignment_status_changed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook_endpoint.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook_endpoint.test
         * @description Sent by POST /v1/webhook-endpoints/{id}/test to that endpoint only (never to others, not listed by subscriptions).
         *
         *     POSTed to each enabled endpoint subscribed to `webhook_endpoint.test` (or `*`) in the event's environment. Only a 2xx within 10 s counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% jitter — 12 attempts over about 3 days. A 410 disables the endpoint. At least once, in no promised order: deduplicate on `webhook-id`.
         */
        post: operations["webhook_webhook_endpoint_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description A person (CPF) or company (CNPJ) of this tenant and environment. Absent fields are null. */
        Customer: {
            /** @example cus_01JD0000000000000000000000 */
            id: string;
            /** @enum {string} */
            object: "customer";
            /**
             * @description Inferred from the document: CPF → person, CNPJ → company.
             * @enum {string}
             */
            kind: "person" | "company";
            /**
             * @description Normalized: 11 digits (CPF) or 14 upper-case characters (CNPJ).
             * @example 52998224725
             */
            document: string;
            /** @example 529.982.247-25 */
            document_formatted: string;
            name: string;
            /** @description YYYY-MM-DD (persons). */
            birth_date: string | null;
            /** @description YYYY-MM-DD (companies). */
            foundation_date: string | null;
            email: string | null;
            phone: string | null;
            address: {
                street: string;
                number: string;
                complement: string | null;
                district: string;
                city: string;
                /** @enum {string} */
                state: "AC" | "AL" | "AP" | "AM" | "BA" | "CE" | "DF" | "ES" | "GO" | "MA" | "MT" | "MS" | "MG" | "PA" | "PB" | "PR" | "PE" | "PI" | "RJ" | "RN" | "RS" | "RO" | "RR" | "SC" | "SP" | "SE" | "TO";
                /** @description CEP, 8 digits. */
                zip_code: string;
            } | null;
            /** @description Integer centavos of BRL. */
            monthly_income: number | null;
            payroll: {
                /** @enum {string} */
                type: "inss";
                benefit_number: string;
            } | {
                /** @enum {string} */
                type: "private";
                /** @description Normalized CNPJ. */
                employer_cnpj: string;
                registration: string;
            } | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            /** @description ISO 8601 UTC. */
            created_at: string;
            /** @description ISO 8601 UTC. */
            updated_at: string;
        };
        /** @description A simulation without its schedule and IOF rows (list items; GET by id for them). */
        SimulationSummary: {
            /** @example sim_01JD0000000000000000000000 */
            id: string;
            /** @enum {string} */
            object: "simulation";
            /** @enum {string} */
            product: "inss_payroll" | "private_payroll" | "personal_loan";
            /** @enum {string} */
            amortization: "price" | "sac";
            term: number;
            /** @description Monthly rate used, normalized decimal fraction. */
            monthly_rate: string;
            /** @description Effective annual rate (1 + monthly_rate)^12 − 1, decimal fraction, 8 decimals. */
            annual_rate: string;
            /** @enum {string} */
            borrower_kind: "PF" | "PJ";
            /** @description The request's net amount; null when solved from `installment_amount`. */
            requested_amount: number | null;
            /** @description Financed principal = net + financed fees + financed IOF, centavos. */
            principal: number;
            /** @description Credit released to the borrower = principal − financed fees − financed IOF, centavos. */
            released_amount: number;
            /** @description IOF (when not financed) + fees not financed: paid by the borrower on the disbursement date, centavos. */
            upfront_charges: number;
            /** @description First installment, centavos (Price: every installment but the last, which absorbs rounding). */
            installment_amount: number;
            /** @description The largest installment of the schedule, centavos. Payroll products check the margin, reserve and endorse this amount: the paying source deducts one fixed amount a month. */
            max_installment_amount: number;
            /** @description IOF-crédito on the principal (rates in the product configuration). */
            iof: {
                /** @description Σ of the `iof_schedule` rows' `iof` (each rounded on its row), centavos. */
                daily: number;
                /** @description principal × 0.38%, half-up, centavos. */
                additional: number;
                /** @description daily + additional. */
                total: number;
                financed: boolean;
            };
            fees: components["schemas"]["SimulationFee"][];
            totals: {
                /** @description Σ installments, centavos. */
                payments: number;
                /** @description Σ interest, centavos. */
                interest: number;
                /** @description Σ amortization = principal, centavos. */
                amortization: number;
            };
            /** @description Custo Efetivo Total (Res. CMN 4.881/2020), percent with 2 decimals: the annual rate solving Σ installmentⱼ / (1+CET)^(daysⱼ/365) = released_amount − upfront_charges; monthly = (1+annual)^(1/12) − 1. */
            cet: {
                /** @example 2.27 */
                monthly_percent: string;
                /** @example 30.91 */
                annual_percent: string;
            };
            disbursement_date: string;
            /** @description Nominal first due date (the schedule's first row shows the adjusted one). */
            first_due_date: string;
            /** @enum {string} */
            due_date_rule: "following" | "preceding" | "keep";
            customer_id: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
        };
        SimulationFee: {
            /**
             * @description `origination` (TAC), `registration` (cadastro) or `insurance` (prestamista), one of each at most.
             * @enum {string}
             */
            type: "origination" | "registration" | "insurance";
            /** @description Amount in centavos (BRL). */
            amount: number;
            /** @description true: added to the principal (bears interest, paid in the installments). false: paid by the borrower on the disbursement date (counts in `upfront_charges` and in the CET). */
            financed: boolean;
        };
        Proposal: {
            id: string;
            /** @enum {string} */
            object: "proposal";
            /** @enum {string} */
            status: "draft" | "pending_review" | "approved" | "rejected" | "signed" | "contract_issued" | "canceled" | "expired";
            /** @description Actions the current status allows. */
            allowed_actions: string[];
            customer_id: string;
            simulation_id: string | null;
            /** @description Payroll products: the margin query the installment was checked against. */
            margin_query_id: string | null;
            /** @description The assessment submission ran (GET /v1/risk-assessments/{id}); null before submission. */
            risk_assessment_id: string | null;
            terms: {
                product: string;
                amortization: string;
                /** @description Financed principal, centavos. */
                principal: number;
                /** @description Amount released to the borrower, centavos. */
                released_amount: number;
                installment_amount: number;
                /** @description The largest installment: what payroll products reserve and endorse against the margin. */
                max_installment_amount: number;
                monthly_rate: string;
                term: number;
                disbursement_date: string;
                first_due_date: string;
                cet: {
                    monthly_percent: string;
                    annual_percent: string;
                };
            };
            reason: string | null;
            /** @description After this instant the proposal is closed as `expired` unless signed. */
            expires_at: string | null;
            contract_id: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        RiskAssessment: {
            /** @example rsk_01JD2Z6Q7X9V3K8M4N5P6R7S8T */
            id: string;
            /** @enum {string} */
            object: "risk_assessment";
            customer_id: string;
            proposal_id: string | null;
            margin_query_id: string | null;
            /** @example 2026-11.4 */
            scorecard_version: string;
            score: number;
            /**
             * @description A ≥ 800, B ≥ 680, C ≥ 560, D ≥ 440, E below.
             * @enum {string}
             */
            band: "A" | "B" | "C" | "D" | "E";
            /**
             * @description approve (score ≥ 680), review (560–679), decline (below 560 or a knock-out).
             * @enum {string}
             */
            decision: "approve" | "review" | "decline";
            reasons: components["schemas"]["RiskReason"][];
            /** @description The largest installment the borrower can take, integer centavos: 35% of the monthly income minus other debts, capped by the available payroll margin. */
            max_affordable_installment: number;
            inputs: components["schemas"]["RiskInputs"];
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
        };
        RiskReason: {
            /**
             * @description Stable machine code.
             * @enum {string}
             */
            code: "income_commitment_low" | "income_commitment_moderate" | "income_commitment_high" | "income_commitment_excessive" | "income_not_declared" | "birth_date_not_declared" | "young_borrower" | "borrower_age_26_to_60" | "borrower_age_61_to_75" | "age_at_term_end_above_limit" | "payroll_deduction" | "margin_covers_installment" | "insufficient_margin" | "payroll_source_inactive" | "benefit_blocked_for_loans" | "recent_default" | "installment_overdue" | "good_payment_history" | "established_customer" | "long_term" | "installment_above_affordable";
            /** @description What the factor added to (or took from) the score; 0 for knock-outs. */
            points: number;
            /** @description What the code means, for a person. */
            description: string;
        };
        /** @description Everything the scorecard read, stored so the decision can be recomputed and audited. */
        RiskInputs: {
            as_of: string;
            /** @enum {string} */
            customer_kind: "person" | "company";
            birth_date: string | null;
            customer_since: string;
            monthly_income: number | null;
            other_monthly_debt: number;
            installment_amount: number;
            term_months: number;
            /** @description The last installment's due date (the age at term end is taken there); null for inline terms: `as_of` + the term. */
            last_due_date: string | null;
            product: string;
            payroll_deducted: boolean;
            margin: {
                available_loan_margin: number;
                source_status: string;
                blocked_for_loans: boolean;
            } | null;
            history: {
                paid_installments: number;
                overdue_now: number;
                late_over_30_days_last_12_months: number;
            };
        };
        /** @description A margin query's result as the authority answered it. Sandbox triggers (last four digits of the INSS benefit number or of the private registration): …0001 insufficient margin (R$ 50,00 available); …0002 benefit blocked for loans; …0003 benefit ceased; …0004 the authority lets the reservation lapse before its announced `expires_at`, so the endorsement is refused with `reservation_expired`; …0005 endorsement refused (`beneficiary_consent_refused`); …0006 authority timeout (504 `authority_timeout`); …0007 authority unavailable (503 `authority_unavailable`). Any other number answers normally, deterministically from the CPF and the number. */
        MarginQuery: {
            /** @example mgq_01JD2Z6Q7X9V3K8M4N5P6R7S8T */
            id: string;
            /** @enum {string} */
            object: "margin_query";
            customer_id: string;
            source: components["schemas"]["PayrollSource"];
            /**
             * @description Who answered: the sandbox simulator or the real authority.
             * @enum {string}
             */
            authority: "sandbox_simulator" | "http";
            authority_query_id: string;
            /** @description The benefit (INSS) or available remuneration (private payroll) the shares apply to. Integer centavos. */
            margin_base: number;
            /** @description INSS: loan 35%, credit_card 5%, benefit_card 5%. Private payroll: loan 35%. */
            margins: components["schemas"]["Margin"][];
            /** @description The loan margin still available now (after this platform's reservations from this query). Integer centavos. */
            available_loan_margin: number;
            /** @description INSS benefit species (e.g. "41" old-age retirement) or the employment type ("clt"). */
            source_type: string;
            /** @enum {string} */
            source_status: "active" | "blocked" | "suspended" | "ceased";
            /** @description Blocks on new deductions, e.g. `blocked_for_loans`. Added in 1.4.0. */
            blocks: {
                code: string;
                description: string;
            }[];
            /** @description Where the benefit or salary is paid. Added in 1.4.0. */
            paying_institution: {
                code: string;
                name: string;
            };
            /** @description Loans already deducted from this source. Added in 1.4.0. */
            existing_loans: {
                lender: string;
                contract_number: string;
                installment_amount: number;
                remaining_installments: number;
            }[];
            /** @description After this instant the result may not back a proposal or reservation (query again). */
            valid_until: string;
            /**
             * @description `expired` once `valid_until` has passed.
             * @enum {string}
             */
            status: "valid" | "expired";
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
        };
        PayrollSource: {
            /** @enum {string} */
            type: "inss" | "private";
            benefit_number?: string;
            employer_cnpj?: string;
            registration?: string;
        };
        Margin: {
            /**
             * @description loan (empréstimo), credit_card (RMC), benefit_card (RCC).
             * @enum {string}
             */
            kind: "loan" | "credit_card" | "benefit_card";
            /**
             * @description Share of the margin base for this kind, decimal ("0.35").
             * @example 0.35
             */
            share: string;
            /** @description Margin of this kind. Integer centavos. */
            total: number;
            /** @description Taken by existing deductions. Integer centavos. */
            used: number;
            /** @description Held by reservations: the authority's at query time plus this platform's active reservations made from this query. Integer centavos. */
            reserved: number;
            /** @description total − used − reserved. Integer centavos. */
            available: number;
        };
        /** @description The authority's reason, as it gave it. */
        AuthorityRefusal: {
            code: string;
            message: string;
        } | null;
        Contract: {
            id: string;
            /** @enum {string} */
            object: "contract";
            /**
             * @description The contract (CCB) number, unique per tenant and environment.
             * @example CCB-2026-000001
             */
            number: string;
            /**
             * @description `active` once disbursed; `settled` when closed — its last installment paid (event `contract.closed`, reason `paid_off`) or a full settlement completed (reason `settled`); `assigned` once sold in a portfolio assignment (closes as `settled` when paid off); `written_off`; `canceled` (withdrawal right).
             * @enum {string}
             */
            status: "active" | "settled" | "written_off" | "assigned" | "canceled";
            proposal_id: string;
            customer_id: string;
            product: string;
            amortization: string;
            principal: number;
            released_amount: number;
            monthly_rate: string;
            /** @description Installments as contracted. A partial settlement reschedules the installments (GET …/installments; the settlement's `reschedule`), not this. */
            term: number;
            disbursement_date: string;
            first_due_date: string;
            /** @description The installment as contracted, integer centavos. After a partial settlement the installments carry their new amounts; this stays. */
            installment_amount: number;
            /** @description Received on the installments so far, integer centavos. */
            amount_paid: number;
            /** @description `assigned`: the portfolio assignment it was sold in (GET /v1/assignments/{id}); its later receipts are the assignee's. */
            assignment_id: string | null;
            /** @description What remains of the installments: their amounts less what was paid on them (0 once settled or canceled), integer centavos. */
            outstanding_balance: number;
            /** @description The borrower's credit on this contract, integer centavos: money received beyond what was owed (an overpaid charge, a boleto paid twice). A payoff quote uses it (`credit_applied`); on a closed contract it is owed back to the borrower. */
            credit_balance: number;
            cet: {
                monthly_percent: string;
                annual_percent: string;
            };
            iof: {
                daily: number;
                additional: number;
                total: number;
                financed: boolean;
            };
            /** @description The late charges as contracted, frozen when the contract was issued. An installment due on a weekend or national holiday is late only after the next business day (Lei 7.089/1983); the contract's remunerative interest is not charged during the delay. */
            late_charges: {
                /** @description Fine (multa) charged once on an installment's open amount when it becomes late, e.g. "0.02" (CDC art. 52 §1 caps it at 2%). */
                fine_rate: string;
                /** @description Late interest (juros de mora) per month, simple, pro rata die (rate × days/30), e.g. "0.01". */
                monthly_interest_rate: string;
            };
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        Payment: {
            id: string;
            /** @enum {string} */
            object: "payment";
            contract_id: string;
            charge_id: string | null;
            /** @description boleto, pix, inss_repasse, private_payroll_repasse, settlement (funds received outside the platform), or contract_credit (no new money: the contract's credit paying installments that fell due; `amount` is the credit used). */
            source: string;
            /** @description The settlement this payment completed, if any. */
            settlement_id: string | null;
            /** @description Received on an assigned contract: the assignee's money (GET /v1/assignments/{id}). */
            assignment_id: string | null;
            /** @description Received. Integer centavos. */
            amount: number;
            /** @description How it was applied: oldest installment first; fine, late interest, interest, principal. A full settlement: each installment at its present value (`discount`); a partial one (prepayment): empty, see the settlement's `reschedule`. */
            allocations: {
                installment_id: string;
                number?: number;
                fine?: number;
                late_interest?: number;
                interest?: number;
                principal?: number;
                /** @description Settlements: interest removed for paying early (CDC art. 52 §2). */
                discount?: number;
                total: number;
            }[];
            /** @description Beyond every open installment: kept as the contract's credit. Integer centavos. */
            credit: number;
            competence: string | null;
            paid_at: string;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
        };
        Installment: {
            id: string;
            /** @enum {string} */
            object: "installment";
            contract_id: string;
            number: number;
            due_date: string;
            principal: number;
            interest: number;
            amount: number;
            paid_amount: number;
            /** @enum {string} */
            status: "open" | "overdue" | "partially_paid" | "paid" | "canceled";
            paid_at: string | null;
            /** @description What settles the installment on `as_of`: fine and pro-rata late interest per the product's rules. */
            amount_due: {
                as_of: string;
                days_late: number;
                /** @description Amount minus what was paid, centavos. */
                outstanding: number;
                fine: number;
                late_interest: number;
                total: number;
            };
            /** @enum {string} */
            environment: "sandbox" | "production";
        };
        Charge: {
            /** @example chg_01JDQ9A1B2C3D4E5F6G7H8J9K0 */
            id: string;
            /** @enum {string} */
            object: "charge";
            /** @enum {string} */
            status: "pending" | "paid" | "partially_paid" | "overdue" | "canceled" | "expired";
            /** @enum {string} */
            method: "boleto" | "pix";
            contract_id: string;
            customer_id: string;
            installment_ids: string[];
            /** @description A settlement's charge: paying it in full completes the settlement. */
            settlement_id: string | null;
            due_date: string;
            /** @description What the charge collects: the installments' open amounts, with late fine and pro-rata late interest up to the due date for those already late. Integer centavos. */
            amount: number;
            /** @description Received so far. Integer centavos. */
            amount_paid: number;
            /** @description Per installment, what `amount` is made of. */
            breakdown: {
                installment_id: string;
                number: number;
                due_date: string;
                fine: number;
                late_interest: number;
                interest: number;
                principal: number;
                total: number;
            }[];
            boleto: {
                /** @description The 44-digit FEBRABAN barcode. */
                barcode: string;
                /** @description The 47-digit linha digitável, formatted. */
                digitable_line: string;
                due_date: string;
                /** @description Nosso número: the agreement and a sequence. */
                our_number: string;
                bank_code: string;
            } | null;
            pix: {
                /** @enum {string} */
                kind: "cob" | "cobv";
                /** @description 26–35 alphanumerics (BCB rules). */
                txid: string;
                /** @description The BR Code "copia e cola" (EMV, CRC-16). */
                brcode: string;
                /** @description The BR Code's QR code: a PNG data URL (`data:image/png;base64,…`, error correction M) for an <img> or an e-mail. */
                qr_code: string;
                location: string;
                /** @description `cob`: when it expires; `cobv`: null (it has a due date). */
                expires_at: string | null;
                /** @description `cobv`: the fine after the due date (multa), decimal. */
                fine_rate: string | null;
                /** @description `cobv`: late interest per month (juros), decimal. */
                interest_rate_monthly: string | null;
            } | null;
            /** @description Who is paid: the collection account the charge was issued under (GET /v1/collection-account). */
            beneficiary: {
                name: string;
                /** @description CNPJ, 14 characters. */
                document: string;
                city: string;
                bank_code: string;
                agreement: string;
            } | null;
            /** @description A printable page for the borrower (no credential needed: the URL is the capability) with the boleto's barcode image and linha digitável, or the Pix QR code and copia e cola. Served only on the address of the charge's environment. */
            payment_page_url: string;
            paid_at: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        Refund: {
            id: string;
            /** @enum {string} */
            object: "refund";
            contract_id: string;
            /** @description Refunded from an assigned contract's credit: the assignee's money. */
            assignment_id: string | null;
            /** @description Refunded. Integer centavos. */
            amount: number;
            /** @enum {string} */
            method: "pix" | "ted" | "other";
            reference: string | null;
            /** @description The contract's `credit_balance` after this refund. Integer centavos. */
            credit_after: number;
            /** @description YYYY-MM-DD. */
            refunded_on: string;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
        };
        Settlement: {
            /** @example stl_01JDQ9A1B2C3D4E5F6G7H8J9K0 */
            id: string;
            /** @enum {string} */
            object: "settlement";
            contract_id: string;
            /** @description The batch it came from (POST /v1/settlements/batch), if any. */
            batch_id: string | null;
            /** @enum {string} */
            type: "full" | "partial";
            /** @enum {string} */
            status: "pending" | "completed" | "canceled";
            date: string;
            /** @description What the borrower pays. Integer centavos. */
            amount: number;
            /** @enum {string} */
            payment_method: "received" | "boleto" | "pix";
            /** @enum {string|null} */
            reduce: "installment_amount" | "term" | null;
            /** @description The payoff quote on `date` it was made from. */
            quote: {
                /** @enum {string} */
                object: "payoff_quote";
                contract_id: string;
                date: string;
                /** @description The contract rate the installments are discounted at. */
                monthly_rate: string;
                installments: {
                    installment_id: string;
                    number: number;
                    due_date: string;
                    /** @description What is still open of the installment's face amount. Integer centavos. */
                    open_amount: number;
                    /** @description Its value on the payoff date at the contract rate (face value when due on or before it). Integer centavos. */
                    present_value: number;
                    /** @description Interest removed for paying early: open_amount − present_value. Integer centavos. */
                    discount: number;
                    /** @description Late fine due on the payoff date (installments already late). Integer centavos. */
                    fine: number;
                    /** @description Pro-rata late interest due on the payoff date. Integer centavos. */
                    late_interest: number;
                    /** @description present_value + fine + late_interest. Integer centavos. */
                    total: number;
                }[];
                /** @description Sum of the open amounts (face value). Integer centavos. */
                outstanding_amount: number;
                /** @description Sum of the present values. Integer centavos. */
                present_value: number;
                /** @description Sum of the discounts. Integer centavos. */
                discount: number;
                /** @description Sum of fines and late interest. Integer centavos. */
                late_charges: number;
                /** @description The contract's credit (earlier overpayments) used against the total. Integer centavos. */
                credit_applied: number;
                /** @description What settles the contract on `date`: present value + late charges − credit. Integer centavos. */
                amount: number;
                /** @description End of `date` in Brasília (UTC−03:00), as an instant. */
                valid_until: string;
            };
            /** @description `partial` only. */
            reschedule: {
                /** @description The remaining installments' present value on `date`. Integer centavos. */
                balance_before: number;
                /** @description What is left after the prepayment. Integer centavos. */
                balance_after: number;
                /** @description The remaining installments after it, same numbers and due dates. */
                schedule: {
                    installment_id: string;
                    number: number;
                    due_date: string;
                    opening_balance: number;
                    interest: number;
                    amortization: number;
                    payment: number;
                    closing_balance: number;
                }[];
                /** @description `term`: installments that fall away (canceled). */
                dropped_installment_ids: string[];
            } | null;
            /** @description `boleto` / `pix`: the charge that collects it. */
            charge_id: string | null;
            /** @description Once completed: the payment that settled it. */
            payment_id: string | null;
            cancel_reason: string | null;
            completed_at: string | null;
            canceled_at: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        Assignment: {
            /** @example asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0 */
            id: string;
            /** @enum {string} */
            object: "assignment";
            /** @enum {string} */
            status: "pending" | "settled" | "canceled";
            assignee: {
                name: string;
                /** @description CNPJ, normalized. */
                document: string;
            };
            settlement_date: string;
            pricing: {
                /** @enum {string} */
                method: "discount_rate" | "price";
                discount_rate: string | null;
            };
            /** @description The contracts' open face value. Integer centavos. */
            face_value: number;
            /** @description What the assignee pays. Integer centavos. */
            price: number;
            /** @description face_value − price. Integer centavos. */
            discount: number;
            contract_count: number;
            /** @description Per contract: open face value and price. */
            contracts: {
                contract_id: string;
                face_value: number;
                price: number;
            }[];
            cancel_reason: string | null;
            settled_at: string | null;
            canceled_at: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        Health: {
            /**
             * @description `ok` when the API accepts requests.
             * @enum {string}
             */
            status: "ok";
            /**
             * @description The environment of the base address used.
             * @enum {string}
             */
            environment: "sandbox" | "production";
            /**
             * @description The API's semantic version.
             * @example 1.4.0
             */
            version: string;
            /**
             * @description The tenant's identifier (the caller's X-Tenant-Id).
             * @example ten_01JD0000000000000000000000
             */
            tenant: string;
        };
        /**
         * @description RFC 9457 problem details; the single error shape of the API (`application/problem+json`).
         * @example {
         *       "type": "urn:credit-platform:problem:validation_error",
         *       "title": "The request is invalid",
         *       "status": 400,
         *       "detail": "One or more fields are invalid",
         *       "code": "validation_error",
         *       "request_id": "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11",
         *       "errors": [
         *         {
         *           "param": "limit",
         *           "in": "query",
         *           "message": "Too big: expected number to be <=100"
         *         }
         *       ]
         *     }
         */
        Problem: {
            /** @description URN naming the problem type: `urn:credit-platform:problem:<code>`. */
            type: string;
            title: string;
            status: number;
            detail: string;
            /**
             * @description Stable, machine-readable code.
             * @enum {string}
             */
            code: "validation_error" | "invalid_json" | "invalid_url" | "malformed_request" | "invalid_encoding" | "invalid_request_id" | "invalid_cursor" | "invalid_request" | "invalid_grant" | "unsupported_grant_type" | "invalid_scope" | "authentication_required" | "invalid_api_key" | "invalid_token" | "invalid_client" | "invalid_signature" | "environment_mismatch" | "tenant_header_required" | "tenant_mismatch" | "insufficient_permissions" | "forbidden" | "cross_origin_request" | "not_found" | "method_not_allowed" | "conflict" | "tenant_changed" | "invalid_transition" | "duplicate_document" | "invalid_document" | "product_rule_violation" | "payroll_link_required" | "fee_above_cap" | "cet_above_ceiling" | "margin_query_required" | "margin_query_expired" | "insufficient_margin" | "payroll_source_unavailable" | "endorsement_required" | "collection_not_configured" | "contract_not_active" | "open_installments_due" | "insufficient_credit" | "disbursement_date_passed" | "idempotency_in_progress" | "payload_too_large" | "batch_too_large" | "unsupported_media_type" | "request_timeout" | "misdirected_request" | "idempotency_key_reused" | "rate_limited" | "headers_too_large" | "internal_error" | "service_unavailable" | "authority_bad_response" | "authority_unavailable" | "authority_rate_limited" | "authority_circuit_open" | "authority_timeout";
            /** @description The request id (X-Request-Id): quote it to support. */
            request_id: string;
            /** @description Validation errors, one per field. */
            errors?: components["schemas"]["FieldError"][];
            /** @description Token endpoint only: the RFC 6749 error code. */
            error?: string;
            /** @description Token endpoint only: RFC 6749 description. */
            error_description?: string;
        };
        FieldError: {
            /** @description The field, dotted for nested fields (e.g. `address.zip_code`). */
            param: string;
            /** @enum {string} */
            in: "body" | "query" | "path" | "header";
            message: string;
        };
        HealthUnavailable: {
            /**
             * @description The database cannot be reached: take this instance out of rotation and retry later.
             * @enum {string}
             */
            status: "database_unavailable";
            /**
             * @description The environment of the base address used (null for an unknown host).
             * @enum {string|null}
             */
            environment: "sandbox" | "production" | null;
            /**
             * @description The API's semantic version.
             * @example 1.4.0
             */
            version: string;
            /** @description The X-Tenant-Id sent, echoed unverified (credentials cannot be checked without the database); null when absent or malformed. */
            tenant: string | null;
            /** @description The dependency that failed. */
            checks: {
                /** @enum {string} */
                database: "unavailable";
            };
            /** @enum {string} */
            code: "service_unavailable";
            /** @enum {boolean} */
            retryable: true;
            request_id: string;
        };
        TokenResponse: {
            /** @description JWT access token (RFC 9068), valid for `expires_in` seconds. */
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /**
             * @description Seconds the access token is valid: 3600.
             * @example 3600
             */
            expires_in: number;
            /** @example read write */
            scope: string;
            /** @description Single-use refresh token, valid 30 days; rotates on every use. */
            refresh_token: string;
            /** @example 2592000 */
            refresh_token_expires_in: number;
        };
        TokenRequest: {
            /** @description `client_credentials` or `refresh_token`. */
            grant_type: string;
            /** @description The client's id (or use HTTP Basic). */
            client_id?: string;
            /** @description The client's secret (or use HTTP Basic). */
            client_secret?: string;
            /** @description Space-separated scopes, e.g. `read write`; default: all of the client's. */
            scope?: string;
            /** @description With grant_type=refresh_token: the refresh token to rotate. */
            refresh_token?: string;
        };
        /** @description Only `document` and `name` are required; an absent or null field is stored as null. */
        CreateCustomerBody: {
            /**
             * @description CPF (11 digits → `kind: person`) or CNPJ (14 characters → `kind: company`, incl. the alphanumeric CNPJ of 2026), with or without punctuation. Check digits are validated strictly: an invalid document is a 400 `invalid_document` whose `reason` is `invalid_length`, `invalid_characters`, `repeated_digits` or `invalid_check_digits`. Unique per tenant and environment (409 `duplicate_document`). Immutable.
             * @example 529.982.247-25
             */
            document: string;
            /**
             * @description Full name (person) or legal name (company).
             * @example Maria da Silva
             */
            name: string;
            /**
             * Format: date
             * @description Persons only: YYYY-MM-DD, from 1900-01-01, not in the future. On a company: 400.
             * @example 1985-04-12
             */
            birth_date?: string | null;
            /**
             * Format: date
             * @description Companies only: YYYY-MM-DD, not in the future. On a person: 400.
             * @example 2010-09-01
             */
            foundation_date?: string | null;
            /**
             * Format: email
             * @example maria@example.com
             */
            email?: string | null;
            /**
             * @description E.164: `+`, country code and number, digits only.
             * @example +5511987654321
             */
            phone?: string | null;
            address?: components["schemas"]["AddressInput"];
            /**
             * @description Monthly income (persons) or revenue (companies) in integer centavos of BRL, ≥ 0.
             * @example 850000
             */
            monthly_income?: number | null;
            payroll?: components["schemas"]["PayrollInput"];
        };
        /** @description Postal address in Brazil. On update it is replaced as a whole. */
        AddressInput: {
            /** @description Street (logradouro). */
            street: string;
            /**
             * @description Number; `S/N` when there is none.
             * @example 1578
             */
            number: string;
            /** @description Apartment, suite, block (optional). */
            complement?: string | null;
            /** @description District (bairro). */
            district: string;
            city: string;
            /**
             * @description State code (UF), one of the 27, upper case.
             * @enum {string}
             */
            state: "AC" | "AL" | "AP" | "AM" | "BA" | "CE" | "DF" | "ES" | "GO" | "MA" | "MT" | "MS" | "MG" | "PA" | "PB" | "PR" | "PE" | "PI" | "RJ" | "RN" | "RS" | "RO" | "RR" | "SC" | "SP" | "SE" | "TO";
            /**
             * @description CEP, 8 digits; `01310-100` is accepted and stored as `01310100`.
             * @example 01310100
             */
            zip_code: string;
        } | null;
        /** @description Payroll link for payroll-deductible credit: persons only. Either an INSS benefit or a private employer. */
        PayrollInput: {
            /**
             * @description An INSS retirement or pension benefit.
             * @enum {string}
             */
            type: "inss";
            /**
             * @description INSS benefit number (NB), 10 digits.
             * @example 1234567890
             */
            benefit_number: string;
        } | {
            /**
             * @description Employment at a private company (consignado privado).
             * @enum {string}
             */
            type: "private";
            /**
             * @description The employer's CNPJ, formatted or not, numeric or alphanumeric; validated like `document`.
             * @example 11.222.333/0001-81
             */
            employer_cnpj: string;
            /** @description Employee registration (matrícula) at the employer. */
            registration: string;
        } | null;
        CustomerList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Customer"][];
            has_more: boolean;
            /** @description Pass as `cursor` for the next page; null on the last. */
            next_cursor: string | null;
        };
        /** @description Partial update: only the fields sent change; `null` clears an optional field; `address` and `payroll` are replaced as a whole. `document` and `kind` are immutable (sending them is a 400 unknown field). */
        UpdateCustomerBody: {
            /**
             * @description Full name (person) or legal name (company).
             * @example Maria da Silva
             */
            name?: string;
            /**
             * Format: date
             * @description Persons only: YYYY-MM-DD, from 1900-01-01, not in the future. On a company: 400.
             * @example 1985-04-12
             */
            birth_date?: string | null;
            /**
             * Format: date
             * @description Companies only: YYYY-MM-DD, not in the future. On a person: 400.
             * @example 2010-09-01
             */
            foundation_date?: string | null;
            /**
             * Format: email
             * @example maria@example.com
             */
            email?: string | null;
            /**
             * @description E.164: `+`, country code and number, digits only.
             * @example +5511987654321
             */
            phone?: string | null;
            address?: components["schemas"]["AddressInput"];
            /**
             * @description Monthly income (persons) or revenue (companies) in integer centavos of BRL, ≥ 0.
             * @example 850000
             */
            monthly_income?: number | null;
            payroll?: components["schemas"]["PayrollInput"];
        };
        Simulation: {
            /** @example sim_01JD0000000000000000000000 */
            id: string;
            /** @enum {string} */
            object: "simulation";
            /** @enum {string} */
            product: "inss_payroll" | "private_payroll" | "personal_loan";
            /** @enum {string} */
            amortization: "price" | "sac";
            term: number;
            /** @description Monthly rate used, normalized decimal fraction. */
            monthly_rate: string;
            /** @description Effective annual rate (1 + monthly_rate)^12 − 1, decimal fraction, 8 decimals. */
            annual_rate: string;
            /** @enum {string} */
            borrower_kind: "PF" | "PJ";
            /** @description The request's net amount; null when solved from `installment_amount`. */
            requested_amount: number | null;
            /** @description Financed principal = net + financed fees + financed IOF, centavos. */
            principal: number;
            /** @description Credit released to the borrower = principal − financed fees − financed IOF, centavos. */
            released_amount: number;
            /** @description IOF (when not financed) + fees not financed: paid by the borrower on the disbursement date, centavos. */
            upfront_charges: number;
            /** @description First installment, centavos (Price: every installment but the last, which absorbs rounding). */
            installment_amount: number;
            /** @description The largest installment of the schedule, centavos. Payroll products check the margin, reserve and endorse this amount: the paying source deducts one fixed amount a month. */
            max_installment_amount: number;
            /** @description IOF-crédito on the principal (rates in the product configuration). */
            iof: {
                /** @description Σ of the `iof_schedule` rows' `iof` (each rounded on its row), centavos. */
                daily: number;
                /** @description principal × 0.38%, half-up, centavos. */
                additional: number;
                /** @description daily + additional. */
                total: number;
                financed: boolean;
            };
            fees: components["schemas"]["SimulationFee"][];
            totals: {
                /** @description Σ installments, centavos. */
                payments: number;
                /** @description Σ interest, centavos. */
                interest: number;
                /** @description Σ amortization = principal, centavos. */
                amortization: number;
            };
            /** @description Custo Efetivo Total (Res. CMN 4.881/2020), percent with 2 decimals: the annual rate solving Σ installmentⱼ / (1+CET)^(daysⱼ/365) = released_amount − upfront_charges; monthly = (1+annual)^(1/12) − 1. */
            cet: {
                /** @example 2.27 */
                monthly_percent: string;
                /** @example 30.91 */
                annual_percent: string;
            };
            disbursement_date: string;
            /** @description Nominal first due date (the schedule's first row shows the adjusted one). */
            first_due_date: string;
            /** @enum {string} */
            due_date_rule: "following" | "preceding" | "keep";
            customer_id: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            schedule: components["schemas"]["SimulationInstallment"][];
            /** @description The daily IOF per installment, one row each; `iof.daily` is their sum. null only on simulations stored before the rows were shown. */
            iof_schedule: components["schemas"]["SimulationIofRow"][] | null;
        };
        SimulationInstallment: {
            number: number;
            /** @description Actual due date (after `due_date_rule`). */
            due_date: string;
            /** @description Balance before this installment, centavos. */
            opening_balance: number;
            /** @description Interest of the period, centavos: opening_balance × monthly_rate rounded half-up on this row (the first row uses its period's compound rate (1 + monthly_rate)^t − 1, t = whole months + days/30 from disbursement to the nominal first due date). Nothing is carried between rows. */
            interest: number;
            /** @description Principal repaid, centavos: payment − interest (Price) or principal ÷ term rounded down (SAC). The last row amortizes its whole opening balance, absorbing every rounding, so they sum to `principal`; negative when a long first period's interest exceeds the installment (capitalized). */
            amortization: number;
            /** @description Installment = interest + amortization, centavos (Price: the same on every row but the last). */
            payment: number;
            /** @description Balance after this installment = opening_balance − amortization, centavos (0 after the last). */
            closing_balance: number;
        };
        SimulationIofRow: {
            /** @description The installment this row taxes. */
            number: number;
            /** @description Actual due date (after `due_date_rule`). */
            due_date: string;
            /** @description Days from disbursement to the due date, capped at 365. */
            days: number;
            /** @description Principal amortized in this installment, centavos (0 on a row whose amortization is negative; capitalized interest repaid later is not principal). */
            base: number;
            /** @description base × daily rate (0.0082% for PF) × days, rounded half-up on this row, centavos. */
            iof: number;
        };
        CreateSimulationBody: {
            /**
             * @description Credit product; its rules are enforced: term, rate and principal (400 `product_rule_violation`), the payroll link (400 `payroll_link_required`), fee caps (400 `fee_above_cap`, see `fees`) and a ceiling on the annual CET (400 `cet_above_ceiling`, naming the terms that push it: the fees, or the IOF over a short first period or term). `inss_payroll`: 1–96 months, rate ≤ 0.0185 a.m., principal 10000–50000000 centavos, annual CET ≤ 45%, price, `customer_id` of a customer with a payroll link of type inss required; `private_payroll`: 1–96 months, rate ≤ 0.0399 a.m., principal 10000–50000000 centavos, annual CET ≤ 100%, price, `customer_id` of a customer with a payroll link of type private required; `personal_loan`: 1–60 months, rate ≤ 0.0800 a.m., principal 10000–100000000 centavos, annual CET ≤ 250%, price or sac.
             * @enum {string}
             */
            product: "inss_payroll" | "private_payroll" | "personal_loan";
            /** @description Net amount the borrower wants to receive, centavos (BRL). Financed charges (IOF when `iof_financed`, fees with `financed: true`) are added on top, so `released_amount` equals it (one centavo more in rare rounding cases). Exactly one of `requested_amount` and `installment_amount`. */
            requested_amount?: number;
            /** @description Desired Price installment, centavos: the principal is solved as the largest one whose installment does not exceed it. Price only. Exactly one of `requested_amount` and `installment_amount`. */
            installment_amount?: number;
            /** @description Number of monthly installments (the product caps it). */
            term: number;
            /** @description Monthly contract interest rate as a decimal fraction string, up to 8 decimals: "0.0185" = 1.85% a.m. Compared exactly (no floating point) with the product cap. */
            monthly_rate?: string;
            /**
             * @deprecated
             * @description Deprecated since 1.3.0: use `monthly_rate`. Same meaning; accepted alone (the response then carries `Deprecation: true` and a `Warning` header) or together with an equal `monthly_rate`; a different value is a 400.
             */
            tax_rate?: string;
            /**
             * @description `price` (equal installments, default) or `sac` (constant amortization). Payroll products (`inss_payroll`, `private_payroll`) are Price only: the paying source deducts one fixed amount a month.
             * @default price
             * @enum {string}
             */
            amortization?: "price" | "sac";
            /**
             * @description Disbursement date; default: today in America/Sao_Paulo. `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            disbursement_date?: string;
            /**
             * @description Nominal first due date; default: one month after disbursement. Must be after disbursement and at most 180 days later (a longer first period is a grace period: its interest compounds for months + days/30). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            first_due_date?: string;
            /**
             * @description How due dates on weekends and national bank holidays move: `following` business day (default), `preceding`, or `keep`. Interest runs on the nominal monthly periods; IOF and CET use the actual dates.
             * @default following
             * @enum {string}
             */
            due_date_rule?: "following" | "preceding" | "keep";
            /**
             * @description Individual (`PF`) or company (`PJ`): picks the IOF daily rate. Default: from the customer when `customer_id` is given, else `PF`; must match the customer.
             * @enum {string}
             */
            borrower_kind?: "PF" | "PJ";
            /**
             * @description true (default): IOF is added to the principal (solved so the net stays `requested_amount`). false: IOF is paid by the borrower on the disbursement date (`upfront_charges`).
             * @default true
             */
            iof_financed?: boolean;
            /**
             * @description Fees of the operation (TAC, cadastro, insurance). Each is capped per product as a share of `released_amount` (the credit received), financed or not; above it: 400 `fee_above_cap` naming `fees.<index>.amount`. `inss_payroll`: origination not allowed, registration not allowed, insurance not allowed; `private_payroll`: origination not allowed, registration ≤ 1%, insurance ≤ 5%; `personal_loan`: origination ≤ 5%, registration ≤ 3%, insurance ≤ 5%. `origination` (TAC) is for companies only (`borrower_kind: PJ`; forbidden for individuals by Res. CMN 3.518/2007): for a PF, 400 `fee_above_cap` naming `fees.<index>.type`.
             * @default []
             */
            fees?: components["schemas"]["SimulationFee"][];
            /** @description The borrower (must exist in this environment: else 404). Optional for `personal_loan`; required for payroll products (`inss_payroll`, `private_payroll`), whose customer must have the matching payroll link (`payroll.type` `inss` / `private`): without it, 400 `payroll_link_required`. */
            customer_id?: string;
        };
        CreateProposalBody: {
            /** @description The borrower (must exist in this environment). */
            customer_id: string;
            /** @description A stored simulation whose terms the proposal freezes. Exactly one of `simulation_id` and `terms`. */
            simulation_id?: string;
            /** @description Required for payroll products (inss_payroll, private_payroll): a valid margin query of the customer (POST /v1/payroll/margin-queries) whose available loan margin covers the installment. Submission reserves the installment against it. */
            margin_query_id?: string;
            /** @description Inline terms, exactly as the body of POST /v1/simulations: the simulation is computed and stored (it appears under /v1/simulations and is the proposal's `simulation_id`), then frozen into the proposal. `customer_id` inside, if sent, must be the same. */
            terms?: {
                /**
                 * @description Credit product; its rules are enforced: term, rate and principal (400 `product_rule_violation`), the payroll link (400 `payroll_link_required`), fee caps (400 `fee_above_cap`, see `fees`) and a ceiling on the annual CET (400 `cet_above_ceiling`, naming the terms that push it: the fees, or the IOF over a short first period or term). `inss_payroll`: 1–96 months, rate ≤ 0.0185 a.m., principal 10000–50000000 centavos, annual CET ≤ 45%, price, `customer_id` of a customer with a payroll link of type inss required; `private_payroll`: 1–96 months, rate ≤ 0.0399 a.m., principal 10000–50000000 centavos, annual CET ≤ 100%, price, `customer_id` of a customer with a payroll link of type private required; `personal_loan`: 1–60 months, rate ≤ 0.0800 a.m., principal 10000–100000000 centavos, annual CET ≤ 250%, price or sac.
                 * @enum {string}
                 */
                product: "inss_payroll" | "private_payroll" | "personal_loan";
                /** @description Net amount the borrower wants to receive, centavos (BRL). Financed charges (IOF when `iof_financed`, fees with `financed: true`) are added on top, so `released_amount` equals it (one centavo more in rare rounding cases). Exactly one of `requested_amount` and `installment_amount`. */
                requested_amount?: number;
                /** @description Desired Price installment, centavos: the principal is solved as the largest one whose installment does not exceed it. Price only. Exactly one of `requested_amount` and `installment_amount`. */
                installment_amount?: number;
                /** @description Number of monthly installments (the product caps it). */
                term: number;
                /** @description Monthly contract interest rate as a decimal fraction string, up to 8 decimals: "0.0185" = 1.85% a.m. Compared exactly (no floating point) with the product cap. */
                monthly_rate?: string;
                /**
                 * @deprecated
                 * @description Deprecated since 1.3.0: use `monthly_rate`. Same meaning; accepted alone (the response then carries `Deprecation: true` and a `Warning` header) or together with an equal `monthly_rate`; a different value is a 400.
                 */
                tax_rate?: string;
                /**
                 * @description `price` (equal installments, default) or `sac` (constant amortization). Payroll products (`inss_payroll`, `private_payroll`) are Price only: the paying source deducts one fixed amount a month.
                 * @default price
                 * @enum {string}
                 */
                amortization?: "price" | "sac";
                /**
                 * @description Disbursement date; default: today in America/Sao_Paulo. `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
                 * @example 2026-01-15
                 */
                disbursement_date?: string;
                /**
                 * @description Nominal first due date; default: one month after disbursement. Must be after disbursement and at most 180 days later (a longer first period is a grace period: its interest compounds for months + days/30). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
                 * @example 2026-01-15
                 */
                first_due_date?: string;
                /**
                 * @description How due dates on weekends and national bank holidays move: `following` business day (default), `preceding`, or `keep`. Interest runs on the nominal monthly periods; IOF and CET use the actual dates.
                 * @default following
                 * @enum {string}
                 */
                due_date_rule?: "following" | "preceding" | "keep";
                /**
                 * @description Individual (`PF`) or company (`PJ`): picks the IOF daily rate. Default: from the customer when `customer_id` is given, else `PF`; must match the customer.
                 * @enum {string}
                 */
                borrower_kind?: "PF" | "PJ";
                /**
                 * @description true (default): IOF is added to the principal (solved so the net stays `requested_amount`). false: IOF is paid by the borrower on the disbursement date (`upfront_charges`).
                 * @default true
                 */
                iof_financed?: boolean;
                /**
                 * @description Fees of the operation (TAC, cadastro, insurance). Each is capped per product as a share of `released_amount` (the credit received), financed or not; above it: 400 `fee_above_cap` naming `fees.<index>.amount`. `inss_payroll`: origination not allowed, registration not allowed, insurance not allowed; `private_payroll`: origination not allowed, registration ≤ 1%, insurance ≤ 5%; `personal_loan`: origination ≤ 5%, registration ≤ 3%, insurance ≤ 5%. `origination` (TAC) is for companies only (`borrower_kind: PJ`; forbidden for individuals by Res. CMN 3.518/2007): for a PF, 400 `fee_above_cap` naming `fees.<index>.type`.
                 * @default []
                 */
                fees?: components["schemas"]["SimulationFee"][];
                /** @description The borrower (must exist in this environment: else 404). Optional for `personal_loan`; required for payroll products (`inss_payroll`, `private_payroll`), whose customer must have the matching payroll link (`payroll.type` `inss` / `private`): without it, 400 `payroll_link_required`. */
                customer_id?: string;
            };
        };
        RejectBody: {
            /** @description Why the proposal was rejected. */
            reason: string;
        };
        ReasonBody: {
            /** @description Why (kept with the proposal). */
            reason?: string;
        };
        IssueContractBody: {
            /** @description A signed proposal; its frozen terms and schedule become the contract's. */
            proposal_id: string;
        };
        CancelContractBody: {
            /** @description Why the borrower withdrew. */
            reason: string;
        };
        CreateRiskAssessmentBody: {
            /** @description The borrower assessed. */
            customer_id: string;
            /** @description Assess this proposal's terms (and its margin query, for payroll products). Exactly one of `proposal_id`, `simulation_id` and `terms`. */
            proposal_id?: string;
            /** @description Assess a stored simulation's terms. */
            simulation_id?: string;
            /** @description Terms given inline, for a pre-qualification before any simulation. */
            terms?: {
                /** @enum {string} */
                product: "inss_payroll" | "private_payroll" | "personal_loan";
                /** @description The monthly installment, integer centavos. */
                installment_amount: number;
                /** @description Number of monthly installments. */
                term: number;
            };
            /** @description A margin query of this customer whose available loan margin the installment is checked against (payroll products). Defaults to the proposal's. */
            margin_query_id?: string;
            /**
             * @description Other monthly debt payments the borrower declared elsewhere, integer centavos (added to the open installments of this platform's contracts).
             * @default 0
             */
            other_monthly_debt?: number;
        };
        CreateMarginQueryBody: {
            /** @description The borrower (a person with a CPF). */
            customer_id: string;
            /** @description The benefit or employment link to query. Default: the customer's `payroll` link. */
            source?: {
                /**
                 * @description An INSS retirement or pension benefit.
                 * @enum {string}
                 */
                type: "inss";
                /**
                 * @description INSS benefit number (NB), 10 digits.
                 * @example 1234567890
                 */
                benefit_number: string;
            } | {
                /**
                 * @description Employment at a private company (consignado privado).
                 * @enum {string}
                 */
                type: "private";
                /**
                 * @description The employer's CNPJ, formatted or not, numeric or alphanumeric; validated like `document`.
                 * @example 11.222.333/0001-81
                 */
                employer_cnpj: string;
                /** @description Employee registration (matrícula) at the employer. */
                registration: string;
            };
        };
        MarginReservation: {
            /** @example mgr_01JD2Z6Q7X9V3K8M4N5P6R7S8T */
            id: string;
            /** @enum {string} */
            object: "margin_reservation";
            /** @enum {string} */
            status: "requested" | "reserved" | "consumed" | "released" | "expired" | "refused";
            customer_id: string;
            margin_query_id: string;
            /** @description The proposal whose submission made it (null for reservations made directly). */
            proposal_id: string | null;
            /** @enum {string} */
            kind: "loan" | "credit_card" | "benefit_card";
            installment_amount: number;
            term: number;
            authority_reservation_id: string | null;
            refusal: components["schemas"]["AuthorityRefusal"];
            /** @description Unless consumed by an endorsement before, the reservation expires then. */
            expires_at: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        CreateMarginReservationBody: {
            /** @description A valid margin query; its customer and source are reserved against. */
            margin_query_id: string;
            /** @description The monthly installment to reserve, integer centavos. */
            installment_amount: number;
            /** @description Number of monthly installments. */
            term: number;
            /**
             * @default loan
             * @enum {string}
             */
            kind?: "loan" | "credit_card" | "benefit_card";
        };
        Endorsement: {
            /** @example end_01JD2Z6Q7X9V3K8M4N5P6R7S8T */
            id: string;
            /** @enum {string} */
            object: "endorsement";
            /**
             * @description `submitted`: the authority was asked and its answer is not recorded yet (a lost answer: a retry of the request, or the worker, asks again); `endorsed`, `refused` (see `refusal`); `terminating` → `terminated` once its contract closes or is withdrawn.
             * @enum {string}
             */
            status: "submitted" | "endorsed" | "refused" | "terminating" | "terminated";
            proposal_id: string;
            reservation_id: string;
            /** @description The CCB number registered with the authority; POST /v1/contracts issues the contract under it. */
            contract_number: string;
            authority_endorsement_id: string | null;
            refusal: components["schemas"]["AuthorityRefusal"];
            endorsed_at: string | null;
            /** @description Once its contract closes or is withdrawn: ending the averbação at the authority (`terminating` → `terminated`). */
            termination: {
                /**
                 * @description `settled`: its contract was paid off or settled; `canceled`: withdrawn.
                 * @enum {string}
                 */
                reason: "settled" | "canceled";
                /** @description Calls made to the authority so far. */
                attempts: number;
                /** @description Why the last call failed (it is retried), or null. */
                last_error: string | null;
                /** @description When the authority confirmed it (`terminated`). */
                terminated_at: string | null;
            } | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        CreateEndorsementBody: {
            /** @description A signed payroll proposal with a reserved margin. */
            proposal_id: string;
        };
        CollectionAccount: {
            /** @enum {string} */
            object: "collection_account";
            bank_code: string;
            agreement: string;
            wallet: string;
            beneficiary_name: string;
            /** @description CNPJ, 14 characters. */
            beneficiary_document: string;
            city: string;
            pix_location_base: string;
            /** @description true: the sandbox's shared default account (no account of this tenant is set). */
            shared_default: boolean;
            /** @enum {string} */
            environment: "sandbox" | "production";
            /** @description When this tenant's account was last set; null for the shared default. */
            updated_at: string | null;
        };
        CollectionAccountBody: {
            /**
             * @description FEBRABAN bank code. 1.4.0 issues boletos in Banco do Brasil's layout for 7-digit agreements (`001`).
             * @enum {string}
             */
            bank_code: "001";
            /**
             * @description The bank agreement (convênio), 7 digits; one account per agreement in each environment.
             * @example 2345678
             */
            agreement: string;
            /**
             * @description The wallet (carteira).
             * @enum {string}
             */
            wallet: "17" | "18";
            /**
             * @description The beneficiary (cedente) printed on the boleto; its first 25 characters, without accents, are the Pix merchant name.
             * @example Crédito Fácil SCD S.A.
             */
            beneficiary_name: string;
            /**
             * @description The beneficiary's CNPJ, with or without punctuation.
             * @example 11.222.333/0001-81
             */
            beneficiary_document: string;
            /**
             * @description The beneficiary's city; the first 15 characters, without accents, are the Pix merchant city.
             * @example São Paulo
             */
            city: string;
            /**
             * @description Where the receiver's PSP serves dynamic Pix payloads: host and path without scheme, at most 44 characters (the BR Code location adds `/` and a 32-character id).
             * @example pix.example-psp.com.br/qr/v2
             */
            pix_location_base: string;
        };
        CreateChargeBody: {
            /** @description An active contract of this environment. */
            contract_id: string;
            /** @description Open installments of the contract to collect. Default: its oldest open installment. */
            installment_ids?: string[];
            /** @enum {string} */
            method: "boleto" | "pix";
            /**
             * @description The charge's due date (YYYY-MM-DD), today or later and at most a year past the later of today and the installments' due dates (late charges run to it). Default: the latest of today and the installments' due dates. `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            due_date?: string;
            pix?: {
                /**
                 * @description `cob`: immediate charge that expires after `expires_in` seconds; `cobv`: charge with a due date (fine and interest after it).
                 * @default cobv
                 * @enum {string}
                 */
                kind?: "cob" | "cobv";
                /**
                 * @description `cob` only: seconds until it expires (default 86400, as in the BCB API).
                 * @default 86400
                 */
                expires_in?: number;
            };
        };
        CreateRefundBody: {
            /** @description A contract of this environment with credit (`credit_balance` > 0), in any status. */
            contract_id: string;
            /** @description Centavos refunded, at most the contract's `credit_balance`. Default: all of it. */
            amount?: number;
            /**
             * @description How the money went back: `pix`, `ted`, or `other` (e.g. a payroll reversal).
             * @enum {string}
             */
            method: "pix" | "ted" | "other";
            /** @description The transfer's own identifier as the bank gave it (Pix end-to-end id, TED number), for reconciliation. */
            reference?: string;
            /**
             * @description The day the money was sent (YYYY-MM-DD), not after today. Default: today (Brasília). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            refunded_on?: string;
        };
        SandboxPayResult: {
            charge: components["schemas"]["Charge"];
            payment: components["schemas"]["Payment"];
        };
        SandboxPayBody: {
            /** @description Integer centavos paid. Default: what is open on the charge. */
            amount?: number;
            /**
             * @description The payment date (YYYY-MM-DD); late charges are computed to it. Default: today. `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            paid_on?: string;
        };
        ProviderNotificationResult: {
            /** @enum {boolean} */
            received: true;
            /** @description true when this event_id was already applied. */
            replayed: boolean;
            payment: components["schemas"]["Payment"];
        };
        ProviderNotification: {
            /** @description The provider's unique id of this event. */
            event_id: string;
            /** @enum {string} */
            type: "payment.confirmed";
            /** @description Pix: the charge's txid. */
            txid?: string;
            /** @description Boleto: the charge's nosso número. */
            our_number?: string;
            /** @description Received, integer centavos. */
            amount: number;
            /**
             * @description The payment date (YYYY-MM-DD). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            paid_on: string;
        };
        PayoffQuote: {
            /** @enum {string} */
            object: "payoff_quote";
            contract_id: string;
            date: string;
            /** @description The contract rate the installments are discounted at. */
            monthly_rate: string;
            installments: {
                installment_id: string;
                number: number;
                due_date: string;
                /** @description What is still open of the installment's face amount. Integer centavos. */
                open_amount: number;
                /** @description Its value on the payoff date at the contract rate (face value when due on or before it). Integer centavos. */
                present_value: number;
                /** @description Interest removed for paying early: open_amount − present_value. Integer centavos. */
                discount: number;
                /** @description Late fine due on the payoff date (installments already late). Integer centavos. */
                fine: number;
                /** @description Pro-rata late interest due on the payoff date. Integer centavos. */
                late_interest: number;
                /** @description present_value + fine + late_interest. Integer centavos. */
                total: number;
            }[];
            /** @description Sum of the open amounts (face value). Integer centavos. */
            outstanding_amount: number;
            /** @description Sum of the present values. Integer centavos. */
            present_value: number;
            /** @description Sum of the discounts. Integer centavos. */
            discount: number;
            /** @description Sum of fines and late interest. Integer centavos. */
            late_charges: number;
            /** @description The contract's credit (earlier overpayments) used against the total. Integer centavos. */
            credit_applied: number;
            /** @description What settles the contract on `date`: present value + late charges − credit. Integer centavos. */
            amount: number;
            /** @description End of `date` in Brasília (UTC−03:00), as an instant. */
            valid_until: string;
        };
        CreateSettlementBody: {
            /** @description An active or assigned contract of this environment (an assigned one's payoff is the assignee's money). */
            contract_id: string;
            /**
             * @description `full`: pay everything at its present value and close the contract; `partial`: prepay part of the balance.
             * @enum {string}
             */
            type: "full" | "partial";
            /**
             * @description The settlement date (YYYY-MM-DD), today or later and at most 30 days ahead (a pending settlement holds the contract: its credit, other settlements, assignment). Default: today (Brasília). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            date?: string;
            /** @description `partial` only (required): the centavos prepaid, less than the full payoff amount. */
            amount?: number;
            /**
             * @description `partial` only (required): lower every remaining installment, or keep it and shorten the term.
             * @enum {string}
             */
            reduce?: "installment_amount" | "term";
            /**
             * @description `received`: the funds already arrived outside the platform (TED, portability, payroll) — completed at once; `boleto` / `pix`: a charge for the amount is issued with it and paying it completes the settlement.
             * @enum {string}
             */
            payment_method: "received" | "boleto" | "pix";
        };
        CancelSettlementBody: {
            /** @description Why it is canceled. */
            reason?: string;
        };
        SettlementBatch: {
            /** @example stb_01JDQ9E1F2G3H4J5K6M7N8P9Q0 */
            id: string;
            /** @enum {string} */
            object: "settlement_batch";
            /** @enum {string} */
            status: "processing" | "completed";
            /** @description The X-Request-Id it is idempotent by. */
            request_id: string | null;
            item_count: number;
            /** @description Items with a result so far (progress while `processing`). */
            processed: number;
            created: number;
            failed: number;
            /** @description One per processed item, in request order. */
            results: {
                /** @description The item's position in `items` (from 0). */
                index: number;
                contract_id: string | null;
                /** @enum {string} */
                status: "created" | "failed";
                /** @description `created`: the settlement (GET /v1/settlements/{id}). */
                settlement_id: string | null;
                /** @description `failed`: the problem (RFC 9457 body, as a single request would get it; field errors named `items.<index>.<field>`). */
                error: {
                    [key: string]: unknown;
                } | null;
            }[];
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            completed_at: string | null;
        };
        SettlementBatchBody: {
            /** @description The settlements (each a CreateSettlementBody), at most 5000 (413 `batch_too_large` above it); each validated on its own. */
            items: unknown[];
        };
        CreateAssignmentBody: {
            /** @description Who buys the contracts. */
            assignee: {
                /**
                 * @description The assignee (cessionário): legal name.
                 * @example Fundo Alfa FIDC
                 */
                name: string;
                /**
                 * @description The assignee's CNPJ (numeric or alphanumeric), with or without punctuation; check digits validated.
                 * @example 11.222.333/0001-81
                 */
                document: string;
            };
            /** @description Active contracts of this environment, 1–1000; none in another pending or settled assignment, none with a pending settlement. */
            contract_ids: string[];
            /**
             * @description When the assignee pays (YYYY-MM-DD), today or later; prices are present values on it. Default: today (Brasília). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31.
             * @example 2026-01-15
             */
            settlement_date?: string;
            /** @description Monthly discount rate: each contract's price is the present value of its open installments at this rate on `settlement_date`. Send this or `price`. */
            discount_rate?: string;
            /** @description The total the assignee pays, integer centavos, shared among the contracts in proportion to their open face value (largest remainder, so the parts add up). Send this or `discount_rate`. */
            price?: number;
        };
        CancelAssignmentBody: {
            reason?: string;
        };
        WebhookEndpointWithSecret: {
            /** @example whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0 */
            id: string;
            /** @enum {string} */
            object: "webhook_endpoint";
            url: string;
            description: string | null;
            event_types: string[];
            enabled: boolean;
            /**
             * @description Why it is disabled: `manual` (by you), `gone` (it answered 410), `failing` (no success for 3 days). null when enabled.
             * @enum {string|null}
             */
            disabled_reason: "manual" | "gone" | "failing" | null;
            disabled_at: string | null;
            /** @description The first failed attempt since the last success; null when the last attempt succeeded. */
            failing_since: string | null;
            /** @description During a rotation's grace period: until when the previous secret still signs. */
            previous_secret_expires_at: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
            /**
             * @description The signing secret (`whsec_…`, Standard Webhooks). Shown only now: store it.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        CreateWebhookEndpointBody: {
            /**
             * @description Where events are POSTed. Production: https, resolving only to public addresses (checked now and before every delivery). Sandbox: also http://localhost, 127.0.0.1 or [::1] where the deployment allows it (local development).
             * @example https://hooks.example.com.br/credit-platform
             */
            url: string;
            /**
             * @description The event types this endpoint receives, or `["*"]` for every event (also those added later).
             * @example [
             *       "contract.issued",
             *       "charge.paid"
             *     ]
             */
            event_types: ("*" | ("customer.created" | "customer.updated" | "simulation.created" | "proposal.created" | "proposal.status_changed" | "risk_assessment.created" | "margin_query.completed" | "margin_reservation.status_changed" | "endorsement.status_changed" | "contract.issued" | "contract.closed" | "contract.canceled" | "contract.assigned" | "contract.written_off" | "contract.credit_applied" | "installment.paid" | "installment.partially_paid" | "installment.overdue" | "charge.created" | "charge.paid" | "charge.partially_paid" | "charge.overdue" | "charge.canceled" | "charge.expired" | "payment.received" | "refund.created" | "repasse.processed" | "settlement.created" | "settlement.completed" | "settlement.canceled" | "assignment.created" | "assignment.status_changed"))[];
            /** @description For your people: what receives these events. */
            description?: string;
            /** @description Default true. */
            enabled?: boolean;
        };
        /** @description Where a tenant receives events. The signing secret is never returned after creation or rotation. */
        WebhookEndpoint: {
            /** @example whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0 */
            id: string;
            /** @enum {string} */
            object: "webhook_endpoint";
            url: string;
            description: string | null;
            event_types: string[];
            enabled: boolean;
            /**
             * @description Why it is disabled: `manual` (by you), `gone` (it answered 410), `failing` (no success for 3 days). null when enabled.
             * @enum {string|null}
             */
            disabled_reason: "manual" | "gone" | "failing" | null;
            disabled_at: string | null;
            /** @description The first failed attempt since the last success; null when the last attempt succeeded. */
            failing_since: string | null;
            /** @description During a rotation's grace period: until when the previous secret still signs. */
            previous_secret_expires_at: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            updated_at: string;
        };
        UpdateWebhookEndpointBody: {
            /**
             * @description Where events are POSTed. Production: https, resolving only to public addresses (checked now and before every delivery). Sandbox: also http://localhost, 127.0.0.1 or [::1] where the deployment allows it (local development).
             * @example https://hooks.example.com.br/credit-platform
             */
            url?: string;
            /**
             * @description The event types this endpoint receives, or `["*"]` for every event (also those added later).
             * @example [
             *       "contract.issued",
             *       "charge.paid"
             *     ]
             */
            event_types?: ("*" | ("customer.created" | "customer.updated" | "simulation.created" | "proposal.created" | "proposal.status_changed" | "risk_assessment.created" | "margin_query.completed" | "margin_reservation.status_changed" | "endorsement.status_changed" | "contract.issued" | "contract.closed" | "contract.canceled" | "contract.assigned" | "contract.written_off" | "contract.credit_applied" | "installment.paid" | "installment.partially_paid" | "installment.overdue" | "charge.created" | "charge.paid" | "charge.partially_paid" | "charge.overdue" | "charge.canceled" | "charge.expired" | "payment.received" | "refund.created" | "repasse.processed" | "settlement.created" | "settlement.completed" | "settlement.canceled" | "assignment.created" | "assignment.status_changed"))[];
            /** @description null clears it. */
            description?: string | null;
            /** @description Enabling an endpoint the platform disabled (410 or days of failures) clears the reason. */
            enabled?: boolean;
        };
        DeletedWebhookEndpoint: {
            id: string;
            /** @enum {string} */
            object: "webhook_endpoint";
            /** @enum {boolean} */
            deleted: true;
        };
        RotateWebhookSecretBody: {
            /** @description How long the previous secret keeps signing beside the new one (two signatures), 0–86400. Default 86400 (24 h); 0 drops it immediately, for a leaked secret. */
            grace_period_seconds?: number;
        };
        /** @description One event to one endpoint, with its attempts. */
        WebhookDelivery: {
            /** @example whd_01JDQ9F1G2H3J4K5M6N7P8Q9R0 */
            id: string;
            /** @enum {string} */
            object: "webhook_delivery";
            endpoint_id: string;
            event_id: string;
            event_type: string;
            /**
             * @description `pending` (first attempt due, or retrying), `succeeded` (a 2xx), `failed` (retries exhausted, 410, or the endpoint disabled).
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            attempt_count: number;
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_duration_ms: number | null;
            last_error: string | null;
            last_attempt_at: string | null;
            completed_at: string | null;
            /** @enum {string} */
            environment: "sandbox" | "production";
            created_at: string;
            /** @description Every attempt, oldest first (GET of one delivery only). */
            attempts?: components["schemas"]["WebhookAttempt"][];
        };
        WebhookAttempt: {
            /** @description 1 for the first attempt. */
            number: number;
            url: string;
            started_at: string;
            duration_ms: number;
            /** @description The receiver's HTTP status; null when none came (timeout, refused connection, address not allowed). */
            status_code: number | null;
            error: string | null;
            /** @description What was sent (first 4 KiB). */
            request_body: string;
            /** @description What came back (first 4 KiB). */
            response_body: string | null;
        };
        /** @description Something that happened, as webhooks deliver it (the same id, type and data). */
        Event: {
            /** @example evt_01JDQ9F1G2H3J4K5M6N7P8Q9R0 */
            id: string;
            /** @enum {string} */
            object: "event";
            type: string;
            created_at: string;
            tenant_id: string;
            /** @enum {string} */
            environment: "sandbox" | "production";
            /** @description The event's object, as in its webhook (see the OpenAPI document's `webhooks`). */
            data: {
                [key: string]: unknown;
            };
        };
        Repasse: {
            /** @enum {string} */
            object: "repasse";
            competence: string;
            /** @enum {string} */
            scenario: "full" | "partial" | "none";
            partial_percent: number | null;
            contracts: {
                contract_id: string;
                /** @enum {string} */
                status: "processed" | "skipped";
                /**
                 * @description Why a contract was skipped: the month was already processed for it (its original amounts are shown), it is not active, or nothing of it falls due in the month.
                 * @enum {string|null}
                 */
                reason: "already_processed" | "contract_not_active" | "no_installment_due" | null;
                /** @description Open on its installments of the month before the transfer, integer centavos. */
                amount_due: number;
                /** @description Transferred and applied, integer centavos. */
                amount_paid: number;
                installments: {
                    id: string;
                    number: number;
                    due_date: string;
                    amount_paid: number;
                    /**
                     * @description After the transfer, as of today.
                     * @enum {string}
                     */
                    status: "open" | "overdue" | "partially_paid" | "paid" | "canceled";
                }[];
            }[];
            totals: {
                processed: number;
                skipped: number;
                amount_due: number;
                amount_paid: number;
            };
        };
        RepasseBody: {
            /**
             * @description The competence month (YYYY-MM) whose deducted installments the paying source transfers.
             * @example 2026-04
             */
            competence: string;
            /**
             * @description full: every installment due in the month is paid; partial: `partial_percent` of each is paid; none: nothing arrives (they stay open, overdue after their due date).
             * @enum {string}
             */
            scenario: "full" | "partial" | "none";
            /**
             * @description With `partial`: the share of each open installment paid, 1–99 (default 50), rounded down to the centavo.
             * @default 50
             */
            partial_percent?: number;
            /** @description Only these payroll contracts (default: every active payroll contract of the environment). */
            contract_ids?: string[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API is up and the credential works here. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "environment": "sandbox",
                     *       "version": "1.4.0",
                     *       "tenant": "ten_01JD0000000000000000000000"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The database is unavailable (the credential cannot be checked): retry after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthUnavailable"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description Tokens issued. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJvYWNfMDFKRC4uLiJ9.c2lnbmF0dXJl",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600,
                     *       "scope": "read write",
                     *       "refresh_token": "rt_test_4f9c2b7e1d8a6c3b5e0f2a9d7c4b1e8f",
                     *       "refresh_token_expires_in": 2592000
                     *     }
                     */
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only the customer with this CPF or CNPJ, formatted or not (`529.982.247-25` = `52998224725`); an empty list when none. */
                document?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of customers. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *           "object": "customer",
                     *           "kind": "person",
                     *           "document": "52998224725",
                     *           "document_formatted": "529.982.247-25",
                     *           "name": "Maria da Silva",
                     *           "birth_date": "1960-05-10",
                     *           "foundation_date": null,
                     *           "email": "maria@example.com.br",
                     *           "phone": "+5511987654321",
                     *           "address": {
                     *             "street": "Rua das Flores",
                     *             "number": "100",
                     *             "complement": "Apto 12",
                     *             "district": "Centro",
                     *             "city": "São Paulo",
                     *             "state": "SP",
                     *             "zip_code": "01001000"
                     *           },
                     *           "monthly_income": 650000,
                     *           "payroll": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T11:58:00.000Z",
                     *           "updated_at": "2026-12-01T11:58:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": components["schemas"]["CustomerList"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCustomerBody"];
            };
        };
        responses: {
            /** @description The customer was created. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "object": "customer",
                     *       "kind": "person",
                     *       "document": "52998224725",
                     *       "document_formatted": "529.982.247-25",
                     *       "name": "Maria da Silva",
                     *       "birth_date": "1960-05-10",
                     *       "foundation_date": null,
                     *       "email": "maria@example.com.br",
                     *       "phone": "+5511987654321",
                     *       "address": {
                     *         "street": "Rua das Flores",
                     *         "number": "100",
                     *         "complement": "Apto 12",
                     *         "district": "Centro",
                     *         "city": "São Paulo",
                     *         "state": "SP",
                     *         "zip_code": "01001000"
                     *       },
                     *       "monthly_income": 650000,
                     *       "payroll": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T11:58:00.000Z",
                     *       "updated_at": "2026-12-01T11:58:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                /** @description The customer's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "object": "customer",
                     *       "kind": "person",
                     *       "document": "52998224725",
                     *       "document_formatted": "529.982.247-25",
                     *       "name": "Maria da Silva",
                     *       "birth_date": "1960-05-10",
                     *       "foundation_date": null,
                     *       "email": "maria@example.com.br",
                     *       "phone": "+5511987654321",
                     *       "address": {
                     *         "street": "Rua das Flores",
                     *         "number": "100",
                     *         "complement": "Apto 12",
                     *         "district": "Centro",
                     *         "city": "São Paulo",
                     *         "state": "SP",
                     *         "zip_code": "01001000"
                     *       },
                     *       "monthly_income": 650000,
                     *       "payroll": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T11:58:00.000Z",
                     *       "updated_at": "2026-12-01T11:58:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCustomer: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                /** @description The customer's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCustomerBody"];
            };
        };
        responses: {
            /** @description The customer after the update. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "object": "customer",
                     *       "kind": "person",
                     *       "document": "52998224725",
                     *       "document_formatted": "529.982.247-25",
                     *       "name": "Maria da Silva",
                     *       "birth_date": "1960-05-10",
                     *       "foundation_date": null,
                     *       "email": "maria@example.com.br",
                     *       "phone": "+5511987654321",
                     *       "address": {
                     *         "street": "Rua das Flores",
                     *         "number": "100",
                     *         "complement": "Apto 12",
                     *         "district": "Centro",
                     *         "city": "São Paulo",
                     *         "state": "SP",
                     *         "zip_code": "01001000"
                     *       },
                     *       "monthly_income": 650000,
                     *       "payroll": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T11:58:00.000Z",
                     *       "updated_at": "2026-12-01T11:58:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listClients: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only the customer with this CPF or CNPJ, formatted or not (`529.982.247-25` = `52998224725`); an empty list when none. */
                document?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of customers. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *           "object": "customer",
                     *           "kind": "person",
                     *           "document": "52998224725",
                     *           "document_formatted": "529.982.247-25",
                     *           "name": "Maria da Silva",
                     *           "birth_date": "1960-05-10",
                     *           "foundation_date": null,
                     *           "email": "maria@example.com.br",
                     *           "phone": "+5511987654321",
                     *           "address": {
                     *             "street": "Rua das Flores",
                     *             "number": "100",
                     *             "complement": "Apto 12",
                     *             "district": "Centro",
                     *             "city": "São Paulo",
                     *             "state": "SP",
                     *             "zip_code": "01001000"
                     *           },
                     *           "monthly_income": 650000,
                     *           "payroll": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T11:58:00.000Z",
                     *           "updated_at": "2026-12-01T11:58:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": components["schemas"]["CustomerList"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getClient: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                /** @description The customer's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "object": "customer",
                     *       "kind": "person",
                     *       "document": "52998224725",
                     *       "document_formatted": "529.982.247-25",
                     *       "name": "Maria da Silva",
                     *       "birth_date": "1960-05-10",
                     *       "foundation_date": null,
                     *       "email": "maria@example.com.br",
                     *       "phone": "+5511987654321",
                     *       "address": {
                     *         "street": "Rua das Flores",
                     *         "number": "100",
                     *         "complement": "Apto 12",
                     *         "district": "Centro",
                     *         "city": "São Paulo",
                     *         "state": "SP",
                     *         "zip_code": "01001000"
                     *       },
                     *       "monthly_income": 650000,
                     *       "payroll": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T11:58:00.000Z",
                     *       "updated_at": "2026-12-01T11:58:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSimulations: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only this customer's simulations. */
                customer_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of simulations. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *           "object": "simulation",
                     *           "product": "personal_loan",
                     *           "amortization": "price",
                     *           "term": 6,
                     *           "monthly_rate": "0.0299",
                     *           "annual_rate": "0.42410069",
                     *           "borrower_kind": "PF",
                     *           "requested_amount": 500000,
                     *           "principal": 506584,
                     *           "released_amount": 500000,
                     *           "upfront_charges": 0,
                     *           "installment_amount": 93759,
                     *           "max_installment_amount": 93759,
                     *           "iof": {
                     *             "daily": 4659,
                     *             "additional": 1925,
                     *             "total": 6584,
                     *             "financed": true
                     *           },
                     *           "fees": [],
                     *           "totals": {
                     *             "payments": 562553,
                     *             "interest": 55969,
                     *             "amortization": 506584
                     *           },
                     *           "cet": {
                     *             "monthly_percent": "3.38",
                     *             "annual_percent": "49.00"
                     *           },
                     *           "disbursement_date": "2026-12-01",
                     *           "first_due_date": "2027-01-04",
                     *           "due_date_rule": "following",
                     *           "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T12:00:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["SimulationSummary"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSimulation: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSimulationBody"];
            };
        };
        responses: {
            /** @description The simulation, stored. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "object": "simulation",
                     *       "product": "personal_loan",
                     *       "amortization": "price",
                     *       "term": 6,
                     *       "monthly_rate": "0.0299",
                     *       "annual_rate": "0.42410069",
                     *       "borrower_kind": "PF",
                     *       "requested_amount": 500000,
                     *       "principal": 506584,
                     *       "released_amount": 500000,
                     *       "upfront_charges": 0,
                     *       "installment_amount": 93759,
                     *       "max_installment_amount": 93759,
                     *       "iof": {
                     *         "daily": 4659,
                     *         "additional": 1925,
                     *         "total": 6584,
                     *         "financed": true
                     *       },
                     *       "fees": [],
                     *       "totals": {
                     *         "payments": 562553,
                     *         "interest": 55969,
                     *         "amortization": 506584
                     *       },
                     *       "cet": {
                     *         "monthly_percent": "3.38",
                     *         "annual_percent": "49.00"
                     *       },
                     *       "disbursement_date": "2026-12-01",
                     *       "first_due_date": "2027-01-04",
                     *       "due_date_rule": "following",
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:00:00.000Z",
                     *       "schedule": [
                     *         {
                     *           "number": 1,
                     *           "due_date": "2027-01-04",
                     *           "opening_balance": 506584,
                     *           "interest": 16686,
                     *           "amortization": 77073,
                     *           "payment": 93759,
                     *           "closing_balance": 429511
                     *         },
                     *         {
                     *           "number": 2,
                     *           "due_date": "2027-02-04",
                     *           "opening_balance": 429511,
                     *           "interest": 12842,
                     *           "amortization": 80917,
                     *           "payment": 93759,
                     *           "closing_balance": 348594
                     *         },
                     *         {
                     *           "number": 3,
                     *           "due_date": "2027-03-04",
                     *           "opening_balance": 348594,
                     *           "interest": 10423,
                     *           "amortization": 83336,
                     *           "payment": 93759,
                     *           "closing_balance": 265258
                     *         },
                     *         {
                     *           "number": 4,
                     *           "due_date": "2027-04-05",
                     *           "opening_balance": 265258,
                     *           "interest": 7931,
                     *           "amortization": 85828,
                     *           "payment": 93759,
                     *           "closing_balance": 179430
                     *         },
                     *         {
                     *           "number": 5,
                     *           "due_date": "2027-05-04",
                     *           "opening_balance": 179430,
                     *           "interest": 5365,
                     *           "amortization": 88394,
                     *           "payment": 93759,
                     *           "closing_balance": 91036
                     *         },
                     *         {
                     *           "number": 6,
                     *           "due_date": "2027-06-04",
                     *           "opening_balance": 91036,
                     *           "interest": 2722,
                     *           "amortization": 91036,
                     *           "payment": 93758,
                     *           "closing_balance": 0
                     *         }
                     *       ],
                     *       "iof_schedule": [
                     *         {
                     *           "number": 1,
                     *           "due_date": "2027-01-04",
                     *           "days": 34,
                     *           "base": 77073,
                     *           "iof": 215
                     *         },
                     *         {
                     *           "number": 2,
                     *           "due_date": "2027-02-04",
                     *           "days": 65,
                     *           "base": 80917,
                     *           "iof": 431
                     *         },
                     *         {
                     *           "number": 3,
                     *           "due_date": "2027-03-04",
                     *           "days": 93,
                     *           "base": 83336,
                     *           "iof": 636
                     *         },
                     *         {
                     *           "number": 4,
                     *           "due_date": "2027-04-05",
                     *           "days": 125,
                     *           "base": 85828,
                     *           "iof": 880
                     *         },
                     *         {
                     *           "number": 5,
                     *           "due_date": "2027-05-04",
                     *           "days": 154,
                     *           "base": 88394,
                     *           "iof": 1116
                     *         },
                     *         {
                     *           "number": 6,
                     *           "due_date": "2027-06-04",
                     *           "days": 185,
                     *           "base": 91036,
                     *           "iof": 1381
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSimulation: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                /** @description The simulation's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simulation. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "object": "simulation",
                     *       "product": "personal_loan",
                     *       "amortization": "price",
                     *       "term": 6,
                     *       "monthly_rate": "0.0299",
                     *       "annual_rate": "0.42410069",
                     *       "borrower_kind": "PF",
                     *       "requested_amount": 500000,
                     *       "principal": 506584,
                     *       "released_amount": 500000,
                     *       "upfront_charges": 0,
                     *       "installment_amount": 93759,
                     *       "max_installment_amount": 93759,
                     *       "iof": {
                     *         "daily": 4659,
                     *         "additional": 1925,
                     *         "total": 6584,
                     *         "financed": true
                     *       },
                     *       "fees": [],
                     *       "totals": {
                     *         "payments": 562553,
                     *         "interest": 55969,
                     *         "amortization": 506584
                     *       },
                     *       "cet": {
                     *         "monthly_percent": "3.38",
                     *         "annual_percent": "49.00"
                     *       },
                     *       "disbursement_date": "2026-12-01",
                     *       "first_due_date": "2027-01-04",
                     *       "due_date_rule": "following",
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:00:00.000Z",
                     *       "schedule": [
                     *         {
                     *           "number": 1,
                     *           "due_date": "2027-01-04",
                     *           "opening_balance": 506584,
                     *           "interest": 16686,
                     *           "amortization": 77073,
                     *           "payment": 93759,
                     *           "closing_balance": 429511
                     *         },
                     *         {
                     *           "number": 2,
                     *           "due_date": "2027-02-04",
                     *           "opening_balance": 429511,
                     *           "interest": 12842,
                     *           "amortization": 80917,
                     *           "payment": 93759,
                     *           "closing_balance": 348594
                     *         },
                     *         {
                     *           "number": 3,
                     *           "due_date": "2027-03-04",
                     *           "opening_balance": 348594,
                     *           "interest": 10423,
                     *           "amortization": 83336,
                     *           "payment": 93759,
                     *           "closing_balance": 265258
                     *         },
                     *         {
                     *           "number": 4,
                     *           "due_date": "2027-04-05",
                     *           "opening_balance": 265258,
                     *           "interest": 7931,
                     *           "amortization": 85828,
                     *           "payment": 93759,
                     *           "closing_balance": 179430
                     *         },
                     *         {
                     *           "number": 5,
                     *           "due_date": "2027-05-04",
                     *           "opening_balance": 179430,
                     *           "interest": 5365,
                     *           "amortization": 88394,
                     *           "payment": 93759,
                     *           "closing_balance": 91036
                     *         },
                     *         {
                     *           "number": 6,
                     *           "due_date": "2027-06-04",
                     *           "opening_balance": 91036,
                     *           "interest": 2722,
                     *           "amortization": 91036,
                     *           "payment": 93758,
                     *           "closing_balance": 0
                     *         }
                     *       ],
                     *       "iof_schedule": [
                     *         {
                     *           "number": 1,
                     *           "due_date": "2027-01-04",
                     *           "days": 34,
                     *           "base": 77073,
                     *           "iof": 215
                     *         },
                     *         {
                     *           "number": 2,
                     *           "due_date": "2027-02-04",
                     *           "days": 65,
                     *           "base": 80917,
                     *           "iof": 431
                     *         },
                     *         {
                     *           "number": 3,
                     *           "due_date": "2027-03-04",
                     *           "days": 93,
                     *           "base": 83336,
                     *           "iof": 636
                     *         },
                     *         {
                     *           "number": 4,
                     *           "due_date": "2027-04-05",
                     *           "days": 125,
                     *           "base": 85828,
                     *           "iof": 880
                     *         },
                     *         {
                     *           "number": 5,
                     *           "due_date": "2027-05-04",
                     *           "days": 154,
                     *           "base": 88394,
                     *           "iof": 1116
                     *         },
                     *         {
                     *           "number": 6,
                     *           "due_date": "2027-06-04",
                     *           "days": 185,
                     *           "base": 91036,
                     *           "iof": 1381
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listProposals: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only proposals in this status. */
                status?: "draft" | "pending_review" | "approved" | "rejected" | "signed" | "contract_issued" | "canceled" | "expired";
                customer_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of proposals. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *           "object": "proposal",
                     *           "status": "draft",
                     *           "allowed_actions": [
                     *             "submit",
                     *             "cancel"
                     *           ],
                     *           "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *           "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *           "margin_query_id": null,
                     *           "risk_assessment_id": null,
                     *           "terms": {
                     *             "product": "personal_loan",
                     *             "amortization": "price",
                     *             "principal": 506584,
                     *             "released_amount": 500000,
                     *             "installment_amount": 93759,
                     *             "max_installment_amount": 93759,
                     *             "monthly_rate": "0.0299",
                     *             "term": 6,
                     *             "disbursement_date": "2026-12-01",
                     *             "first_due_date": "2027-01-04",
                     *             "cet": {
                     *               "monthly_percent": "3.38",
                     *               "annual_percent": "49.00"
                     *             }
                     *           },
                     *           "reason": null,
                     *           "expires_at": "2026-12-31T12:00:00.000Z",
                     *           "contract_id": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T12:01:00.000Z",
                     *           "updated_at": "2026-12-01T12:05:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Proposal"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createProposal: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProposalBody"];
            };
        };
        responses: {
            /** @description Created in status `draft`. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "proposal",
                     *       "status": "draft",
                     *       "allowed_actions": [
                     *         "submit",
                     *         "cancel"
                     *       ],
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "margin_query_id": null,
                     *       "risk_assessment_id": null,
                     *       "terms": {
                     *         "product": "personal_loan",
                     *         "amortization": "price",
                     *         "principal": 506584,
                     *         "released_amount": 500000,
                     *         "installment_amount": 93759,
                     *         "max_installment_amount": 93759,
                     *         "monthly_rate": "0.0299",
                     *         "term": 6,
                     *         "disbursement_date": "2026-12-01",
                     *         "first_due_date": "2027-01-04",
                     *         "cet": {
                     *           "monthly_percent": "3.38",
                     *           "annual_percent": "49.00"
                     *         }
                     *       },
                     *       "reason": null,
                     *       "expires_at": "2026-12-31T12:00:00.000Z",
                     *       "contract_id": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:01:00.000Z",
                     *       "updated_at": "2026-12-01T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getProposal: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proposal. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "proposal",
                     *       "status": "draft",
                     *       "allowed_actions": [
                     *         "submit",
                     *         "cancel"
                     *       ],
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "margin_query_id": null,
                     *       "risk_assessment_id": null,
                     *       "terms": {
                     *         "product": "personal_loan",
                     *         "amortization": "price",
                     *         "principal": 506584,
                     *         "released_amount": 500000,
                     *         "installment_amount": 93759,
                     *         "max_installment_amount": 93759,
                     *         "monthly_rate": "0.0299",
                     *         "term": 6,
                     *         "disbursement_date": "2026-12-01",
                     *         "first_due_date": "2027-01-04",
                     *         "cet": {
                     *           "monthly_percent": "3.38",
                     *           "annual_percent": "49.00"
                     *         }
                     *       },
                     *       "reason": null,
                     *       "expires_at": "2026-12-31T12:00:00.000Z",
                     *       "contract_id": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:01:00.000Z",
                     *       "updated_at": "2026-12-01T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    submitProposal: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proposal. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "proposal",
                     *       "status": "pending_review",
                     *       "allowed_actions": [
                     *         "approve",
                     *         "reject",
                     *         "cancel"
                     *       ],
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "margin_query_id": null,
                     *       "risk_assessment_id": "rsk_01JDQ7D1E2F3G4H5J6K7M8N9P0",
                     *       "terms": {
                     *         "product": "personal_loan",
                     *         "amortization": "price",
                     *         "principal": 506584,
                     *         "released_amount": 500000,
                     *         "installment_amount": 93759,
                     *         "max_installment_amount": 93759,
                     *         "monthly_rate": "0.0299",
                     *         "term": 6,
                     *         "disbursement_date": "2026-12-01",
                     *         "first_due_date": "2027-01-04",
                     *         "cet": {
                     *           "monthly_percent": "3.38",
                     *           "annual_percent": "49.00"
                     *         }
                     *       },
                     *       "reason": null,
                     *       "expires_at": "2026-12-31T12:00:00.000Z",
                     *       "contract_id": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:01:00.000Z",
                     *       "updated_at": "2026-12-01T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    approveProposal: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proposal. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "proposal",
                     *       "status": "approved",
                     *       "allowed_actions": [
                     *         "sign",
                     *         "cancel"
                     *       ],
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "margin_query_id": null,
                     *       "risk_assessment_id": "rsk_01JDQ7D1E2F3G4H5J6K7M8N9P0",
                     *       "terms": {
                     *         "product": "personal_loan",
                     *         "amortization": "price",
                     *         "principal": 506584,
                     *         "released_amount": 500000,
                     *         "installment_amount": 93759,
                     *         "max_installment_amount": 93759,
                     *         "monthly_rate": "0.0299",
                     *         "term": 6,
                     *         "disbursement_date": "2026-12-01",
                     *         "first_due_date": "2027-01-04",
                     *         "cet": {
                     *           "monthly_percent": "3.38",
                     *           "annual_percent": "49.00"
                     *         }
                     *       },
                     *       "reason": null,
                     *       "expires_at": "2026-12-31T12:00:00.000Z",
                     *       "contract_id": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:01:00.000Z",
                     *       "updated_at": "2026-12-01T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rejectProposal: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RejectBody"];
            };
        };
        responses: {
            /** @description The proposal. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "proposal",
                     *       "status": "rejected",
                     *       "allowed_actions": [],
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "margin_query_id": null,
                     *       "risk_assessment_id": "rsk_01JDQ7D1E2F3G4H5J6K7M8N9P0",
                     *       "terms": {
                     *         "product": "personal_loan",
                     *         "amortization": "price",
                     *         "principal": 506584,
                     *         "released_amount": 500000,
                     *         "installment_amount": 93759,
                     *         "max_installment_amount": 93759,
                     *         "monthly_rate": "0.0299",
                     *         "term": 6,
                     *         "disbursement_date": "2026-12-01",
                     *         "first_due_date": "2027-01-04",
                     *         "cet": {
                     *           "monthly_percent": "3.38",
                     *           "annual_percent": "49.00"
                     *         }
                     *       },
                     *       "reason": "Income does not support the installment",
                     *       "expires_at": "2026-12-31T12:00:00.000Z",
                     *       "contract_id": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:01:00.000Z",
                     *       "updated_at": "2026-12-01T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    signProposal: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proposal. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "proposal",
                     *       "status": "signed",
                     *       "allowed_actions": [],
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "margin_query_id": null,
                     *       "risk_assessment_id": "rsk_01JDQ7D1E2F3G4H5J6K7M8N9P0",
                     *       "terms": {
                     *         "product": "personal_loan",
                     *         "amortization": "price",
                     *         "principal": 506584,
                     *         "released_amount": 500000,
                     *         "installment_amount": 93759,
                     *         "max_installment_amount": 93759,
                     *         "monthly_rate": "0.0299",
                     *         "term": 6,
                     *         "disbursement_date": "2026-12-01",
                     *         "first_due_date": "2027-01-04",
                     *         "cet": {
                     *           "monthly_percent": "3.38",
                     *           "annual_percent": "49.00"
                     *         }
                     *       },
                     *       "reason": null,
                     *       "expires_at": "2026-12-31T12:00:00.000Z",
                     *       "contract_id": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:01:00.000Z",
                     *       "updated_at": "2026-12-01T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelProposal: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReasonBody"];
            };
        };
        responses: {
            /** @description The proposal. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "proposal",
                     *       "status": "canceled",
                     *       "allowed_actions": [],
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "simulation_id": "sim_01JDQ7B1C2D3E4F5G6H7J8K9M0",
                     *       "margin_query_id": null,
                     *       "risk_assessment_id": "rsk_01JDQ7D1E2F3G4H5J6K7M8N9P0",
                     *       "terms": {
                     *         "product": "personal_loan",
                     *         "amortization": "price",
                     *         "principal": 506584,
                     *         "released_amount": 500000,
                     *         "installment_amount": 93759,
                     *         "max_installment_amount": 93759,
                     *         "monthly_rate": "0.0299",
                     *         "term": 6,
                     *         "disbursement_date": "2026-12-01",
                     *         "first_due_date": "2027-01-04",
                     *         "cet": {
                     *           "monthly_percent": "3.38",
                     *           "annual_percent": "49.00"
                     *         }
                     *       },
                     *       "reason": "Customer gave up",
                     *       "expires_at": "2026-12-31T12:00:00.000Z",
                     *       "contract_id": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:01:00.000Z",
                     *       "updated_at": "2026-12-01T12:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listContracts: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                status?: "active" | "settled" | "written_off" | "assigned" | "canceled";
                customer_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of contracts. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "object": "contract",
                     *           "number": "CCB-2026-000001",
                     *           "status": "active",
                     *           "proposal_id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *           "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *           "product": "personal_loan",
                     *           "amortization": "price",
                     *           "principal": 506584,
                     *           "released_amount": 500000,
                     *           "monthly_rate": "0.0299",
                     *           "term": 6,
                     *           "disbursement_date": "2026-12-01",
                     *           "first_due_date": "2027-01-04",
                     *           "installment_amount": 93759,
                     *           "amount_paid": 0,
                     *           "assignment_id": null,
                     *           "outstanding_balance": 562553,
                     *           "credit_balance": 0,
                     *           "cet": {
                     *             "monthly_percent": "3.38",
                     *             "annual_percent": "49.00"
                     *           },
                     *           "iof": {
                     *             "daily": 4659,
                     *             "additional": 1925,
                     *             "total": 6584,
                     *             "financed": true
                     *           },
                     *           "late_charges": {
                     *             "fine_rate": "0.02",
                     *             "monthly_interest_rate": "0.01"
                     *           },
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T12:10:00.000Z",
                     *           "updated_at": "2026-12-01T12:10:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Contract"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    issueContract: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueContractBody"];
            };
        };
        responses: {
            /** @description The contract. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "object": "contract",
                     *       "number": "CCB-2026-000001",
                     *       "status": "active",
                     *       "proposal_id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "product": "personal_loan",
                     *       "amortization": "price",
                     *       "principal": 506584,
                     *       "released_amount": 500000,
                     *       "monthly_rate": "0.0299",
                     *       "term": 6,
                     *       "disbursement_date": "2026-12-01",
                     *       "first_due_date": "2027-01-04",
                     *       "installment_amount": 93759,
                     *       "amount_paid": 0,
                     *       "assignment_id": null,
                     *       "outstanding_balance": 562553,
                     *       "credit_balance": 0,
                     *       "cet": {
                     *         "monthly_percent": "3.38",
                     *         "annual_percent": "49.00"
                     *       },
                     *       "iof": {
                     *         "daily": 4659,
                     *         "additional": 1925,
                     *         "total": 6584,
                     *         "financed": true
                     *       },
                     *       "late_charges": {
                     *         "fine_rate": "0.02",
                     *         "monthly_interest_rate": "0.01"
                     *       },
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:10:00.000Z",
                     *       "updated_at": "2026-12-01T12:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getContract: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contract. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "object": "contract",
                     *       "number": "CCB-2026-000001",
                     *       "status": "active",
                     *       "proposal_id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "product": "personal_loan",
                     *       "amortization": "price",
                     *       "principal": 506584,
                     *       "released_amount": 500000,
                     *       "monthly_rate": "0.0299",
                     *       "term": 6,
                     *       "disbursement_date": "2026-12-01",
                     *       "first_due_date": "2027-01-04",
                     *       "installment_amount": 93759,
                     *       "amount_paid": 0,
                     *       "assignment_id": null,
                     *       "outstanding_balance": 562553,
                     *       "credit_balance": 0,
                     *       "cet": {
                     *         "monthly_percent": "3.38",
                     *         "annual_percent": "49.00"
                     *       },
                     *       "iof": {
                     *         "daily": 4659,
                     *         "additional": 1925,
                     *         "total": 6584,
                     *         "financed": true
                     *       },
                     *       "late_charges": {
                     *         "fine_rate": "0.02",
                     *         "monthly_interest_rate": "0.01"
                     *       },
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:10:00.000Z",
                     *       "updated_at": "2026-12-01T12:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelContract: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CancelContractBody"];
            };
        };
        responses: {
            /** @description The canceled contract. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "object": "contract",
                     *       "number": "CCB-2026-000001",
                     *       "status": "canceled",
                     *       "proposal_id": "prp_01JDQ7C1D2E3F4G5H6J7K8M9N0",
                     *       "customer_id": "cus_01JDQ7A1B2C3D4E5F6G7H8J9K0",
                     *       "product": "personal_loan",
                     *       "amortization": "price",
                     *       "principal": 506584,
                     *       "released_amount": 500000,
                     *       "monthly_rate": "0.0299",
                     *       "term": 6,
                     *       "disbursement_date": "2026-12-01",
                     *       "first_due_date": "2027-01-04",
                     *       "installment_amount": 93759,
                     *       "amount_paid": 0,
                     *       "assignment_id": null,
                     *       "outstanding_balance": 0,
                     *       "credit_balance": 0,
                     *       "cet": {
                     *         "monthly_percent": "3.38",
                     *         "annual_percent": "49.00"
                     *       },
                     *       "iof": {
                     *         "daily": 4659,
                     *         "additional": 1925,
                     *         "total": 6584,
                     *         "financed": true
                     *       },
                     *       "late_charges": {
                     *         "fine_rate": "0.02",
                     *         "monthly_interest_rate": "0.01"
                     *       },
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T12:10:00.000Z",
                     *       "updated_at": "2026-12-01T12:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listContractInstallments: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Status as of `as_of` (overdue = unpaid after its due date, or after the next business day when the due date is a weekend or national holiday: Lei 7.089/1983). */
                status?: "open" | "overdue" | "partially_paid" | "paid" | "canceled";
                /** @description Due on or after this date. */
                due_from?: string;
                /** @description Due on or before this date. */
                due_to?: string;
                /** @description Date `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31. */
                as_of?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of installments. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "ins_01JDQ83B4C5D6E7F8G9H0J1K2M",
                     *           "object": "installment",
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "number": 1,
                     *           "due_date": "2027-01-04",
                     *           "principal": 77073,
                     *           "interest": 16686,
                     *           "amount": 93759,
                     *           "paid_amount": 0,
                     *           "status": "open",
                     *           "paid_at": null,
                     *           "amount_due": {
                     *             "as_of": "2026-12-15",
                     *             "days_late": 0,
                     *             "outstanding": 93759,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 93759
                     *           },
                     *           "environment": "sandbox"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Installment"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInstallments: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                contract_id?: string;
                /** @description Status as of `as_of` (overdue = unpaid after its due date, or after the next business day when the due date is a weekend or national holiday: Lei 7.089/1983). */
                status?: "open" | "overdue" | "partially_paid" | "paid" | "canceled";
                /** @description Due on or after this date. */
                due_from?: string;
                /** @description Due on or before this date. */
                due_to?: string;
                /** @description Date `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31. */
                as_of?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of installments. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "ins_01JDQ83B4C5D6E7F8G9H0J1K2M",
                     *           "object": "installment",
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "number": 1,
                     *           "due_date": "2027-01-04",
                     *           "principal": 77073,
                     *           "interest": 16686,
                     *           "amount": 93759,
                     *           "paid_amount": 0,
                     *           "status": "open",
                     *           "paid_at": null,
                     *           "amount_due": {
                     *             "as_of": "2026-12-15",
                     *             "days_late": 0,
                     *             "outstanding": 93759,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 93759
                     *           },
                     *           "environment": "sandbox"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Installment"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getInstallment: {
        parameters: {
            query?: {
                /** @description Date (YYYY-MM-DD, America/Sao_Paulo) for status and amount due; default today. */
                as_of?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The installment. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "ins_01JDQ83B4C5D6E7F8G9H0J1K2M",
                     *       "object": "installment",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "number": 1,
                     *       "due_date": "2027-01-04",
                     *       "principal": 77073,
                     *       "interest": 16686,
                     *       "amount": 93759,
                     *       "paid_amount": 0,
                     *       "status": "open",
                     *       "paid_at": null,
                     *       "amount_due": {
                     *         "as_of": "2026-12-15",
                     *         "days_late": 0,
                     *         "outstanding": 93759,
                     *         "fine": 0,
                     *         "late_interest": 0,
                     *         "total": 93759
                     *       },
                     *       "environment": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["Installment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listRiskAssessments: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only this customer's assessments. */
                customer_id?: string;
                /** @description Only this proposal's assessments. */
                proposal_id?: string;
                /** @description Only assessments with this decision. */
                decision?: "approve" | "review" | "decline";
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of assessments. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "rsk_01JDQ7ZQ1W2E3R4T5Y6V7J809P",
                     *           "object": "risk_assessment",
                     *           "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *           "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *           "margin_query_id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *           "scorecard_version": "2026-11.4",
                     *           "score": 820,
                     *           "band": "A",
                     *           "decision": "approve",
                     *           "reasons": [
                     *             {
                     *               "code": "borrower_age_61_to_75",
                     *               "points": 40,
                     *               "description": "The borrower is 61 to 75 years old"
                     *             },
                     *             {
                     *               "code": "margin_covers_installment",
                     *               "points": 60,
                     *               "description": "The available payroll margin covers the installment"
                     *             },
                     *             {
                     *               "code": "income_commitment_low",
                     *               "points": 100,
                     *               "description": "Debt payments take a small share of the monthly income"
                     *             },
                     *             {
                     *               "code": "payroll_deduction",
                     *               "points": 120,
                     *               "description": "The installment is deducted from payroll or benefit before payment"
                     *             }
                     *           ],
                     *           "max_affordable_installment": 157500,
                     *           "inputs": {
                     *             "as_of": "2026-11-23",
                     *             "customer_kind": "person",
                     *             "birth_date": "1960-05-10",
                     *             "customer_since": "2026-11-23",
                     *             "monthly_income": 450000,
                     *             "other_monthly_debt": 0,
                     *             "installment_amount": 95373,
                     *             "term_months": 12,
                     *             "last_due_date": "2027-11-23",
                     *             "product": "inss_payroll",
                     *             "payroll_deducted": true,
                     *             "margin": {
                     *               "available_loan_margin": 189813,
                     *               "source_status": "active",
                     *               "blocked_for_loans": false
                     *             },
                     *             "history": {
                     *               "paid_installments": 0,
                     *               "overdue_now": 0,
                     *               "late_over_30_days_last_12_months": 0
                     *             }
                     *           },
                     *           "environment": "sandbox",
                     *           "created_at": "2026-11-23T13:05:12.345Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["RiskAssessment"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createRiskAssessment: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRiskAssessmentBody"];
            };
        };
        responses: {
            /** @description The assessment, stored with its inputs. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "rsk_01JDQ7ZQ1W2E3R4T5Y6V7J809P",
                     *       "object": "risk_assessment",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *       "margin_query_id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *       "scorecard_version": "2026-11.4",
                     *       "score": 820,
                     *       "band": "A",
                     *       "decision": "approve",
                     *       "reasons": [
                     *         {
                     *           "code": "borrower_age_61_to_75",
                     *           "points": 40,
                     *           "description": "The borrower is 61 to 75 years old"
                     *         },
                     *         {
                     *           "code": "margin_covers_installment",
                     *           "points": 60,
                     *           "description": "The available payroll margin covers the installment"
                     *         },
                     *         {
                     *           "code": "income_commitment_low",
                     *           "points": 100,
                     *           "description": "Debt payments take a small share of the monthly income"
                     *         },
                     *         {
                     *           "code": "payroll_deduction",
                     *           "points": 120,
                     *           "description": "The installment is deducted from payroll or benefit before payment"
                     *         }
                     *       ],
                     *       "max_affordable_installment": 157500,
                     *       "inputs": {
                     *         "as_of": "2026-11-23",
                     *         "customer_kind": "person",
                     *         "birth_date": "1960-05-10",
                     *         "customer_since": "2026-11-23",
                     *         "monthly_income": 450000,
                     *         "other_monthly_debt": 0,
                     *         "installment_amount": 95373,
                     *         "term_months": 12,
                     *         "last_due_date": "2027-11-23",
                     *         "product": "inss_payroll",
                     *         "payroll_deducted": true,
                     *         "margin": {
                     *           "available_loan_margin": 189813,
                     *           "source_status": "active",
                     *           "blocked_for_loans": false
                     *         },
                     *         "history": {
                     *           "paid_installments": 0,
                     *           "overdue_now": 0,
                     *           "late_over_30_days_last_12_months": 0
                     *         }
                     *       },
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:05:12.345Z"
                     *     }
                     */
                    "application/json": components["schemas"]["RiskAssessment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRiskAssessment: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The assessment. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "rsk_01JDQ7ZQ1W2E3R4T5Y6V7J809P",
                     *       "object": "risk_assessment",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *       "margin_query_id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *       "scorecard_version": "2026-11.4",
                     *       "score": 820,
                     *       "band": "A",
                     *       "decision": "approve",
                     *       "reasons": [
                     *         {
                     *           "code": "borrower_age_61_to_75",
                     *           "points": 40,
                     *           "description": "The borrower is 61 to 75 years old"
                     *         },
                     *         {
                     *           "code": "margin_covers_installment",
                     *           "points": 60,
                     *           "description": "The available payroll margin covers the installment"
                     *         },
                     *         {
                     *           "code": "income_commitment_low",
                     *           "points": 100,
                     *           "description": "Debt payments take a small share of the monthly income"
                     *         },
                     *         {
                     *           "code": "payroll_deduction",
                     *           "points": 120,
                     *           "description": "The installment is deducted from payroll or benefit before payment"
                     *         }
                     *       ],
                     *       "max_affordable_installment": 157500,
                     *       "inputs": {
                     *         "as_of": "2026-11-23",
                     *         "customer_kind": "person",
                     *         "birth_date": "1960-05-10",
                     *         "customer_since": "2026-11-23",
                     *         "monthly_income": 450000,
                     *         "other_monthly_debt": 0,
                     *         "installment_amount": 95373,
                     *         "term_months": 12,
                     *         "last_due_date": "2027-11-23",
                     *         "product": "inss_payroll",
                     *         "payroll_deducted": true,
                     *         "margin": {
                     *           "available_loan_margin": 189813,
                     *           "source_status": "active",
                     *           "blocked_for_loans": false
                     *         },
                     *         "history": {
                     *           "paid_installments": 0,
                     *           "overdue_now": 0,
                     *           "late_over_30_days_last_12_months": 0
                     *         }
                     *       },
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:05:12.345Z"
                     *     }
                     */
                    "application/json": components["schemas"]["RiskAssessment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMarginQueries: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only this customer's queries. */
                customer_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of margin queries. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *           "object": "margin_query",
                     *           "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *           "source": {
                     *             "type": "inss",
                     *             "benefit_number": "1234567890"
                     *           },
                     *           "authority": "sandbox_simulator",
                     *           "authority_query_id": "SIMQ-3F9A6C21B07D44E1A9C2",
                     *           "margin_base": 612300,
                     *           "margins": [
                     *             {
                     *               "kind": "loan",
                     *               "share": "0.35",
                     *               "total": 214305,
                     *               "used": 24492,
                     *               "reserved": 0,
                     *               "available": 189813
                     *             },
                     *             {
                     *               "kind": "credit_card",
                     *               "share": "0.05",
                     *               "total": 30615,
                     *               "used": 0,
                     *               "reserved": 0,
                     *               "available": 30615
                     *             },
                     *             {
                     *               "kind": "benefit_card",
                     *               "share": "0.05",
                     *               "total": 30615,
                     *               "used": 0,
                     *               "reserved": 0,
                     *               "available": 30615
                     *             }
                     *           ],
                     *           "available_loan_margin": 189813,
                     *           "source_type": "41",
                     *           "source_status": "active",
                     *           "blocks": [],
                     *           "paying_institution": {
                     *             "code": "001",
                     *             "name": "Banco do Brasil S.A."
                     *           },
                     *           "existing_loans": [
                     *             {
                     *               "lender": "Banco Alfa S.A.",
                     *               "contract_number": "INSS-041277",
                     *               "installment_amount": 24492,
                     *               "remaining_installments": 37
                     *             }
                     *           ],
                     *           "valid_until": "2026-11-24T13:05:12.345Z",
                     *           "status": "valid",
                     *           "environment": "sandbox",
                     *           "created_at": "2026-11-23T13:05:12.345Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["MarginQuery"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createMarginQuery: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMarginQueryBody"];
            };
        };
        responses: {
            /** @description The authority's answer, stored. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *       "object": "margin_query",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "source": {
                     *         "type": "inss",
                     *         "benefit_number": "1234567890"
                     *       },
                     *       "authority": "sandbox_simulator",
                     *       "authority_query_id": "SIMQ-3F9A6C21B07D44E1A9C2",
                     *       "margin_base": 612300,
                     *       "margins": [
                     *         {
                     *           "kind": "loan",
                     *           "share": "0.35",
                     *           "total": 214305,
                     *           "used": 24492,
                     *           "reserved": 0,
                     *           "available": 189813
                     *         },
                     *         {
                     *           "kind": "credit_card",
                     *           "share": "0.05",
                     *           "total": 30615,
                     *           "used": 0,
                     *           "reserved": 0,
                     *           "available": 30615
                     *         },
                     *         {
                     *           "kind": "benefit_card",
                     *           "share": "0.05",
                     *           "total": 30615,
                     *           "used": 0,
                     *           "reserved": 0,
                     *           "available": 30615
                     *         }
                     *       ],
                     *       "available_loan_margin": 189813,
                     *       "source_type": "41",
                     *       "source_status": "active",
                     *       "blocks": [],
                     *       "paying_institution": {
                     *         "code": "001",
                     *         "name": "Banco do Brasil S.A."
                     *       },
                     *       "existing_loans": [
                     *         {
                     *           "lender": "Banco Alfa S.A.",
                     *           "contract_number": "INSS-041277",
                     *           "installment_amount": 24492,
                     *           "remaining_installments": 37
                     *         }
                     *       ],
                     *       "valid_until": "2026-11-24T13:05:12.345Z",
                     *       "status": "valid",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:05:12.345Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MarginQuery"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMarginQuery: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The margin query, with this platform's reservations from it counted as reserved. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *       "object": "margin_query",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "source": {
                     *         "type": "inss",
                     *         "benefit_number": "1234567890"
                     *       },
                     *       "authority": "sandbox_simulator",
                     *       "authority_query_id": "SIMQ-3F9A6C21B07D44E1A9C2",
                     *       "margin_base": 612300,
                     *       "margins": [
                     *         {
                     *           "kind": "loan",
                     *           "share": "0.35",
                     *           "total": 214305,
                     *           "used": 24492,
                     *           "reserved": 0,
                     *           "available": 189813
                     *         },
                     *         {
                     *           "kind": "credit_card",
                     *           "share": "0.05",
                     *           "total": 30615,
                     *           "used": 0,
                     *           "reserved": 0,
                     *           "available": 30615
                     *         },
                     *         {
                     *           "kind": "benefit_card",
                     *           "share": "0.05",
                     *           "total": 30615,
                     *           "used": 0,
                     *           "reserved": 0,
                     *           "available": 30615
                     *         }
                     *       ],
                     *       "available_loan_margin": 189813,
                     *       "source_type": "41",
                     *       "source_status": "active",
                     *       "blocks": [],
                     *       "paying_institution": {
                     *         "code": "001",
                     *         "name": "Banco do Brasil S.A."
                     *       },
                     *       "existing_loans": [
                     *         {
                     *           "lender": "Banco Alfa S.A.",
                     *           "contract_number": "INSS-041277",
                     *           "installment_amount": 24492,
                     *           "remaining_installments": 37
                     *         }
                     *       ],
                     *       "valid_until": "2026-11-24T13:05:12.345Z",
                     *       "status": "valid",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:05:12.345Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MarginQuery"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMarginReservations: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                status?: "requested" | "reserved" | "consumed" | "released" | "expired" | "refused";
                proposal_id?: string;
                customer_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of reservations. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
                     *           "object": "margin_reservation",
                     *           "status": "reserved",
                     *           "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *           "margin_query_id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *           "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *           "kind": "loan",
                     *           "installment_amount": 95373,
                     *           "term": 12,
                     *           "authority_reservation_id": "SIMR-OK-8E1F0C3B5A2D4E6F",
                     *           "refusal": null,
                     *           "expires_at": "2026-11-28T13:06:40.100Z",
                     *           "environment": "sandbox",
                     *           "created_at": "2026-11-23T13:06:40.100Z",
                     *           "updated_at": "2026-11-23T13:06:40.100Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["MarginReservation"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createMarginReservation: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMarginReservationBody"];
            };
        };
        responses: {
            /** @description The reservation: reserved or refused. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
                     *       "object": "margin_reservation",
                     *       "status": "reserved",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "margin_query_id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *       "proposal_id": null,
                     *       "kind": "loan",
                     *       "installment_amount": 95373,
                     *       "term": 12,
                     *       "authority_reservation_id": "SIMR-OK-8E1F0C3B5A2D4E6F",
                     *       "refusal": null,
                     *       "expires_at": "2026-11-28T13:06:40.100Z",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:06:40.100Z",
                     *       "updated_at": "2026-11-23T13:06:40.100Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MarginReservation"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMarginReservation: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reservation. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
                     *       "object": "margin_reservation",
                     *       "status": "reserved",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "margin_query_id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *       "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *       "kind": "loan",
                     *       "installment_amount": 95373,
                     *       "term": 12,
                     *       "authority_reservation_id": "SIMR-OK-8E1F0C3B5A2D4E6F",
                     *       "refusal": null,
                     *       "expires_at": "2026-11-28T13:06:40.100Z",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:06:40.100Z",
                     *       "updated_at": "2026-11-23T13:06:40.100Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MarginReservation"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelMarginReservation: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reservation, released (or expired). */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
                     *       "object": "margin_reservation",
                     *       "status": "released",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "margin_query_id": "mgq_01JDQ7Z6Q7X9V3K8M4N5P6R7S8",
                     *       "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *       "kind": "loan",
                     *       "installment_amount": 95373,
                     *       "term": 12,
                     *       "authority_reservation_id": "SIMR-OK-8E1F0C3B5A2D4E6F",
                     *       "refusal": null,
                     *       "expires_at": "2026-11-28T13:06:40.100Z",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:06:40.100Z",
                     *       "updated_at": "2026-11-23T13:06:40.100Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MarginReservation"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEndorsements: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                status?: "submitted" | "endorsed" | "refused" | "terminating" | "terminated";
                proposal_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endorsements. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "end_01JDQ81M2N3P4Q5R6S7T8V9W0X",
                     *           "object": "endorsement",
                     *           "status": "endorsed",
                     *           "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *           "reservation_id": "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
                     *           "contract_number": "CCB-2026-000042",
                     *           "authority_endorsement_id": "SIME-5C7D9E1F3A5B7C9D",
                     *           "refusal": null,
                     *           "endorsed_at": "2026-11-23T15:20:00.000Z",
                     *           "termination": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-11-23T15:20:00.000Z",
                     *           "updated_at": "2026-11-23T15:20:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Endorsement"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createEndorsement: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEndorsementBody"];
            };
        };
        responses: {
            /** @description The endorsement: endorsed or refused. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "end_01JDQ81M2N3P4Q5R6S7T8V9W0X",
                     *       "object": "endorsement",
                     *       "status": "endorsed",
                     *       "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *       "reservation_id": "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
                     *       "contract_number": "CCB-2026-000042",
                     *       "authority_endorsement_id": "SIME-5C7D9E1F3A5B7C9D",
                     *       "refusal": null,
                     *       "endorsed_at": "2026-11-23T15:20:00.000Z",
                     *       "termination": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T15:20:00.000Z",
                     *       "updated_at": "2026-11-23T15:20:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Endorsement"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Error */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEndorsement: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endorsement. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "end_01JDQ81M2N3P4Q5R6S7T8V9W0X",
                     *       "object": "endorsement",
                     *       "status": "endorsed",
                     *       "proposal_id": "prp_01JDQ7ZZ9Y8X7W6V5T4S3R2Q1P",
                     *       "reservation_id": "mgr_01JDQ80A1B2C3D4E5F6G7H8J9K",
                     *       "contract_number": "CCB-2026-000042",
                     *       "authority_endorsement_id": "SIME-5C7D9E1F3A5B7C9D",
                     *       "refusal": null,
                     *       "endorsed_at": "2026-11-23T15:20:00.000Z",
                     *       "termination": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T15:20:00.000Z",
                     *       "updated_at": "2026-11-23T15:20:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Endorsement"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCollectionAccount: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "collection_account",
                     *       "bank_code": "001",
                     *       "agreement": "2345678",
                     *       "wallet": "17",
                     *       "beneficiary_name": "Crédito Fácil SCD S.A.",
                     *       "beneficiary_document": "11222333000181",
                     *       "city": "São Paulo",
                     *       "pix_location_base": "pix.example-psp.com.br/qr/v2",
                     *       "shared_default": false,
                     *       "environment": "production",
                     *       "updated_at": "2026-11-23T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CollectionAccount"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putCollectionAccount: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectionAccountBody"];
            };
        };
        responses: {
            /** @description The account as stored. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "collection_account",
                     *       "bank_code": "001",
                     *       "agreement": "2345678",
                     *       "wallet": "17",
                     *       "beneficiary_name": "Crédito Fácil SCD S.A.",
                     *       "beneficiary_document": "11222333000181",
                     *       "city": "São Paulo",
                     *       "pix_location_base": "pix.example-psp.com.br/qr/v2",
                     *       "shared_default": false,
                     *       "environment": "production",
                     *       "updated_at": "2026-11-23T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CollectionAccount"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCharges: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                contract_id?: string;
                status?: "pending" | "paid" | "partially_paid" | "overdue" | "canceled" | "expired";
                method?: "boleto" | "pix";
                /** @description Due on or after (YYYY-MM-DD). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31. */
                due_from?: string;
                /** @description Due on or before (YYYY-MM-DD). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31. */
                due_to?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of charges. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *           "object": "charge",
                     *           "status": "pending",
                     *           "method": "boleto",
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *           "installment_ids": [
                     *             "ins_01JDQ82A3B4C5D6E7F8G9H0J1M"
                     *           ],
                     *           "settlement_id": null,
                     *           "due_date": "2026-12-10",
                     *           "amount": 95373,
                     *           "amount_paid": 0,
                     *           "breakdown": [
                     *             {
                     *               "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *               "number": 9,
                     *               "due_date": "2026-12-10",
                     *               "fine": 0,
                     *               "late_interest": 0,
                     *               "interest": 14021,
                     *               "principal": 81352,
                     *               "total": 95373
                     *             }
                     *           ],
                     *           "boleto": {
                     *             "barcode": "00198165600000953730000001234567100000004217",
                     *             "digitable_line": "00190.00009 01234.567103 00000.042176 8 16560000095373",
                     *             "due_date": "2026-12-10",
                     *             "our_number": "12345671000000042",
                     *             "bank_code": "001"
                     *           },
                     *           "pix": null,
                     *           "beneficiary": {
                     *             "name": "Credit Platform Sandbox",
                     *             "document": "11222333000181",
                     *             "city": "Sao Paulo",
                     *             "bank_code": "001",
                     *             "agreement": "1234567"
                     *           },
                     *           "payment_page_url": "http://localhost:3000/pay/chg_01JDQ9A1B2C3D4E5F6G7H8J9K0.Xn4pQ0m2rT7vJ9cW1yL5sB8dF3hK6gA0zE2uN4iO7qR",
                     *           "paid_at": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-11-23T13:10:00.000Z",
                     *           "updated_at": "2026-11-23T13:10:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Charge"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCharge: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateChargeBody"];
            };
        };
        responses: {
            /** @description The charge, pending. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *       "object": "charge",
                     *       "status": "pending",
                     *       "method": "boleto",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "installment_ids": [
                     *         "ins_01JDQ82A3B4C5D6E7F8G9H0J1M"
                     *       ],
                     *       "settlement_id": null,
                     *       "due_date": "2026-12-10",
                     *       "amount": 95373,
                     *       "amount_paid": 0,
                     *       "breakdown": [
                     *         {
                     *           "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *           "number": 9,
                     *           "due_date": "2026-12-10",
                     *           "fine": 0,
                     *           "late_interest": 0,
                     *           "interest": 14021,
                     *           "principal": 81352,
                     *           "total": 95373
                     *         }
                     *       ],
                     *       "boleto": {
                     *         "barcode": "00198165600000953730000001234567100000004217",
                     *         "digitable_line": "00190.00009 01234.567103 00000.042176 8 16560000095373",
                     *         "due_date": "2026-12-10",
                     *         "our_number": "12345671000000042",
                     *         "bank_code": "001"
                     *       },
                     *       "pix": null,
                     *       "beneficiary": {
                     *         "name": "Credit Platform Sandbox",
                     *         "document": "11222333000181",
                     *         "city": "Sao Paulo",
                     *         "bank_code": "001",
                     *         "agreement": "1234567"
                     *       },
                     *       "payment_page_url": "http://localhost:3000/pay/chg_01JDQ9A1B2C3D4E5F6G7H8J9K0.Xn4pQ0m2rT7vJ9cW1yL5sB8dF3hK6gA0zE2uN4iO7qR",
                     *       "paid_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:10:00.000Z",
                     *       "updated_at": "2026-11-23T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Charge"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCharge: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The charge. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *       "object": "charge",
                     *       "status": "pending",
                     *       "method": "boleto",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "installment_ids": [
                     *         "ins_01JDQ82A3B4C5D6E7F8G9H0J1M"
                     *       ],
                     *       "settlement_id": null,
                     *       "due_date": "2026-12-10",
                     *       "amount": 95373,
                     *       "amount_paid": 0,
                     *       "breakdown": [
                     *         {
                     *           "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *           "number": 9,
                     *           "due_date": "2026-12-10",
                     *           "fine": 0,
                     *           "late_interest": 0,
                     *           "interest": 14021,
                     *           "principal": 81352,
                     *           "total": 95373
                     *         }
                     *       ],
                     *       "boleto": {
                     *         "barcode": "00198165600000953730000001234567100000004217",
                     *         "digitable_line": "00190.00009 01234.567103 00000.042176 8 16560000095373",
                     *         "due_date": "2026-12-10",
                     *         "our_number": "12345671000000042",
                     *         "bank_code": "001"
                     *       },
                     *       "pix": null,
                     *       "beneficiary": {
                     *         "name": "Credit Platform Sandbox",
                     *         "document": "11222333000181",
                     *         "city": "Sao Paulo",
                     *         "bank_code": "001",
                     *         "agreement": "1234567"
                     *       },
                     *       "payment_page_url": "http://localhost:3000/pay/chg_01JDQ9A1B2C3D4E5F6G7H8J9K0.Xn4pQ0m2rT7vJ9cW1yL5sB8dF3hK6gA0zE2uN4iO7qR",
                     *       "paid_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:10:00.000Z",
                     *       "updated_at": "2026-11-23T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Charge"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelCharge: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The charge. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *       "object": "charge",
                     *       "status": "canceled",
                     *       "method": "boleto",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *       "installment_ids": [
                     *         "ins_01JDQ82A3B4C5D6E7F8G9H0J1M"
                     *       ],
                     *       "settlement_id": null,
                     *       "due_date": "2026-12-10",
                     *       "amount": 95373,
                     *       "amount_paid": 0,
                     *       "breakdown": [
                     *         {
                     *           "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *           "number": 9,
                     *           "due_date": "2026-12-10",
                     *           "fine": 0,
                     *           "late_interest": 0,
                     *           "interest": 14021,
                     *           "principal": 81352,
                     *           "total": 95373
                     *         }
                     *       ],
                     *       "boleto": {
                     *         "barcode": "00198165600000953730000001234567100000004217",
                     *         "digitable_line": "00190.00009 01234.567103 00000.042176 8 16560000095373",
                     *         "due_date": "2026-12-10",
                     *         "our_number": "12345671000000042",
                     *         "bank_code": "001"
                     *       },
                     *       "pix": null,
                     *       "beneficiary": {
                     *         "name": "Credit Platform Sandbox",
                     *         "document": "11222333000181",
                     *         "city": "Sao Paulo",
                     *         "bank_code": "001",
                     *         "agreement": "1234567"
                     *       },
                     *       "payment_page_url": "http://localhost:3000/pay/chg_01JDQ9A1B2C3D4E5F6G7H8J9K0.Xn4pQ0m2rT7vJ9cW1yL5sB8dF3hK6gA0zE2uN4iO7qR",
                     *       "paid_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-11-23T13:10:00.000Z",
                     *       "updated_at": "2026-11-23T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Charge"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                contract_id?: string;
                charge_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payments. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "pay_01JDQ9C1D2E3F4G5H6J7K8M9N0",
                     *           "object": "payment",
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "charge_id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *           "source": "boleto",
                     *           "settlement_id": null,
                     *           "assignment_id": null,
                     *           "amount": 95373,
                     *           "allocations": [
                     *             {
                     *               "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *               "number": 9,
                     *               "fine": 0,
                     *               "late_interest": 0,
                     *               "interest": 14021,
                     *               "principal": 81352,
                     *               "total": 95373
                     *             }
                     *           ],
                     *           "credit": 0,
                     *           "competence": null,
                     *           "paid_at": "2026-12-09T14:02:11.000Z",
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-09T14:02:11.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Payment"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "pay_01JDQ9C1D2E3F4G5H6J7K8M9N0",
                     *       "object": "payment",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "charge_id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *       "source": "boleto",
                     *       "settlement_id": null,
                     *       "assignment_id": null,
                     *       "amount": 95373,
                     *       "allocations": [
                     *         {
                     *           "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *           "number": 9,
                     *           "fine": 0,
                     *           "late_interest": 0,
                     *           "interest": 14021,
                     *           "principal": 81352,
                     *           "total": 95373
                     *         }
                     *       ],
                     *       "credit": 0,
                     *       "competence": null,
                     *       "paid_at": "2026-12-09T14:02:11.000Z",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-09T14:02:11.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listRefunds: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                contract_id?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of refunds. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "rfd_01JDQC4D5E6F7G8H9J0K1M2N3P",
                     *           "object": "refund",
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "assignment_id": null,
                     *           "amount": 1234,
                     *           "method": "pix",
                     *           "reference": "E00038166202612091402s0ABCDEFGHIJ",
                     *           "credit_after": 0,
                     *           "refunded_on": "2026-12-09",
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-09T15:20:43.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Refund"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRefundBody"];
            };
        };
        responses: {
            /** @description The refund, recorded. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "rfd_01JDQC4D5E6F7G8H9J0K1M2N3P",
                     *       "object": "refund",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "assignment_id": null,
                     *       "amount": 1234,
                     *       "method": "pix",
                     *       "reference": "E00038166202612091402s0ABCDEFGHIJ",
                     *       "credit_after": 0,
                     *       "refunded_on": "2026-12-09",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-09T15:20:43.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRefund: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The refund. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "rfd_01JDQC4D5E6F7G8H9J0K1M2N3P",
                     *       "object": "refund",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "assignment_id": null,
                     *       "amount": 1234,
                     *       "method": "pix",
                     *       "reference": "E00038166202612091402s0ABCDEFGHIJ",
                     *       "credit_after": 0,
                     *       "refunded_on": "2026-12-09",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-09T15:20:43.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sandboxPayCharge: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SandboxPayBody"];
            };
        };
        responses: {
            /** @description The charge after the payment, and the payment. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "charge": {
                     *         "id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *         "object": "charge",
                     *         "status": "paid",
                     *         "method": "boleto",
                     *         "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *         "customer_id": "cus_01JDQ7YK2M3N4P5Q6R7S8T9V0W",
                     *         "installment_ids": [
                     *           "ins_01JDQ82A3B4C5D6E7F8G9H0J1M"
                     *         ],
                     *         "settlement_id": null,
                     *         "due_date": "2026-12-10",
                     *         "amount": 95373,
                     *         "amount_paid": 95373,
                     *         "breakdown": [
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *             "number": 9,
                     *             "due_date": "2026-12-10",
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "interest": 14021,
                     *             "principal": 81352,
                     *             "total": 95373
                     *           }
                     *         ],
                     *         "boleto": {
                     *           "barcode": "00198165600000953730000001234567100000004217",
                     *           "digitable_line": "00190.00009 01234.567103 00000.042176 8 16560000095373",
                     *           "due_date": "2026-12-10",
                     *           "our_number": "12345671000000042",
                     *           "bank_code": "001"
                     *         },
                     *         "pix": null,
                     *         "beneficiary": {
                     *           "name": "Credit Platform Sandbox",
                     *           "document": "11222333000181",
                     *           "city": "Sao Paulo",
                     *           "bank_code": "001",
                     *           "agreement": "1234567"
                     *         },
                     *         "payment_page_url": "http://localhost:3000/pay/chg_01JDQ9A1B2C3D4E5F6G7H8J9K0.Xn4pQ0m2rT7vJ9cW1yL5sB8dF3hK6gA0zE2uN4iO7qR",
                     *         "paid_at": "2026-12-09T14:02:11.000Z",
                     *         "environment": "sandbox",
                     *         "created_at": "2026-11-23T13:10:00.000Z",
                     *         "updated_at": "2026-11-23T13:10:00.000Z"
                     *       },
                     *       "payment": {
                     *         "id": "pay_01JDQ9C1D2E3F4G5H6J7K8M9N0",
                     *         "object": "payment",
                     *         "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *         "charge_id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *         "source": "boleto",
                     *         "settlement_id": null,
                     *         "assignment_id": null,
                     *         "amount": 95373,
                     *         "allocations": [
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *             "number": 9,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "interest": 14021,
                     *             "principal": 81352,
                     *             "total": 95373
                     *           }
                     *         ],
                     *         "credit": 0,
                     *         "competence": null,
                     *         "paid_at": "2026-12-09T14:02:11.000Z",
                     *         "environment": "sandbox",
                     *         "created_at": "2026-12-09T14:02:11.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxPayResult"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    receiveProviderNotification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                /** @description The payment provider, as configured in COLLECTION_PROVIDER_SECRETS. */
                provider: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProviderNotification"];
            };
        };
        responses: {
            /** @description The payment made (or already made) for the event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "received": true,
                     *       "replayed": false,
                     *       "payment": {
                     *         "id": "pay_01JDQ9C1D2E3F4G5H6J7K8M9N0",
                     *         "object": "payment",
                     *         "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *         "charge_id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *         "source": "boleto",
                     *         "settlement_id": null,
                     *         "assignment_id": null,
                     *         "amount": 95373,
                     *         "allocations": [
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *             "number": 9,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "interest": 14021,
                     *             "principal": 81352,
                     *             "total": 95373
                     *           }
                     *         ],
                     *         "credit": 0,
                     *         "competence": null,
                     *         "paid_at": "2026-12-09T14:02:11.000Z",
                     *         "environment": "sandbox",
                     *         "created_at": "2026-12-09T14:02:11.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ProviderNotificationResult"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPayoffQuote: {
        parameters: {
            query?: {
                /** @description The payoff date (YYYY-MM-DD): today or later, up to the contract's last due date or 30 days ahead, whichever is later. Default: today (Brasília). `YYYY-MM-DD`, from 1900-01-01 to 2199-12-31. */
                date?: string;
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quote. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "payoff_quote",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "date": "2026-12-01",
                     *       "monthly_rate": "0.0180",
                     *       "installments": [
                     *         {
                     *           "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *           "number": 9,
                     *           "due_date": "2026-12-02",
                     *           "open_amount": 95373,
                     *           "present_value": 95316,
                     *           "discount": 57,
                     *           "fine": 0,
                     *           "late_interest": 0,
                     *           "total": 95316
                     *         },
                     *         {
                     *           "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1N",
                     *           "number": 10,
                     *           "due_date": "2027-01-02",
                     *           "open_amount": 95373,
                     *           "present_value": 93631,
                     *           "discount": 1742,
                     *           "fine": 0,
                     *           "late_interest": 0,
                     *           "total": 93631
                     *         }
                     *       ],
                     *       "outstanding_amount": 190746,
                     *       "present_value": 188947,
                     *       "discount": 1799,
                     *       "late_charges": 0,
                     *       "credit_applied": 0,
                     *       "amount": 188947,
                     *       "valid_until": "2026-12-02T02:59:59.999Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PayoffQuote"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSettlements: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                contract_id?: string;
                status?: "pending" | "completed" | "canceled";
                type?: "full" | "partial";
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of settlements. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "stl_01JDQ9D1E2F3G4H5J6K7M8N9P0",
                     *           "object": "settlement",
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "batch_id": null,
                     *           "type": "full",
                     *           "status": "completed",
                     *           "date": "2026-12-01",
                     *           "amount": 188947,
                     *           "payment_method": "received",
                     *           "reduce": null,
                     *           "quote": {
                     *             "object": "payoff_quote",
                     *             "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *             "date": "2026-12-01",
                     *             "monthly_rate": "0.0180",
                     *             "installments": [
                     *               {
                     *                 "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *                 "number": 9,
                     *                 "due_date": "2026-12-02",
                     *                 "open_amount": 95373,
                     *                 "present_value": 95316,
                     *                 "discount": 57,
                     *                 "fine": 0,
                     *                 "late_interest": 0,
                     *                 "total": 95316
                     *               },
                     *               {
                     *                 "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1N",
                     *                 "number": 10,
                     *                 "due_date": "2027-01-02",
                     *                 "open_amount": 95373,
                     *                 "present_value": 93631,
                     *                 "discount": 1742,
                     *                 "fine": 0,
                     *                 "late_interest": 0,
                     *                 "total": 93631
                     *               }
                     *             ],
                     *             "outstanding_amount": 190746,
                     *             "present_value": 188947,
                     *             "discount": 1799,
                     *             "late_charges": 0,
                     *             "credit_applied": 0,
                     *             "amount": 188947,
                     *             "valid_until": "2026-12-02T02:59:59.999Z"
                     *           },
                     *           "reschedule": null,
                     *           "charge_id": null,
                     *           "payment_id": "pay_01JDQ9D2E3F4G5H6J7K8M9N0P1",
                     *           "cancel_reason": null,
                     *           "completed_at": "2026-12-01T13:10:00.000Z",
                     *           "canceled_at": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T13:10:00.000Z",
                     *           "updated_at": "2026-12-01T13:10:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Settlement"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSettlement: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSettlementBody"];
            };
        };
        responses: {
            /** @description The settlement: `completed` (received) or `pending` with its charge. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "stl_01JDQ9D1E2F3G4H5J6K7M8N9P0",
                     *       "object": "settlement",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "batch_id": null,
                     *       "type": "full",
                     *       "status": "completed",
                     *       "date": "2026-12-01",
                     *       "amount": 188947,
                     *       "payment_method": "received",
                     *       "reduce": null,
                     *       "quote": {
                     *         "object": "payoff_quote",
                     *         "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *         "date": "2026-12-01",
                     *         "monthly_rate": "0.0180",
                     *         "installments": [
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *             "number": 9,
                     *             "due_date": "2026-12-02",
                     *             "open_amount": 95373,
                     *             "present_value": 95316,
                     *             "discount": 57,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 95316
                     *           },
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1N",
                     *             "number": 10,
                     *             "due_date": "2027-01-02",
                     *             "open_amount": 95373,
                     *             "present_value": 93631,
                     *             "discount": 1742,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 93631
                     *           }
                     *         ],
                     *         "outstanding_amount": 190746,
                     *         "present_value": 188947,
                     *         "discount": 1799,
                     *         "late_charges": 0,
                     *         "credit_applied": 0,
                     *         "amount": 188947,
                     *         "valid_until": "2026-12-02T02:59:59.999Z"
                     *       },
                     *       "reschedule": null,
                     *       "charge_id": null,
                     *       "payment_id": "pay_01JDQ9D2E3F4G5H6J7K8M9N0P1",
                     *       "cancel_reason": null,
                     *       "completed_at": "2026-12-01T13:10:00.000Z",
                     *       "canceled_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSettlement: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settlement. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "stl_01JDQ9D1E2F3G4H5J6K7M8N9P0",
                     *       "object": "settlement",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "batch_id": null,
                     *       "type": "full",
                     *       "status": "completed",
                     *       "date": "2026-12-01",
                     *       "amount": 188947,
                     *       "payment_method": "received",
                     *       "reduce": null,
                     *       "quote": {
                     *         "object": "payoff_quote",
                     *         "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *         "date": "2026-12-01",
                     *         "monthly_rate": "0.0180",
                     *         "installments": [
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *             "number": 9,
                     *             "due_date": "2026-12-02",
                     *             "open_amount": 95373,
                     *             "present_value": 95316,
                     *             "discount": 57,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 95316
                     *           },
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1N",
                     *             "number": 10,
                     *             "due_date": "2027-01-02",
                     *             "open_amount": 95373,
                     *             "present_value": 93631,
                     *             "discount": 1742,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 93631
                     *           }
                     *         ],
                     *         "outstanding_amount": 190746,
                     *         "present_value": 188947,
                     *         "discount": 1799,
                     *         "late_charges": 0,
                     *         "credit_applied": 0,
                     *         "amount": 188947,
                     *         "valid_until": "2026-12-02T02:59:59.999Z"
                     *       },
                     *       "reschedule": null,
                     *       "charge_id": null,
                     *       "payment_id": "pay_01JDQ9D2E3F4G5H6J7K8M9N0P1",
                     *       "cancel_reason": null,
                     *       "completed_at": "2026-12-01T13:10:00.000Z",
                     *       "canceled_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelSettlement: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CancelSettlementBody"];
            };
        };
        responses: {
            /** @description The settlement. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "stl_01JDQ9D1E2F3G4H5J6K7M8N9P0",
                     *       "object": "settlement",
                     *       "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *       "batch_id": null,
                     *       "type": "full",
                     *       "status": "completed",
                     *       "date": "2026-12-01",
                     *       "amount": 188947,
                     *       "payment_method": "received",
                     *       "reduce": null,
                     *       "quote": {
                     *         "object": "payoff_quote",
                     *         "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *         "date": "2026-12-01",
                     *         "monthly_rate": "0.0180",
                     *         "installments": [
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *             "number": 9,
                     *             "due_date": "2026-12-02",
                     *             "open_amount": 95373,
                     *             "present_value": 95316,
                     *             "discount": 57,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 95316
                     *           },
                     *           {
                     *             "installment_id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1N",
                     *             "number": 10,
                     *             "due_date": "2027-01-02",
                     *             "open_amount": 95373,
                     *             "present_value": 93631,
                     *             "discount": 1742,
                     *             "fine": 0,
                     *             "late_interest": 0,
                     *             "total": 93631
                     *           }
                     *         ],
                     *         "outstanding_amount": 190746,
                     *         "present_value": 188947,
                     *         "discount": 1799,
                     *         "late_charges": 0,
                     *         "credit_applied": 0,
                     *         "amount": 188947,
                     *         "valid_until": "2026-12-02T02:59:59.999Z"
                     *       },
                     *       "reschedule": null,
                     *       "charge_id": null,
                     *       "payment_id": "pay_01JDQ9D2E3F4G5H6J7K8M9N0P1",
                     *       "cancel_reason": null,
                     *       "completed_at": "2026-12-01T13:10:00.000Z",
                     *       "canceled_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSettlementBatch: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and this operation's idempotency key (UUID recommended): repeating it replays what was done and completes what was not (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per tenant and environment, whichever of its credentials sends them. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SettlementBatchBody"];
            };
        };
        responses: {
            /** @description The batch, completed, with every item's result. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "stb_01JDQ9E1F2G3H4J5K6M7N8P9Q0",
                     *       "object": "settlement_batch",
                     *       "status": "completed",
                     *       "request_id": "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11",
                     *       "item_count": 2,
                     *       "processed": 2,
                     *       "created": 1,
                     *       "failed": 1,
                     *       "results": [
                     *         {
                     *           "index": 0,
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "status": "created",
                     *           "settlement_id": "stl_01JDQ9D1E2F3G4H5J6K7M8N9P0",
                     *           "error": null
                     *         },
                     *         {
                     *           "index": 1,
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *           "status": "failed",
                     *           "settlement_id": null,
                     *           "error": {
                     *             "type": "urn:credit-platform:problem:contract_not_active",
                     *             "title": "The contract is not active",
                     *             "status": 409,
                     *             "detail": "The contract is settled: only active contracts are settled",
                     *             "code": "contract_not_active",
                     *             "request_id": "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11",
                     *             "current_status": "settled"
                     *           }
                     *         }
                     *       ],
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "completed_at": "2026-12-01T13:10:01.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SettlementBatch"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSettlementBatch: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "stb_01JDQ9E1F2G3H4J5K6M7N8P9Q0",
                     *       "object": "settlement_batch",
                     *       "status": "completed",
                     *       "request_id": "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11",
                     *       "item_count": 2,
                     *       "processed": 2,
                     *       "created": 1,
                     *       "failed": 1,
                     *       "results": [
                     *         {
                     *           "index": 0,
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "status": "created",
                     *           "settlement_id": "stl_01JDQ9D1E2F3G4H5J6K7M8N9P0",
                     *           "error": null
                     *         },
                     *         {
                     *           "index": 1,
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *           "status": "failed",
                     *           "settlement_id": null,
                     *           "error": {
                     *             "type": "urn:credit-platform:problem:contract_not_active",
                     *             "title": "The contract is not active",
                     *             "status": 409,
                     *             "detail": "The contract is settled: only active contracts are settled",
                     *             "code": "contract_not_active",
                     *             "request_id": "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11",
                     *             "current_status": "settled"
                     *           }
                     *         }
                     *       ],
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "completed_at": "2026-12-01T13:10:01.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SettlementBatch"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAssignments: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                status?: "pending" | "settled" | "canceled";
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of assignments. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *           "object": "assignment",
                     *           "status": "pending",
                     *           "assignee": {
                     *             "name": "Fundo Alfa FIDC",
                     *             "document": "11222333000181"
                     *           },
                     *           "settlement_date": "2026-12-01",
                     *           "pricing": {
                     *             "method": "discount_rate",
                     *             "discount_rate": "0.0150"
                     *           },
                     *           "face_value": 190746,
                     *           "price": 189243,
                     *           "discount": 1503,
                     *           "contract_count": 1,
                     *           "contracts": [
                     *             {
                     *               "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *               "face_value": 190746,
                     *               "price": 189243
                     *             }
                     *           ],
                     *           "cancel_reason": null,
                     *           "settled_at": null,
                     *           "canceled_at": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T13:10:00.000Z",
                     *           "updated_at": "2026-12-01T13:10:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Assignment"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createAssignment: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAssignmentBody"];
            };
        };
        responses: {
            /** @description The assignment, pending. */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "assignment",
                     *       "status": "pending",
                     *       "assignee": {
                     *         "name": "Fundo Alfa FIDC",
                     *         "document": "11222333000181"
                     *       },
                     *       "settlement_date": "2026-12-01",
                     *       "pricing": {
                     *         "method": "discount_rate",
                     *         "discount_rate": "0.0150"
                     *       },
                     *       "face_value": 190746,
                     *       "price": 189243,
                     *       "discount": 1503,
                     *       "contract_count": 1,
                     *       "contracts": [
                     *         {
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "face_value": 190746,
                     *           "price": 189243
                     *         }
                     *       ],
                     *       "cancel_reason": null,
                     *       "settled_at": null,
                     *       "canceled_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Assignment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAssignment: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The assignment. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "assignment",
                     *       "status": "pending",
                     *       "assignee": {
                     *         "name": "Fundo Alfa FIDC",
                     *         "document": "11222333000181"
                     *       },
                     *       "settlement_date": "2026-12-01",
                     *       "pricing": {
                     *         "method": "discount_rate",
                     *         "discount_rate": "0.0150"
                     *       },
                     *       "face_value": 190746,
                     *       "price": 189243,
                     *       "discount": 1503,
                     *       "contract_count": 1,
                     *       "contracts": [
                     *         {
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "face_value": 190746,
                     *           "price": 189243
                     *         }
                     *       ],
                     *       "cancel_reason": null,
                     *       "settled_at": null,
                     *       "canceled_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Assignment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    settleAssignment: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The assignment. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "assignment",
                     *       "status": "pending",
                     *       "assignee": {
                     *         "name": "Fundo Alfa FIDC",
                     *         "document": "11222333000181"
                     *       },
                     *       "settlement_date": "2026-12-01",
                     *       "pricing": {
                     *         "method": "discount_rate",
                     *         "discount_rate": "0.0150"
                     *       },
                     *       "face_value": 190746,
                     *       "price": 189243,
                     *       "discount": 1503,
                     *       "contract_count": 1,
                     *       "contracts": [
                     *         {
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "face_value": 190746,
                     *           "price": 189243
                     *         }
                     *       ],
                     *       "cancel_reason": null,
                     *       "settled_at": null,
                     *       "canceled_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Assignment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelAssignment: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CancelAssignmentBody"];
            };
        };
        responses: {
            /** @description The assignment. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "assignment",
                     *       "status": "pending",
                     *       "assignee": {
                     *         "name": "Fundo Alfa FIDC",
                     *         "document": "11222333000181"
                     *       },
                     *       "settlement_date": "2026-12-01",
                     *       "pricing": {
                     *         "method": "discount_rate",
                     *         "discount_rate": "0.0150"
                     *       },
                     *       "face_value": 190746,
                     *       "price": 189243,
                     *       "discount": 1503,
                     *       "contract_count": 1,
                     *       "contracts": [
                     *         {
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "face_value": 190746,
                     *           "price": 189243
                     *         }
                     *       ],
                     *       "cancel_reason": null,
                     *       "settled_at": null,
                     *       "canceled_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Assignment"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only enabled (or disabled) endpoints. */
                enabled?: "true" | "false";
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints (never their secrets). */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *           "object": "webhook_endpoint",
                     *           "url": "https://hooks.example.com.br/credit-platform",
                     *           "description": "Contracts and payments to our ledger",
                     *           "event_types": [
                     *             "contract.issued",
                     *             "charge.paid"
                     *           ],
                     *           "enabled": true,
                     *           "disabled_reason": null,
                     *           "disabled_at": null,
                     *           "failing_since": null,
                     *           "previous_secret_expires_at": null,
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T13:10:00.000Z",
                     *           "updated_at": "2026-12-01T13:10:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["WebhookEndpoint"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointBody"];
            };
        };
        responses: {
            /** @description The endpoint, with its signing secret (shown once). */
            201: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "webhook_endpoint",
                     *       "url": "https://hooks.example.com.br/credit-platform",
                     *       "description": "Contracts and payments to our ledger",
                     *       "event_types": [
                     *         "contract.issued",
                     *         "charge.paid"
                     *       ],
                     *       "enabled": true,
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "failing_since": null,
                     *       "previous_secret_expires_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwK8Ju0tGN5dM="
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "webhook_endpoint",
                     *       "url": "https://hooks.example.com.br/credit-platform",
                     *       "description": "Contracts and payments to our ledger",
                     *       "event_types": [
                     *         "contract.issued",
                     *         "charge.paid"
                     *       ],
                     *       "enabled": true,
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "failing_since": null,
                     *       "previous_secret_expires_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "webhook_endpoint",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": components["schemas"]["DeletedWebhookEndpoint"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointBody"];
            };
        };
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "webhook_endpoint",
                     *       "url": "https://hooks.example.com.br/credit-platform",
                     *       "description": "Contracts and payments to our ledger",
                     *       "event_types": [
                     *         "contract.issued",
                     *         "charge.paid"
                     *       ],
                     *       "enabled": true,
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "failing_since": null,
                     *       "previous_secret_expires_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateWebhookSecretBody"];
            };
        };
        responses: {
            /** @description The endpoint, with its new signing secret (shown once). */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "object": "webhook_endpoint",
                     *       "url": "https://hooks.example.com.br/credit-platform",
                     *       "description": "Contracts and payments to our ledger",
                     *       "event_types": [
                     *         "contract.issued",
                     *         "charge.paid"
                     *       ],
                     *       "enabled": true,
                     *       "disabled_reason": null,
                     *       "disabled_at": null,
                     *       "failing_since": null,
                     *       "previous_secret_expires_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:10:00.000Z",
                     *       "updated_at": "2026-12-01T13:10:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwK8Ju0tGN5dM="
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending (its first attempt within a second). */
            202: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whd_01JDQ9H1J2K3M4N5P6Q7R8S9T0",
                     *       "object": "webhook_delivery",
                     *       "endpoint_id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "event_id": "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0",
                     *       "event_type": "webhook_endpoint.test",
                     *       "status": "pending",
                     *       "attempt_count": 0,
                     *       "next_attempt_at": "2026-12-01T13:12:00.100Z",
                     *       "last_status_code": null,
                     *       "last_duration_ms": null,
                     *       "last_error": null,
                     *       "last_attempt_at": null,
                     *       "completed_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:12:00.100Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only events of this type. */
                type?: "customer.created" | "customer.updated" | "simulation.created" | "proposal.created" | "proposal.status_changed" | "risk_assessment.created" | "margin_query.completed" | "margin_reservation.status_changed" | "endorsement.status_changed" | "contract.issued" | "contract.closed" | "contract.canceled" | "contract.assigned" | "contract.written_off" | "contract.credit_applied" | "installment.paid" | "installment.partially_paid" | "installment.overdue" | "charge.created" | "charge.paid" | "charge.partially_paid" | "charge.overdue" | "charge.canceled" | "charge.expired" | "payment.received" | "refund.created" | "repasse.processed" | "settlement.created" | "settlement.completed" | "settlement.canceled" | "assignment.created" | "assignment.status_changed" | "webhook_endpoint.test";
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0",
                     *           "object": "event",
                     *           "type": "charge.paid",
                     *           "created_at": "2026-12-01T13:12:00.000Z",
                     *           "tenant_id": "ten_01JD0000000000000000000000",
                     *           "environment": "sandbox",
                     *           "data": {
                     *             "id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *             "object": "charge",
                     *             "status": "paid",
                     *             "amount": 95373,
                     *             "amount_paid": 95373
                     *           }
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["Event"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0",
                     *       "object": "event",
                     *       "type": "charge.paid",
                     *       "created_at": "2026-12-01T13:12:00.000Z",
                     *       "tenant_id": "ten_01JD0000000000000000000000",
                     *       "environment": "sandbox",
                     *       "data": {
                     *         "id": "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0",
                     *         "object": "charge",
                     *         "status": "paid",
                     *         "amount": 95373,
                     *         "amount_paid": 95373
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1–100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only deliveries to this endpoint. */
                endpoint_id?: string;
                /** @description Only deliveries of this event. */
                event_id?: string;
                status?: "pending" | "succeeded" | "failed";
            };
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries (without their attempts). */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "whd_01JDQ9H1J2K3M4N5P6Q7R8S9T0",
                     *           "object": "webhook_delivery",
                     *           "endpoint_id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *           "event_id": "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0",
                     *           "event_type": "charge.paid",
                     *           "status": "succeeded",
                     *           "attempt_count": 2,
                     *           "next_attempt_at": null,
                     *           "last_status_code": 200,
                     *           "last_duration_ms": 84,
                     *           "last_error": null,
                     *           "last_attempt_at": "2026-12-01T13:12:05.400Z",
                     *           "completed_at": "2026-12-01T13:12:05.484Z",
                     *           "environment": "sandbox",
                     *           "created_at": "2026-12-01T13:12:00.100Z"
                     *         }
                     *       ],
                     *       "has_more": true,
                     *       "next_cursor": "eyJhdCI6IjIwMjYtMTItMDFUMTI6MDA6MDAuMDAwWiJ9.c2lnbmF0dXJl"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: components["schemas"]["WebhookDelivery"][];
                        has_more: boolean;
                        /** @description Pass as `cursor` for the next page; null on the last. */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it. */
                "X-Request-Id"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whd_01JDQ9H1J2K3M4N5P6Q7R8S9T0",
                     *       "object": "webhook_delivery",
                     *       "endpoint_id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "event_id": "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0",
                     *       "event_type": "charge.paid",
                     *       "status": "succeeded",
                     *       "attempt_count": 2,
                     *       "next_attempt_at": null,
                     *       "last_status_code": 200,
                     *       "last_duration_ms": 84,
                     *       "last_error": null,
                     *       "last_attempt_at": "2026-12-01T13:12:05.400Z",
                     *       "completed_at": "2026-12-01T13:12:05.484Z",
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:12:00.100Z",
                     *       "attempts": [
                     *         {
                     *           "number": 1,
                     *           "url": "https://hooks.example.com.br/credit-platform",
                     *           "started_at": "2026-12-01T13:12:00.200Z",
                     *           "duration_ms": 10000,
                     *           "status_code": null,
                     *           "error": "No answer within 10000 ms",
                     *           "request_body": "{\"id\":\"evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0\",\"type\":\"charge.paid\",…}",
                     *           "response_body": null
                     *         },
                     *         {
                     *           "number": 2,
                     *           "url": "https://hooks.example.com.br/credit-platform",
                     *           "started_at": "2026-12-01T13:12:05.400Z",
                     *           "duration_ms": 84,
                     *           "status_code": 200,
                     *           "error": null,
                     *           "request_body": "{\"id\":\"evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0\",\"type\":\"charge.paid\",…}",
                     *           "response_body": "ok"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resendWebhookDelivery: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending. */
            202: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whd_01JDQ9H1J2K3M4N5P6Q7R8S9T0",
                     *       "object": "webhook_delivery",
                     *       "endpoint_id": "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0",
                     *       "event_id": "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0",
                     *       "event_type": "charge.paid",
                     *       "status": "pending",
                     *       "attempt_count": 2,
                     *       "next_attempt_at": "2026-12-01T14:00:00.000Z",
                     *       "last_status_code": 200,
                     *       "last_duration_ms": 84,
                     *       "last_error": null,
                     *       "last_attempt_at": "2026-12-01T13:12:05.400Z",
                     *       "completed_at": null,
                     *       "environment": "sandbox",
                     *       "created_at": "2026-12-01T13:12:00.100Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    simulateRepasse: {
        parameters: {
            query?: never;
            header: {
                /** @description Your tenant's id; must be the credential's tenant. */
                "X-Tenant-Id": string;
                /** @description Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request. */
                "X-Request-Id"?: string;
                /** @description Synonym of X-Request-Id for idempotency; if both are sent they must be equal. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RepasseBody"];
            };
        };
        responses: {
            /** @description What each contract received. */
            200: {
                headers: {
                    /** @description Requests allowed per minute for this tenant and environment. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the current window. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix epoch second at which the window resets. */
                    "X-RateLimit-Reset"?: number;
                    /** @description Your X-Request-Id echoed, or one generated for this request. */
                    "X-Request-Id"?: string;
                    /** @description `true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again). */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "repasse",
                     *       "competence": "2026-04",
                     *       "scenario": "full",
                     *       "partial_percent": null,
                     *       "contracts": [
                     *         {
                     *           "contract_id": "ctr_01JDQ82A3B4C5D6E7F8G9H0J1K",
                     *           "status": "processed",
                     *           "reason": null,
                     *           "amount_due": 95373,
                     *           "amount_paid": 95373,
                     *           "installments": [
                     *             {
                     *               "id": "ins_01JDQ82A3B4C5D6E7F8G9H0J1M",
                     *               "number": 1,
                     *               "due_date": "2026-04-02",
                     *               "amount_paid": 95373,
                     *               "status": "paid"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "totals": {
                     *         "processed": 1,
                     *         "skipped": 0,
                     *         "amount_due": 95373,
                     *         "amount_paid": 95373
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Repasse"];
                };
            };
            /** @description Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found — also for another tenant's or environment's objects. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`). */
            409: {
                headers: {
                    /** @description With `idempotency_in_progress`: seconds until the first request's lease ends. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Body over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Content-Type not supported. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The host is neither the sandbox nor the production base address. */
            421: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Idempotency key reused with a different request (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Internal error (no details are exposed). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    webhook_customer_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "customer.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Customer"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_customer_updated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "customer.updated";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        /** @example cus_01JD0000000000000000000000 */
                        id: string;
                        /** @enum {string} */
                        object: "customer";
                        /**
                         * @description Inferred from the document: CPF → person, CNPJ → company.
                         * @enum {string}
                         */
                        kind: "person" | "company";
                        /**
                         * @description Normalized: 11 digits (CPF) or 14 upper-case characters (CNPJ).
                         * @example 52998224725
                         */
                        document: string;
                        /** @example 529.982.247-25 */
                        document_formatted: string;
                        name: string;
                        /** @description YYYY-MM-DD (persons). */
                        birth_date: string | null;
                        /** @description YYYY-MM-DD (companies). */
                        foundation_date: string | null;
                        email: string | null;
                        phone: string | null;
                        address: {
                            street: string;
                            number: string;
                            complement: string | null;
                            district: string;
                            city: string;
                            /** @enum {string} */
                            state: "AC" | "AL" | "AP" | "AM" | "BA" | "CE" | "DF" | "ES" | "GO" | "MA" | "MT" | "MS" | "MG" | "PA" | "PB" | "PR" | "PE" | "PI" | "RJ" | "RN" | "RS" | "RO" | "RR" | "SC" | "SP" | "SE" | "TO";
                            /** @description CEP, 8 digits. */
                            zip_code: string;
                        } | null;
                        /** @description Integer centavos of BRL. */
                        monthly_income: number | null;
                        payroll: {
                            /** @enum {string} */
                            type: "inss";
                            benefit_number: string;
                        } | {
                            /** @enum {string} */
                            type: "private";
                            /** @description Normalized CNPJ. */
                            employer_cnpj: string;
                            registration: string;
                        } | null;
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        /** @description ISO 8601 UTC. */
                        created_at: string;
                        /** @description ISO 8601 UTC. */
                        updated_at: string;
                        /** @description The request's fields whose values changed. */
                        changed_fields: string[];
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_simulation_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "simulation.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["SimulationSummary"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_proposal_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "proposal.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Proposal"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_proposal_status_changed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "proposal.status_changed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        id: string;
                        /** @enum {string} */
                        object: "proposal";
                        /** @enum {string} */
                        status: "draft" | "pending_review" | "approved" | "rejected" | "signed" | "contract_issued" | "canceled" | "expired";
                        /** @description Actions the current status allows. */
                        allowed_actions: string[];
                        customer_id: string;
                        simulation_id: string | null;
                        /** @description Payroll products: the margin query the installment was checked against. */
                        margin_query_id: string | null;
                        /** @description The assessment submission ran (GET /v1/risk-assessments/{id}); null before submission. */
                        risk_assessment_id: string | null;
                        terms: {
                            product: string;
                            amortization: string;
                            /** @description Financed principal, centavos. */
                            principal: number;
                            /** @description Amount released to the borrower, centavos. */
                            released_amount: number;
                            installment_amount: number;
                            /** @description The largest installment: what payroll products reserve and endorse against the margin. */
                            max_installment_amount: number;
                            monthly_rate: string;
                            term: number;
                            disbursement_date: string;
                            first_due_date: string;
                            cet: {
                                monthly_percent: string;
                                annual_percent: string;
                            };
                        };
                        reason: string | null;
                        /** @description After this instant the proposal is closed as `expired` unless signed. */
                        expires_at: string | null;
                        contract_id: string | null;
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        created_at: string;
                        updated_at: string;
                        /**
                         * @description The status before this change.
                         * @enum {string}
                         */
                        previous_status: "draft" | "pending_review" | "approved" | "rejected" | "signed" | "contract_issued" | "canceled" | "expired";
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_risk_assessment_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "risk_assessment.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["RiskAssessment"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_margin_query_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "margin_query.completed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["MarginQuery"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_margin_reservation_status_changed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "margin_reservation.status_changed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        /** @example mgr_01JD2Z6Q7X9V3K8M4N5P6R7S8T */
                        id: string;
                        /** @enum {string} */
                        object: "margin_reservation";
                        /** @enum {string} */
                        status: "requested" | "reserved" | "consumed" | "released" | "expired" | "refused";
                        customer_id: string;
                        margin_query_id: string;
                        /** @description The proposal whose submission made it (null for reservations made directly). */
                        proposal_id: string | null;
                        /** @enum {string} */
                        kind: "loan" | "credit_card" | "benefit_card";
                        installment_amount: number;
                        term: number;
                        authority_reservation_id: string | null;
                        refusal: components["schemas"]["AuthorityRefusal"];
                        /** @description Unless consumed by an endorsement before, the reservation expires then. */
                        expires_at: string | null;
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        created_at: string;
                        updated_at: string;
                        /**
                         * @description The status before this change.
                         * @enum {string}
                         */
                        previous_status: "requested" | "reserved" | "consumed" | "released" | "expired" | "refused";
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_endorsement_status_changed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "endorsement.status_changed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        /** @example end_01JD2Z6Q7X9V3K8M4N5P6R7S8T */
                        id: string;
                        /** @enum {string} */
                        object: "endorsement";
                        /**
                         * @description `submitted`: the authority was asked and its answer is not recorded yet (a lost answer: a retry of the request, or the worker, asks again); `endorsed`, `refused` (see `refusal`); `terminating` → `terminated` once its contract closes or is withdrawn.
                         * @enum {string}
                         */
                        status: "submitted" | "endorsed" | "refused" | "terminating" | "terminated";
                        proposal_id: string;
                        reservation_id: string;
                        /** @description The CCB number registered with the authority; POST /v1/contracts issues the contract under it. */
                        contract_number: string;
                        authority_endorsement_id: string | null;
                        refusal: components["schemas"]["AuthorityRefusal"];
                        endorsed_at: string | null;
                        /** @description Once its contract closes or is withdrawn: ending the averbação at the authority (`terminating` → `terminated`). */
                        termination: {
                            /**
                             * @description `settled`: its contract was paid off or settled; `canceled`: withdrawn.
                             * @enum {string}
                             */
                            reason: "settled" | "canceled";
                            /** @description Calls made to the authority so far. */
                            attempts: number;
                            /** @description Why the last call failed (it is retried), or null. */
                            last_error: string | null;
                            /** @description When the authority confirmed it (`terminated`). */
                            terminated_at: string | null;
                        } | null;
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        created_at: string;
                        updated_at: string;
                        /**
                         * @description The status before this change.
                         * @enum {string}
                         */
                        previous_status: "submitted" | "endorsed" | "refused" | "terminating" | "terminated";
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_contract_issued: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "contract.issued";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Contract"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_contract_closed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "contract.closed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        id: string;
                        /** @enum {string} */
                        object: "contract";
                        /**
                         * @description The contract (CCB) number, unique per tenant and environment.
                         * @example CCB-2026-000001
                         */
                        number: string;
                        /**
                         * @description `active` once disbursed; `settled` when closed — its last installment paid (event `contract.closed`, reason `paid_off`) or a full settlement completed (reason `settled`); `assigned` once sold in a portfolio assignment (closes as `settled` when paid off); `written_off`; `canceled` (withdrawal right).
                         * @enum {string}
                         */
                        status: "active" | "settled" | "written_off" | "assigned" | "canceled";
                        proposal_id: string;
                        customer_id: string;
                        product: string;
                        amortization: string;
                        principal: number;
                        released_amount: number;
                        monthly_rate: string;
                        /** @description Installments as contracted. A partial settlement reschedules the installments (GET …/installments; the settlement's `reschedule`), not this. */
                        term: number;
                        disbursement_date: string;
                        first_due_date: string;
                        /** @description The installment as contracted, integer centavos. After a partial settlement the installments carry their new amounts; this stays. */
                        installment_amount: number;
                        /** @description Received on the installments so far, integer centavos. */
                        amount_paid: number;
                        /** @description `assigned`: the portfolio assignment it was sold in (GET /v1/assignments/{id}); its later receipts are the assignee's. */
                        assignment_id: string | null;
                        /** @description What remains of the installments: their amounts less what was paid on them (0 once settled or canceled), integer centavos. */
                        outstanding_balance: number;
                        /** @description The borrower's credit on this contract, integer centavos: money received beyond what was owed (an overpaid charge, a boleto paid twice). A payoff quote uses it (`credit_applied`); on a closed contract it is owed back to the borrower. */
                        credit_balance: number;
                        cet: {
                            monthly_percent: string;
                            annual_percent: string;
                        };
                        iof: {
                            daily: number;
                            additional: number;
                            total: number;
                            financed: boolean;
                        };
                        /** @description The late charges as contracted, frozen when the contract was issued. An installment due on a weekend or national holiday is late only after the next business day (Lei 7.089/1983); the contract's remunerative interest is not charged during the delay. */
                        late_charges: {
                            /** @description Fine (multa) charged once on an installment's open amount when it becomes late, e.g. "0.02" (CDC art. 52 §1 caps it at 2%). */
                            fine_rate: string;
                            /** @description Late interest (juros de mora) per month, simple, pro rata die (rate × days/30), e.g. "0.01". */
                            monthly_interest_rate: string;
                        };
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        created_at: string;
                        updated_at: string;
                        /**
                         * @description `settled`: a full settlement completed (`settlement_id`); `paid_off`: its last installment was paid.
                         * @enum {string}
                         */
                        reason: "settled" | "paid_off";
                        settlement_id?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_contract_canceled: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "contract.canceled";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        id: string;
                        /** @enum {string} */
                        object: "contract";
                        /**
                         * @description The contract (CCB) number, unique per tenant and environment.
                         * @example CCB-2026-000001
                         */
                        number: string;
                        /**
                         * @description `active` once disbursed; `settled` when closed — its last installment paid (event `contract.closed`, reason `paid_off`) or a full settlement completed (reason `settled`); `assigned` once sold in a portfolio assignment (closes as `settled` when paid off); `written_off`; `canceled` (withdrawal right).
                         * @enum {string}
                         */
                        status: "active" | "settled" | "written_off" | "assigned" | "canceled";
                        proposal_id: string;
                        customer_id: string;
                        product: string;
                        amortization: string;
                        principal: number;
                        released_amount: number;
                        monthly_rate: string;
                        /** @description Installments as contracted. A partial settlement reschedules the installments (GET …/installments; the settlement's `reschedule`), not this. */
                        term: number;
                        disbursement_date: string;
                        first_due_date: string;
                        /** @description The installment as contracted, integer centavos. After a partial settlement the installments carry their new amounts; this stays. */
                        installment_amount: number;
                        /** @description Received on the installments so far, integer centavos. */
                        amount_paid: number;
                        /** @description `assigned`: the portfolio assignment it was sold in (GET /v1/assignments/{id}); its later receipts are the assignee's. */
                        assignment_id: string | null;
                        /** @description What remains of the installments: their amounts less what was paid on them (0 once settled or canceled), integer centavos. */
                        outstanding_balance: number;
                        /** @description The borrower's credit on this contract, integer centavos: money received beyond what was owed (an overpaid charge, a boleto paid twice). A payoff quote uses it (`credit_applied`); on a closed contract it is owed back to the borrower. */
                        credit_balance: number;
                        cet: {
                            monthly_percent: string;
                            annual_percent: string;
                        };
                        iof: {
                            daily: number;
                            additional: number;
                            total: number;
                            financed: boolean;
                        };
                        /** @description The late charges as contracted, frozen when the contract was issued. An installment due on a weekend or national holiday is late only after the next business day (Lei 7.089/1983); the contract's remunerative interest is not charged during the delay. */
                        late_charges: {
                            /** @description Fine (multa) charged once on an installment's open amount when it becomes late, e.g. "0.02" (CDC art. 52 §1 caps it at 2%). */
                            fine_rate: string;
                            /** @description Late interest (juros de mora) per month, simple, pro rata die (rate × days/30), e.g. "0.01". */
                            monthly_interest_rate: string;
                        };
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        created_at: string;
                        updated_at: string;
                        reason: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_contract_assigned: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "contract.assigned";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Contract"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_contract_written_off: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "contract.written_off";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Contract"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_contract_credit_applied: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "contract.credit_applied";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Payment"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_installment_paid: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "installment.paid";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        id: string;
                        /** @enum {string} */
                        object: "installment";
                        contract_id: string;
                        number: number;
                        due_date: string;
                        principal: number;
                        interest: number;
                        amount: number;
                        paid_amount: number;
                        /** @enum {string} */
                        status: "open" | "overdue" | "partially_paid" | "paid" | "canceled";
                        paid_at: string | null;
                        /** @description What settles the installment on `as_of`: fine and pro-rata late interest per the product's rules. */
                        amount_due: {
                            as_of: string;
                            days_late: number;
                            /** @description Amount minus what was paid, centavos. */
                            outstanding: number;
                            fine: number;
                            late_interest: number;
                            total: number;
                        };
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        payment?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_installment_partially_paid: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "installment.partially_paid";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        id: string;
                        /** @enum {string} */
                        object: "installment";
                        contract_id: string;
                        number: number;
                        due_date: string;
                        principal: number;
                        interest: number;
                        amount: number;
                        paid_amount: number;
                        /** @enum {string} */
                        status: "open" | "overdue" | "partially_paid" | "paid" | "canceled";
                        paid_at: string | null;
                        /** @description What settles the installment on `as_of`: fine and pro-rata late interest per the product's rules. */
                        amount_due: {
                            as_of: string;
                            days_late: number;
                            /** @description Amount minus what was paid, centavos. */
                            outstanding: number;
                            fine: number;
                            late_interest: number;
                            total: number;
                        };
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        payment?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_installment_overdue: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "installment.overdue";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Installment"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_charge_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "charge.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Charge"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_charge_paid: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "charge.paid";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Charge"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_charge_partially_paid: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "charge.partially_paid";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Charge"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_charge_overdue: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "charge.overdue";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Charge"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_charge_canceled: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "charge.canceled";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Charge"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_charge_expired: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "charge.expired";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Charge"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_payment_received: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "payment.received";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Payment"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_refund_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "refund.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Refund"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_repasse_processed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "repasse.processed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        contract_id: string;
                        /** @enum {string} */
                        status: "processed" | "skipped";
                        /**
                         * @description Why a contract was skipped: the month was already processed for it (its original amounts are shown), it is not active, or nothing of it falls due in the month.
                         * @enum {string|null}
                         */
                        reason: "already_processed" | "contract_not_active" | "no_installment_due" | null;
                        /** @description Open on its installments of the month before the transfer, integer centavos. */
                        amount_due: number;
                        /** @description Transferred and applied, integer centavos. */
                        amount_paid: number;
                        installments: {
                            id: string;
                            number: number;
                            due_date: string;
                            amount_paid: number;
                            /**
                             * @description After the transfer, as of today.
                             * @enum {string}
                             */
                            status: "open" | "overdue" | "partially_paid" | "paid" | "canceled";
                        }[];
                        competence: string;
                        scenario: string;
                        source: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_settlement_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "settlement.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Settlement"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_settlement_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "settlement.completed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Settlement"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_settlement_canceled: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "settlement.canceled";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Settlement"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_assignment_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "assignment.created";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: components["schemas"]["Assignment"];
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_assignment_status_changed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "assignment.status_changed";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        /** @example asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0 */
                        id: string;
                        /** @enum {string} */
                        object: "assignment";
                        /** @enum {string} */
                        status: "pending" | "settled" | "canceled";
                        assignee: {
                            name: string;
                            /** @description CNPJ, normalized. */
                            document: string;
                        };
                        settlement_date: string;
                        pricing: {
                            /** @enum {string} */
                            method: "discount_rate" | "price";
                            discount_rate: string | null;
                        };
                        /** @description The contracts' open face value. Integer centavos. */
                        face_value: number;
                        /** @description What the assignee pays. Integer centavos. */
                        price: number;
                        /** @description face_value − price. Integer centavos. */
                        discount: number;
                        contract_count: number;
                        /** @description Per contract: open face value and price. */
                        contracts: {
                            contract_id: string;
                            face_value: number;
                            price: number;
                        }[];
                        cancel_reason: string | null;
                        settled_at: string | null;
                        canceled_at: string | null;
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        created_at: string;
                        updated_at: string;
                        /**
                         * @description The status before this change.
                         * @enum {string}
                         */
                        previous_status: "pending" | "settled" | "canceled";
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_webhook_endpoint_test: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (`evt_…`): the same in every attempt; deduplicate on it. */
                "webhook-id": string;
                /** @description When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays. */
                "webhook-timestamp": string;
                /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The event id (`evt_…`); the same in every attempt and in `webhook-id`: deduplicate on it. */
                    id: string;
                    /** @enum {string} */
                    type: "webhook_endpoint.test";
                    /** @description When the change happened (ISO 8601 UTC). */
                    created_at: string;
                    tenant_id: string;
                    /** @enum {string} */
                    environment: "sandbox" | "production";
                    data: {
                        webhook_endpoint_id: string;
                        message: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled and receives nothing more until enabled again. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
