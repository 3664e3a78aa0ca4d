import { readFileSync } from "node:fs";
import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  DelegateBackoff,
  TaskCancelledError,
  TimeoutStrategy,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  wrap,
  type IPolicy,
} from "cockatiel";
import { Agent, request, type Dispatcher } from "undici";
import type { z } from "zod";
import { log } from "@/lib/log";
import {
  AuthorityError,
  MarginQueryRefused,
  type EndorseInput,
  type EndorseResult,
  type MarginQueryInput,
  type MarginQueryResult,
  type PayrollAuthority,
  type PayrollSource,
  type ReserveMarginInput,
  type ReserveMarginResult,
} from "./types";
import { EndorsementAnswer, MarginQueryAnswer, RefusalAnswer, ReservationAnswer, TokenAnswer } from "./wire-schemas";
import { MAX_RETRY_DELAY_MS } from "./call-budget";

// The real payroll-loan authority over HTTPS (protocol: docs/payroll-authority-protocol.md).
// - OAuth2 client credentials; the token is cached until 30 s before it expires, and a 401 renews it once.
// - Optional client certificate (mTLS) and private CA, through an undici Agent.
// - Every call is a POST carrying `Idempotency-Key` (our request id for the intent), so every call may be
//   retried: per-attempt timeout, retries with exponential backoff and full jitter on network errors,
//   timeouts, 429 (honouring Retry-After, capped) and 5xx, and a consecutive-failure circuit breaker —
//   all cockatiel policies. What is left after them becomes an AuthorityError (502/503/504 upstream).
// - Business refusals (422 with `error.code`) are results, not errors.

export type HttpAuthorityOptions = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM contents (not paths): read by `fromEnv`. */
  tls?: { cert?: string; key?: string; ca?: string };
  timeoutMs: number;
  maxRetries: number;
  breakerThreshold: number;
  breakerOpenMs: number;
  /** Retry delays: base of the exponential backoff and the cap of any single wait (Retry-After included). */
  backoffBaseMs?: number;
  maxRetryDelayMs?: number;
};

/** A failure worth another attempt (and counted by the breaker). */
class TransientFailure extends Error {
  constructor(
    readonly kind: "timeout" | "unavailable" | "rate_limited",
    message: string,
    readonly retryAfterMs?: number,
    /** The request never reached the authority (the connection was refused or the name did not resolve). */
    readonly undelivered = false,
  ) {
    super(message);
  }
}


type Answer = { status: number; body: unknown; headers: Record<string, string | string[] | undefined> };

export class HttpPayrollAuthority implements PayrollAuthority {
  readonly name = "http" as const;
  private readonly dispatcher: Dispatcher;
  private readonly policy: IPolicy;
  private readonly base: URL;
  private token: { value: string; expiresAt: number } | null = null;
  private tokenRequest: Promise<string> | null = null;

