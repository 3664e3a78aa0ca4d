import { createHash } from "node:crypto";
import {
  AuthorityError,
  MarginQueryRefused,
  type EndorseInput,
  type EndorseResult,
  type Margin,
  type MarginQueryInput,
  type MarginQueryResult,
  type PayrollAuthority,
  type PayrollSource,
  type ReserveMarginInput,
  type ReserveMarginResult,
} from "./types";

// The sandbox's payroll authority: deterministic answers computed from the CPF and the benefit number or
// registration, so an integrator can reproduce every case. No state: ids are derived from the caller's
// request id (a retry gets the same answer), and a reservation's id carries the case it was made for.
//
// Trigger values — the LAST FOUR DIGITS of the INSS benefit number or of the private registration:
//   …0001  insufficient margin: the available loan margin is R$ 50,00
//   …0002  the benefit is blocked for loans (blocks: blocked_for_loans)
//   …0003  the benefit (or employment link) has ceased: status ceased, no margin available
//   …0004  the authority lets the reservation lapse early: the endorsement is refused with reservation_expired
//   …0005  endorsement refused by the authority (beneficiary_consent_refused)
//   …0006  the authority times out (504 authority_timeout, retryable)
//   …0007  the authority is unavailable (503 authority_unavailable, retryable, Retry-After 30)
//   …0008  the margin query is refused: the holder has not authorized this institution (422 margin_query_refused)
//   …0009  the query answers normally, the reservation is refused: another institution took the margin since (margin_unavailable)
//   …0010  the query answers normally, the reservation times out (504 authority_timeout)
//   …0011  query and reservation answer normally, the averbação times out (504 authority_timeout)
//   …0012  query and reservation answer normally, the authority is unavailable for the averbação (503, Retry-After 30)
// Anything else answers normally. README and the OpenAPI descriptions list the same table.

export const SANDBOX_TRIGGERS = {
  "0001": "insufficient_margin",
  "0002": "blocked_for_loans",
  "0003": "ceased",
  "0004": "reservation_expires",
  "0005": "endorsement_refused",
  "0006": "timeout",
  "0007": "unavailable",
  "0008": "query_refused",
  "0009": "reservation_refused",
  "0010": "reservation_timeout",
  "0011": "endorsement_timeout",
  "0012": "endorsement_unavailable",
} as const;
type Trigger = (typeof SANDBOX_TRIGGERS)[keyof typeof SANDBOX_TRIGGERS] | "none";

/** How long a margin query result may be used, and a reservation waits for its endorsement. */
export const QUERY_VALIDITY_MS = 24 * 60 * 60 * 1000;
export const RESERVATION_VALIDITY_MS = 5 * 24 * 60 * 60 * 1000;

const INSS_SHARES: [Margin["kind"], number, string][] = [
  ["loan", 35, "0.35"],
  ["credit_card", 5, "0.05"],
  ["benefit_card", 5, "0.05"],
];
const PRIVATE_SHARES: [Margin["kind"], number, string][] = [["loan", 35, "0.35"]];

function sourceKey(source: PayrollSource): string {
  return source.kind === "inss" ? source.benefitNumber : source.registration;
}

export function triggerOf(source: PayrollSource): Trigger {
  const digits = sourceKey(source).replace(/\D/g, "");
  return SANDBOX_TRIGGERS[digits.slice(-4) as keyof typeof SANDBOX_TRIGGERS] ?? "none";
}

function digest(...parts: string[]): Buffer {
  return createHash("sha256").update(parts.join("|")).digest();
}

/** The trigger's code ("0006"), as the messages and a reservation's id carry it. */
function codeOf(trigger: Trigger): string {
  return Object.entries(SANDBOX_TRIGGERS).find(([, t]) => t === trigger)?.[0] ?? "OK";
}

/** Every call fails under …0006 and …0007; a step's own trigger fails that step only. */
function failIfTriggered(trigger: Trigger, step: "query" | "reserve" | "release" | "endorse"): void {
  const timeout = trigger === "timeout" || (step === "reserve" && trigger === "reservation_timeout") || (step === "endorse" && trigger === "endorsement_timeout");
  const unavailable = trigger === "unavailable" || (step === "endorse" && trigger === "endorsement_unavailable");
  if (timeout) throw new AuthorityError("timeout", `Sandbox: the payroll authority did not answer in time (trigger …${codeOf(trigger)})`);
  if (unavailable) throw new AuthorityError("unavailable", `Sandbox: the payroll authority is unavailable (trigger …${codeOf(trigger)})`, 30);
}

export class SandboxSimulator implements PayrollAuthority {
  readonly name = "sandbox_simulator" as const;

  constructor(private readonly now: () => Date = () => new Date()) {}

