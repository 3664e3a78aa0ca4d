// The payroll-loan authority (INSS / Dataprev for benefits; the private-payroll platform for employees) as
// one interface. Two implementations, chosen by configuration (lib/payroll/authority/index.ts): the sandbox
// simulator (deterministic answers, documented trigger values) and the HTTP client of the real authority.
// Money is integer centavos; percentages decimal strings; dates `YYYY-MM-DD`; instants `Date`.

/** Where the installments are deducted from: an INSS benefit, or an employment link (employer + registration). */
export type PayrollSource =
  | { kind: "inss"; benefitNumber: string }
  | { kind: "private"; employerCnpj: string; registration: string };

export type MarginKind = "loan" | "credit_card" | "benefit_card";

export type Margin = {
  kind: MarginKind;
  /** Share of the margin base reserved for this kind, e.g. "0.35". */
  share: string;
  total: number;
  used: number;
  reserved: number;
  available: number;
};

export type SourceStatus = "active" | "blocked" | "suspended" | "ceased";

export type MarginQueryInput = {
  /** The borrower's CPF, digits only. */
  document: string;
  source: PayrollSource;
  /** Our id for the call: the authority's idempotency key, and the correlation id in its logs. */
  requestId: string;
};

export type MarginQueryResult = {
  authorityQueryId: string;
  marginBase: number;
  margins: Margin[];
  /** INSS benefit species (e.g. "41" old-age) or the private employment type (e.g. "clt"). */
  sourceType: string;
  sourceStatus: SourceStatus;
  /** Machine codes of blocks, e.g. "blocked_for_loans" (INSS benefits are blocked for loans by default). */
  blocks: { code: string; description: string }[];
  payingInstitution: { code: string; name: string };
  /** Loans already deducted from this source (1.4.0). */
  existingLoans: { lender: string; contractNumber: string; installmentAmount: number; remainingInstallments: number }[];
  validUntil: Date;
};

export type ReserveMarginInput = {
  authorityQueryId: string;
  document: string;
  source: PayrollSource;
  kind: MarginKind;
  installmentAmount: number;
  termMonths: number;
  requestId: string;
};

export type Refusal = { code: string; message: string };

/** The authority refused a margin query (HTTP 422): no such benefit or employment link for the CPF, or its holder has
 *  not authorized this institution to see it. A business answer, not a failure: nothing to retry, nothing stored. */
export class MarginQueryRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = "MarginQueryRefused";
  }
}

export type ReserveMarginResult =
  | { status: "reserved"; authorityReservationId: string; expiresAt: Date }
  | { status: "refused"; refusal: Refusal };

export type EndorseInput = {
  authorityReservationId: string;
  contractNumber: string;
  principal: number;
  installmentAmount: number;
  termMonths: number;
  firstDueDate: string;
  requestId: string;
};

export type EndorseResult =
  | { status: "endorsed"; authorityEndorsementId: string; endorsedAt: Date }
  | { status: "refused"; refusal: Refusal };

export interface PayrollAuthority {
  readonly name: "sandbox_simulator" | "http";
  queryMargin(input: MarginQueryInput): Promise<MarginQueryResult>;
  reserveMargin(input: ReserveMarginInput): Promise<ReserveMarginResult>;
  releaseReservation(input: { authorityReservationId: string; requestId: string }): Promise<void>;
  endorse(input: EndorseInput): Promise<EndorseResult>;
  /** Ends an averbação (its contract settled or withdrawn): the deduction stops and the margin is free. Already
   *  ended at the authority counts as done. Idempotent by `requestId`. */
  terminateEndorsement(input: { authorityEndorsementId: string; reason: "settled" | "canceled"; requestId: string }): Promise<void>;
}

/** The authority could not answer: mapped to 502 (bad_response), 503 (unavailable, circuit open, 429) or
 *  504 (timeout) problem responses with `retryable`. Business refusals are results, not errors. */
export class AuthorityError extends Error {
  constructor(
    readonly kind: "timeout" | "unavailable" | "rate_limited" | "circuit_open" | "bad_response",
    message: string,
    readonly retryAfterSeconds?: number,
    /**
     * Whether any attempt of the call may have been processed by the authority (false only when none left, or each was
     * refused unprocessed: breaker open, 429, connection refused, token refused). The kind describes the last attempt
     * only: a timeout then a 429 is `rate_limited`, yet the first may have reserved or endorsed.
     */
    readonly reached: boolean = true,
  ) {
    super(message);
    this.name = "AuthorityError";
  }

  get retryable(): boolean {
    return this.kind !== "bad_response";
  }
}