  constructor(private readonly options: HttpAuthorityOptions) {
    this.base = new URL(options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
    this.dispatcher = new Agent({
      connect: { ...(options.tls?.cert ? { cert: options.tls.cert } : {}), ...(options.tls?.key ? { key: options.tls.key } : {}), ...(options.tls?.ca ? { ca: options.tls.ca } : {}) },
      keepAliveTimeout: 10_000,
    });
    const baseDelay = options.backoffBaseMs ?? 200;
    const maxDelay = options.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS;
    const transient = handleWhen((err) => err instanceof TransientFailure || err instanceof TaskCancelledError);
    const retries = retry(transient, {
      maxAttempts: options.maxRetries,
      // Full jitter over an exponential ceiling; a 429's Retry-After wins when it says to wait longer.
      backoff: new DelegateBackoff((context) => {
        const ceiling = Math.min(maxDelay, baseDelay * 2 ** (context.attempt - 1));
        const jittered = Math.round(Math.random() * ceiling);
        const error = "error" in context.result ? context.result.error : undefined;
        const asked = error instanceof TransientFailure ? error.retryAfterMs : undefined;
        return asked !== undefined ? Math.min(maxDelay, Math.max(asked, jittered)) : jittered;
      }),
    });
    const breaker = circuitBreaker(transient, { halfOpenAfter: options.breakerOpenMs, breaker: new ConsecutiveBreaker(options.breakerThreshold) });
    const perAttempt = timeout(options.timeoutMs, TimeoutStrategy.Aggressive);
    this.policy = wrap(retries, breaker, perAttempt);
  }

  static fromEnv(env: {
    PAYROLL_AUTHORITY_URL?: string;
    PAYROLL_AUTHORITY_CLIENT_ID?: string;
    PAYROLL_AUTHORITY_CLIENT_SECRET?: string;
    PAYROLL_AUTHORITY_CERT_PATH?: string;
    PAYROLL_AUTHORITY_KEY_PATH?: string;
    PAYROLL_AUTHORITY_CA_PATH?: string;
    PAYROLL_AUTHORITY_TIMEOUT_MS: number;
    PAYROLL_AUTHORITY_MAX_RETRIES: number;
    PAYROLL_AUTHORITY_BREAKER_THRESHOLD: number;
    PAYROLL_AUTHORITY_BREAKER_OPEN_SECONDS: number;
  }): HttpPayrollAuthority {
    if (!env.PAYROLL_AUTHORITY_URL || !env.PAYROLL_AUTHORITY_CLIENT_ID || !env.PAYROLL_AUTHORITY_CLIENT_SECRET) {
      throw new Error("PAYROLL_AUTHORITY_URL, PAYROLL_AUTHORITY_CLIENT_ID and PAYROLL_AUTHORITY_CLIENT_SECRET are all required");
    }
    const pem = (file?: string) => (file ? readFileSync(file, "utf8") : undefined);
    return new HttpPayrollAuthority({
      baseUrl: env.PAYROLL_AUTHORITY_URL,
      clientId: env.PAYROLL_AUTHORITY_CLIENT_ID,
      clientSecret: env.PAYROLL_AUTHORITY_CLIENT_SECRET,
      tls: { cert: pem(env.PAYROLL_AUTHORITY_CERT_PATH), key: pem(env.PAYROLL_AUTHORITY_KEY_PATH), ca: pem(env.PAYROLL_AUTHORITY_CA_PATH) },
      timeoutMs: env.PAYROLL_AUTHORITY_TIMEOUT_MS,
      maxRetries: env.PAYROLL_AUTHORITY_MAX_RETRIES,
      breakerThreshold: env.PAYROLL_AUTHORITY_BREAKER_THRESHOLD,
      breakerOpenMs: env.PAYROLL_AUTHORITY_BREAKER_OPEN_SECONDS * 1000,
    });
  }

  async queryMargin(input: MarginQueryInput): Promise<MarginQueryResult> {
    const answer = await this.call("v1/margin-queries", input.requestId, { cpf: input.document, source: wireSource(input.source) });
    if (answer.status === 422) throw new MarginQueryRefused(parse(RefusalAnswer, answer.body, "margin query refusal").error);
    const body = parse(MarginQueryAnswer, expectStatus(answer, [200, 201]), "margin query");
    return {
      authorityQueryId: body.query_id,
      marginBase: body.margin_base,
      margins: body.margins,
      sourceType: body.source_type,
      sourceStatus: body.source_status,
      blocks: body.blocks,
      payingInstitution: body.paying_institution,
      existingLoans: body.existing_loans.map((l) => ({
        lender: l.lender,
        contractNumber: l.contract_number,
        installmentAmount: l.installment_amount,
        remainingInstallments: l.remaining_installments,
      })),
      validUntil: new Date(body.valid_until),
    };
  }

  async reserveMargin(input: ReserveMarginInput): Promise<ReserveMarginResult> {
    const answer = await this.call("v1/reservations", input.requestId, {
      query_id: input.authorityQueryId,
      cpf: input.document,
      source: wireSource(input.source),
      kind: input.kind,
      installment_amount: input.installmentAmount,
      term_months: input.termMonths,
    });
    if (answer.status === 422) return { status: "refused", refusal: parse(RefusalAnswer, answer.body, "reservation refusal").error };
    const body = parse(ReservationAnswer, expectStatus(answer, [200, 201]), "reservation");
    return { status: "reserved", authorityReservationId: body.reservation_id, expiresAt: new Date(body.expires_at) };
  }

  async releaseReservation(input: { authorityReservationId: string; requestId: string }): Promise<void> {
    const answer = await this.call(`v1/reservations/${encodeURIComponent(input.authorityReservationId)}/release`, input.requestId, {});
    // Already released or expired at the authority (409): the margin is free either way. A 404 may be a wrong path
    // or base URL — never taken as released (the margin would stay held there while we show it free).
    if (answer.status === 409) return;
    expectStatus(answer, [200, 202, 204]);
  }

  async endorse(input: EndorseInput): Promise<EndorseResult> {
    const answer = await this.call("v1/endorsements", input.requestId, {
      reservation_id: input.authorityReservationId,
      contract_number: input.contractNumber,
      principal: input.principal,
      installment_amount: input.installmentAmount,
      term_months: input.termMonths,
      first_due_date: input.firstDueDate,
    });
    if (answer.status === 422) return { status: "refused", refusal: parse(RefusalAnswer, answer.body, "endorsement refusal").error };
    const body = parse(EndorsementAnswer, expectStatus(answer, [200, 201]), "endorsement");
    return { status: "endorsed", authorityEndorsementId: body.endorsement_id, endorsedAt: new Date(body.endorsed_at) };
  }

  async terminateEndorsement(input: { authorityEndorsementId: string; reason: "settled" | "canceled"; requestId: string }): Promise<void> {
    const answer = await this.call(`v1/endorsements/${encodeURIComponent(input.authorityEndorsementId)}/terminate`, input.requestId, { reason: input.reason });
    // Already ended at the authority (409): done. A 404 is not taken as "ended" — a wrong path or base URL answers 404
    // too, and believing it would release margins whose deductions still run: it is an error, retried and shown.
    if (answer.status === 409) return;
    expectStatus(answer, [200, 202, 204]);
  }

  /** Closes the connection pool (tests, shutdown). */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** One logical call: the policies around attempts; a 401 renews the token once per attempt. */
  private async call(path: string, idempotencyKey: string, payload: unknown): Promise<Answer> {
    // Whether any attempt may have been processed — what the recovery workers need to know, whatever the last failed on.
    let reached = false;
    const attempt = async (signal: AbortSignal): Promise<Answer> => {
      const token = await this.accessToken();
      try {
        const answer = await this.post(path, idempotencyKey, payload, token, signal);
        if (answer.status !== 429 && answer.status !== 401) reached = true;
        return answer;
      } catch (err) {
        if (!(err instanceof TransientFailure && err.undelivered)) reached = true; // a timeout or a reset: it may have arrived
        throw err;
      }
    };
    try {
      return await this.policy.execute(async ({ signal }) => {
        let answer = await attempt(signal);
        if (answer.status === 401) {
          this.token = null;
          answer = await attempt(signal);
        }
        return classify(answer);
      });
    } catch (err) {
      throw toAuthorityError(err, this.options, reached);
    }
  }

  private async post(path: string, idempotencyKey: string, payload: unknown, token: string, signal: AbortSignal): Promise<Answer> {
    return this.send(new URL(path, this.base), {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": idempotencyKey, accept: "application/json" },
      body: JSON.stringify(payload),
      signal,
    });
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt - 30_000 > Date.now()) return this.token.value;
    // One token request at a time: concurrent calls share it. It runs on its own timeout, not on the attempt that
    // started it: that attempt timing out must not abort the request the others are waiting on. (A waiting attempt
    // still gives up on its own timeout: cockatiel's aggressive strategy does not wait for this promise.)
    this.tokenRequest ??= this.fetchToken(AbortSignal.timeout(this.options.timeoutMs)).finally(() => {
      this.tokenRequest = null;
    });
    return this.tokenRequest;
  }