  async queryMargin(input: MarginQueryInput): Promise<MarginQueryResult> {
    const trigger = triggerOf(input.source);
    failIfTriggered(trigger, "query");
    if (trigger === "query_refused") {
      throw new MarginQueryRefused({
        code: "authorization_missing",
        message: input.source.kind === "inss"
          ? "The beneficiary has not authorized this institution to query the benefit (Meu INSS)"
          : "The employee has not authorized this institution to query the employment link",
      });
    }
    const h = digest(input.document, input.source.kind, sourceKey(input.source));
    const inss = input.source.kind === "inss";
    // Benefit (or available remuneration) between R$ 4.000,00 and R$ 8.157,00 (the INSS ceiling), whole reais;
    // at most one existing loan of 3–6% of it: at least 29% of the base is left for new loans.
    // Under …0001 two loans take all but R$ 50,00 of the loan margin, so the loans listed add up to its `used`.
    const marginBase = 4_000_00 + (h.readUInt32BE(0) % 4158) * 100;
    const loanTotal = Math.floor((marginBase * 35) / 100);
    const installments =
      trigger === "ceased" ? []
      : trigger === "insufficient_margin" ? splitInTwo(loanTotal - 50_00)
      : Array.from({ length: h[4]! % 2 }, (_, i) => Math.floor((marginBase * (3 + (h[10 + i]! % 4))) / 100));
    const existingLoans = installments.map((installmentAmount, i) => ({
      lender: ["Banco Alfa S.A.", "Banco Beta S.A."][i]!,
      contractNumber: `${inss ? "INSS" : "CTPS"}-${h.readUInt16BE(6 + 2 * i).toString().padStart(6, "0")}`,
      installmentAmount,
      remainingInstallments: 6 + (h[12 + i]! % 78),
    }));
    const usedByLoans = installments.reduce((sum, amount) => sum + amount, 0);
    const margins = (inss ? INSS_SHARES : PRIVATE_SHARES).map(([kind, percent, share]): Margin => {
      const total = Math.floor((marginBase * percent) / 100);
      let used = kind === "loan" ? usedByLoans : 0;
      if (trigger === "ceased") used = total;
      return { kind, share, total, used, reserved: 0, available: total - used };
    });
    return {
      authorityQueryId: `SIMQ-${digest("query", input.requestId).toString("hex").slice(0, 20).toUpperCase()}`,
      marginBase,
      margins,
      sourceType: inss ? ["41", "42", "21", "32"][h[5]! % 4]! : "clt",
      sourceStatus: trigger === "ceased" ? "ceased" : "active",
      blocks: trigger === "blocked_for_loans" ? [{ code: "blocked_for_loans", description: "Benefit blocked for loans: the beneficiary must unblock it first" }] : [],
      payingInstitution: inss ? { code: "001", name: "Banco do Brasil S.A." } : { code: "FGTS", name: "FGTS Digital (employer)" },
      existingLoans,
      validUntil: new Date(this.now().getTime() + QUERY_VALIDITY_MS),
    };
  }

  async reserveMargin(input: ReserveMarginInput): Promise<ReserveMarginResult> {
    const trigger = triggerOf(input.source);
    failIfTriggered(trigger, "reserve");
    if (trigger === "ceased" || trigger === "blocked_for_loans") {
      return { status: "refused", refusal: { code: trigger === "ceased" ? "benefit_ceased" : "blocked_for_loans", message: "The source cannot take new deductions" } };
    }
    if (trigger === "reservation_refused") {
      return { status: "refused", refusal: { code: "margin_unavailable", message: "The margin was reserved by another institution after the query" } };
    }
    const id = `SIMR-${codeOf(trigger)}-${digest("reserve", input.requestId).toString("hex").slice(0, 16).toUpperCase()}`;
    return { status: "reserved", authorityReservationId: id, expiresAt: new Date(this.now().getTime() + RESERVATION_VALIDITY_MS) };
  }

  async releaseReservation(input: { authorityReservationId: string; requestId: string }): Promise<void> {
    failIfTriggered(reservationTrigger(input.authorityReservationId), "release");
  }

  async terminateEndorsement(): Promise<void> {
    // The simulator keeps no state between calls: the averbação ends at once.
  }

  async endorse(input: EndorseInput): Promise<EndorseResult> {
    const trigger = reservationTrigger(input.authorityReservationId);
    failIfTriggered(trigger, "endorse");
    if (trigger === "reservation_expires") return { status: "refused", refusal: { code: "reservation_expired", message: "The margin reservation expired before the endorsement" } };
    if (trigger === "endorsement_refused") {
      return { status: "refused", refusal: { code: "beneficiary_consent_refused", message: "The beneficiary did not confirm the loan" } };
    }
    return {
      status: "endorsed",
      authorityEndorsementId: `SIME-${digest("endorse", input.requestId).toString("hex").slice(0, 16).toUpperCase()}`,
      endorsedAt: this.now(),
    };
  }
}

/** Two installments adding up to `amount`: 55% (rounded down) and the rest. */
function splitInTwo(amount: number): number[] {
  const first = Math.floor((amount * 55) / 100);
  return [first, amount - first];
}

function reservationTrigger(authorityReservationId: string): Trigger {
  const code = authorityReservationId.split("-")[1] ?? "";
  return SANDBOX_TRIGGERS[code as keyof typeof SANDBOX_TRIGGERS] ?? "none";
}