  private async fetchToken(signal: AbortSignal): Promise<string> {
    const basic = Buffer.from(`${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`).toString("base64");
    const answer = classify(
      await this.send(new URL("oauth/token", this.base), {
        headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: "grant_type=client_credentials",
        signal,
      }),
    );
    if (answer.status === 401 || answer.status === 400) throw new AuthorityError("bad_response", `The authority refused our client credentials (${answer.status})`);
    const body = parse(TokenAnswer, expectStatus(answer, [200]), "token");
    this.token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return body.access_token;
  }

  private async send(url: URL, init: { headers: Record<string, string>; body: string; signal: AbortSignal }): Promise<Answer> {
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      response = await request(url, { method: "POST", headers: init.headers, body: init.body, signal: init.signal, dispatcher: this.dispatcher });
      // Read here, not after: a connection dropped halfway through the body is a network failure like any other.
      text = await response.body.text();
    } catch (err) {
      // Only timeouts abort: the per-attempt one (cockatiel has already reported it, this is not seen) or the token
      // request's own, which every attempt sharing that request must see as a timeout, not as a raw AbortError.
      if (init.signal.aborted) throw new TransientFailure("timeout", `The payroll authority did not answer within ${this.options.timeoutMs} ms`);
      const code = (err as { code?: string }).code ?? "";
      const undelivered = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"].includes(code);
      throw new TransientFailure("unavailable", `Cannot reach the payroll authority: ${(err as Error).message}`, undefined, undelivered);
    }
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = { unparsable: text.slice(0, 200) };
    }
    return { status: response.statusCode, body, headers: response.headers };
  }
}

/** 429 and 5xx are transient; anything else goes back to the caller to interpret. */
function classify(answer: Answer): Answer {
  if (answer.status === 429) throw new TransientFailure("rate_limited", "The payroll authority is limiting our requests (429)", retryAfterMs(answer.headers["retry-after"]));
  if (answer.status >= 500) throw new TransientFailure("unavailable", `The payroll authority answered ${answer.status}`, retryAfterMs(answer.headers["retry-after"]));
  return answer;
}

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function expectStatus(answer: Answer, ok: number[]): unknown {
  if (!ok.includes(answer.status)) throw new AuthorityError("bad_response", `The payroll authority answered ${answer.status}, which the protocol does not allow here`);
  return answer.body;
}

function parse<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    log().warn({ issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".")}: ${i.message}`) }, `payroll authority: malformed ${what} answer`);
    throw new AuthorityError("bad_response", `The payroll authority's ${what} answer is malformed`);
  }
  return parsed.data;
}

function wireSource(source: PayrollSource) {
  return source.kind === "inss" ? { type: "inss", benefit_number: source.benefitNumber } : { type: "private", employer_cnpj: source.employerCnpj, registration: source.registration };
}

function toAuthorityError(err: unknown, options: HttpAuthorityOptions, reached: boolean): AuthorityError {
  if (err instanceof AuthorityError) return err.reached === reached ? err : new AuthorityError(err.kind, err.message, err.retryAfterSeconds, reached);
  if (err instanceof BrokenCircuitError) {
    return new AuthorityError("circuit_open", "Calls to the payroll authority are paused after repeated failures", Math.ceil(options.breakerOpenMs / 1000), reached);
  }
  if (err instanceof TaskCancelledError) return new AuthorityError("timeout", `The payroll authority did not answer within ${options.timeoutMs} ms`, undefined, reached);
  if (err instanceof TransientFailure) {
    const seconds = err.retryAfterMs !== undefined ? Math.ceil(err.retryAfterMs / 1000) : undefined;
    return new AuthorityError(err.kind, err.message, seconds, reached);
  }
  // Nothing else is expected here: `send` maps every network failure. Whatever this is (a failure path we did not
  // foresee, or a bug of ours — a TypeError cannot tell which: fetch-style clients throw TypeError for network
  // failures too), the caller gets the authority's outcome, not a 500: unavailable, and reached, since we cannot
  // know that nothing went out, so the recovery workers keep the call. Logged in full so that a bug is still seen.
  log().error({ err }, "payroll authority: unexpected failure, reported as unavailable");
  return new AuthorityError("unavailable", "The payroll authority call failed unexpectedly", undefined, true);
}
