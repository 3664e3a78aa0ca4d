import { afterEach, describe, expect, it } from "vitest";
import { HttpPayrollAuthority, type HttpAuthorityOptions } from "@/lib/payroll/authority/http-client";
import { AuthorityError, type MarginQueryInput } from "@/lib/payroll/authority/types";
import { FakeAuthority, makeCertificates, VALID_MARGIN_ANSWER } from "../helpers/fake-authority";

// The payroll authority's HTTP client against a fake authority on loopback: answers, retries, the circuit
// breaker, timeouts, malformed bodies, refusals, token renewal and mutual TLS, with real sockets.

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function setup(options: Partial<HttpAuthorityOptions> = {}, tls?: Parameters<typeof FakeAuthority.start>[0]) {
  const fake = await FakeAuthority.start(tls);
  const client = new HttpPayrollAuthority({
    baseUrl: fake.url,
    clientId: "platform",
    clientSecret: "s3cret",
    timeoutMs: 2000,
    maxRetries: 2,
    breakerThreshold: 50,
    breakerOpenMs: 60_000,
    backoffBaseMs: 10,
    maxRetryDelayMs: 50,
    ...options,
  });
  open.push(fake, client);
  return { fake, client };
}

const QUERY: MarginQueryInput = { document: "52998224725", source: { kind: "inss", benefitNumber: "1234567890" }, requestId: "mgq_01TEST" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls (every 5 ms, 10 s at most) until `ready` holds; fails saying what it waited for. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`still waiting after 10 s for ${what}`);
    await sleep(5);
  }
}
const token = (n: number) => ({ access_token: `tok-${n}`, token_type: "Bearer", expires_in: 3600 });

async function failure(promise: Promise<unknown>): Promise<AuthorityError> {
  const err = await promise.then(
    () => new Error("expected an AuthorityError"),
    (e: unknown) => e,
  );
  if (!(err instanceof AuthorityError)) throw err;
  return err;
}

describe("HttpPayrollAuthority", () => {
  it("queries the margin with a cached client-credentials token and the idempotency key", async () => {
    const { fake, client } = await setup();
    const result = await client.queryMargin(QUERY);
    expect(result).toEqual({
      authorityQueryId: "AUTH-Q-1",
      marginBase: 450000,
      margins: VALID_MARGIN_ANSWER.margins,
      sourceType: "41",
      sourceStatus: "active",
      blocks: [],
      payingInstitution: { code: "001", name: "Banco do Brasil S.A." },
      existingLoans: [{ lender: "Banco Alfa S.A.", contractNumber: "X-1", installmentAmount: 20000, remainingInstallments: 30 }],
      validUntil: new Date("2030-01-01T00:00:00.000Z"),
    });
    await client.queryMargin({ ...QUERY, requestId: "mgq_02TEST" });
    const [token] = fake.calls("/oauth/token");
    expect(fake.calls("/oauth/token")).toHaveLength(1);
    expect(token!.headers.authorization).toBe(`Basic ${Buffer.from("platform:s3cret").toString("base64")}`);
    expect(token!.body).toBe("grant_type=client_credentials");
    const calls = fake.calls("/v1/margin-queries");
    expect(calls.map((c) => [c.headers.authorization, c.headers["idempotency-key"]])).toEqual([
      ["Bearer tok-1", "mgq_01TEST"],
      ["Bearer tok-1", "mgq_02TEST"],
    ]);
    expect(calls[0]!.body).toEqual({ cpf: "52998224725", source: { type: "inss", benefit_number: "1234567890" } });
  });

  it("retries 5xx and dropped connections with the same idempotency key, then succeeds", async () => {
    const { fake, client } = await setup();
    fake.handler = (_req, n) => (n === 1 ? { status: 503, json: { error: "busy" } } : n === 2 ? "reset" : { status: 200, json: VALID_MARGIN_ANSWER });
    expect((await client.queryMargin(QUERY)).authorityQueryId).toBe("AUTH-Q-1");
    expect(fake.calls("/v1/margin-queries").map((c) => c.headers["idempotency-key"])).toEqual(["mgq_01TEST", "mgq_01TEST", "mgq_01TEST"]);
  });

  it("gives up after the retries: 5xx → unavailable, 429 → rate_limited with the Retry-After it was given", async () => {
    const { fake, client } = await setup();
    fake.handler = () => ({ status: 500, text: "<html>oops</html>" });
    const down = await failure(client.queryMargin(QUERY));
    expect({ kind: down.kind, retryable: down.retryable }).toEqual({ kind: "unavailable", retryable: true });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(3);

    fake.handler = () => ({ status: 429, json: {}, headers: { "retry-after": "7" } });
    const limited = await failure(client.queryMargin(QUERY));
    expect({ kind: limited.kind, retryAfter: limited.retryAfterSeconds }).toEqual({ kind: "rate_limited", retryAfter: 7 });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(6);
  });

  it("waits at least the Retry-After of a 429 before the next attempt", async () => {
    const { fake, client } = await setup({ maxRetries: 1, maxRetryDelayMs: 5000 });
    fake.handler = (_req, n) => (n === 1 ? { status: 429, json: {}, headers: { "retry-after": "1" } } : { status: 200, json: VALID_MARGIN_ANSWER });
    await client.queryMargin(QUERY);
    const [first, second] = fake.calls("/v1/margin-queries");
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("times out an attempt that never answers → timeout (retryable)", async () => {
    const { fake, client } = await setup({ timeoutMs: 150, maxRetries: 1 });
    fake.handler = () => "hang";
    const err = await failure(client.queryMargin(QUERY));
    expect({ kind: err.kind, retryable: err.retryable }).toEqual({ kind: "timeout", retryable: true });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(2);
  });

  it("an answer whose connection drops halfway through the body is retried; when retries run out → unavailable, reached", async () => {
    const { fake, client } = await setup({ maxRetries: 1 });
    fake.handler = (_req, n) => (n === 1 ? "cut" : { status: 200, json: VALID_MARGIN_ANSWER });
    expect((await client.queryMargin(QUERY)).authorityQueryId).toBe("AUTH-Q-1");
    expect(fake.calls("/v1/margin-queries")).toHaveLength(2);

    // The authority answered, so it may have acted: reached, whatever the retries did.
    fake.handler = () => "cut";
    const err = await failure(client.queryMargin(QUERY));
    expect({ kind: err.kind, retryable: err.retryable, reached: err.reached }).toEqual({ kind: "unavailable", retryable: true, reached: true });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(4);

    // A token answer cut the same way: unavailable, and the call itself was never sent.
    const other = await setup({ maxRetries: 1 });
    other.fake.tokenHandler = () => "cut";
    const tokenErr = await failure(other.client.queryMargin(QUERY));
    expect({ kind: tokenErr.kind, reached: tokenErr.reached }).toEqual({ kind: "unavailable", reached: false });
    expect([other.fake.calls("/oauth/token").length, other.fake.calls("/v1/margin-queries").length]).toEqual([2, 0]);
  });

  it("a caller timing out does not cancel the token request the other callers share", async () => {
    const { fake, client } = await setup({ timeoutMs: 2000, maxRetries: 0 });
    await client.queryMargin(QUERY); // tok-1 cached
    // The first caller's attempt gets a late 401 and renews the token within the same attempt; the new token comes
    // after that attempt has timed out, within the second caller's (which joined the renewal) and the token's own.
    // (Margins of 1.2 s for the 401 to arrive before the first attempt's deadline and of 0.5 s for the second caller's
    // call after the token: a loaded machine's stalls fit.)
    fake.handler = (_req, n) => (n === 2 ? { status: 401, json: {}, delayMs: 800 } : { status: 200, json: VALID_MARGIN_ANSWER });
    fake.tokenHandler = (n) => ({ status: 200, json: token(n), delayMs: 1500 });
    const first = failure(client.queryMargin({ ...QUERY, requestId: "mgq_02TEST" }));
    // The renewal is in flight (its request reached the authority): the second caller joins it.
    await until(() => fake.calls("/oauth/token").length === 2, "the first caller's token renewal");
    const second = client.queryMargin({ ...QUERY, requestId: "mgq_03TEST" });
    const err = await first;
    expect({ kind: err.kind, reached: err.reached }).toEqual({ kind: "timeout", reached: false });
    expect((await second).authorityQueryId).toBe("AUTH-Q-1");
    expect(fake.calls("/oauth/token")).toHaveLength(2);
    expect(fake.calls("/v1/margin-queries").map((c) => [c.headers.authorization, c.headers["idempotency-key"]])).toEqual([
      ["Bearer tok-1", "mgq_01TEST"],
      ["Bearer tok-1", "mgq_02TEST"],
      ["Bearer tok-2", "mgq_03TEST"],
    ]);
  });

  it("a token request that never answers times out on its own: timeout for every caller sharing it, and the next call asks again", async () => {
    const { fake, client } = await setup({ timeoutMs: 1000, maxRetries: 0 });
    fake.tokenHandler = (n) => (n === 1 ? "hang" : { status: 200, json: token(n) });
    const first = failure(client.queryMargin(QUERY));
    // The first caller's token request is out (the authority has it): the second caller shares it.
    await until(() => fake.calls("/oauth/token").length === 1, "the first caller's token request");
    const second = failure(client.queryMargin({ ...QUERY, requestId: "mgq_02TEST" }));
    expect((await Promise.all([first, second])).map((e) => ({ kind: e.kind, reached: e.reached }))).toEqual([
      { kind: "timeout", reached: false },
      { kind: "timeout", reached: false },
    ]);
    expect((await client.queryMargin(QUERY)).authorityQueryId).toBe("AUTH-Q-1");
    expect(fake.calls("/oauth/token")).toHaveLength(2);
    expect(fake.calls("/v1/margin-queries").map((c) => c.headers.authorization)).toEqual(["Bearer tok-2"]);
  });

  it("an error the client has no mapping for (here our own payload failing to serialise) is unavailable and reached, never raw", async () => {
    const { fake, client } = await setup();
    const bigint = { ...QUERY, document: 1n as unknown as string };
    const err = await failure(client.queryMargin(bigint));
    // Nothing was sent, but the client cannot know that of an error it does not know: reached, so recovery keeps the call.
    expect({ kind: err.kind, retryable: err.retryable, reached: err.reached }).toEqual({ kind: "unavailable", retryable: true, reached: true });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(0);
  });

  it("a malformed or unparsable body is bad_response, not retried", async () => {
    const { fake, client } = await setup();
    fake.handler = () => ({ status: 200, json: { ...VALID_MARGIN_ANSWER, margins: "lots" } });
    expect((await failure(client.queryMargin(QUERY))).kind).toBe("bad_response");
    fake.handler = () => ({ status: 200, text: "{not json" });
    const err = await failure(client.queryMargin(QUERY));
    expect({ kind: err.kind, retryable: err.retryable }).toEqual({ kind: "bad_response", retryable: false });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(2);
    fake.handler = () => ({ status: 404, json: {} });
    expect((await failure(client.queryMargin(QUERY))).kind).toBe("bad_response");
  });

  it("refusals (422) are results: reservation and endorsement", async () => {
    const { fake, client } = await setup();
    fake.handler = () => ({ status: 422, json: { error: { code: "insufficient_margin", message: "Margin below the installment" } } });
    const reserve = await client.reserveMargin({
      authorityQueryId: "AUTH-Q-1",
      document: "52998224725",
      source: { kind: "private", employerCnpj: "11222333000181", registration: "A-42" },
      kind: "loan",
      installmentAmount: 50000,
      termMonths: 24,
      requestId: "k1",
    });
    expect(reserve).toEqual({ status: "refused", refusal: { code: "insufficient_margin", message: "Margin below the installment" } });
    expect(fake.calls("/v1/reservations")[0]!.body).toEqual({
      query_id: "AUTH-Q-1",
      cpf: "52998224725",
      source: { type: "private", employer_cnpj: "11222333000181", registration: "A-42" },
      kind: "loan",
      installment_amount: 50000,
      term_months: 24,
    });
    fake.handler = () => ({ status: 201, json: { endorsement_id: "E-1", status: "endorsed", endorsed_at: "2026-11-23T12:00:00Z" } });
    const endorsed = await client.endorse({ authorityReservationId: "R-1", contractNumber: "CCB-2026-000001", principal: 100000, installmentAmount: 9000, termMonths: 12, firstDueDate: "2026-12-10", requestId: "k2" });
    expect(endorsed).toEqual({ status: "endorsed", authorityEndorsementId: "E-1", endorsedAt: new Date("2026-11-23T12:00:00Z") });
    fake.handler = () => ({ status: 409, json: {} });
    await expect(client.releaseReservation({ authorityReservationId: "R-1", requestId: "k3" })).resolves.toBeUndefined();
    expect(fake.requests.at(-1)!.path).toBe("/v1/reservations/R-1/release");
    // A 404 may be a wrong path or base URL: never taken as released (the margin could still be held there).
    fake.handler = () => ({ status: 404, json: {} });
    await expect(client.releaseReservation({ authorityReservationId: "R-1", requestId: "k3b" })).rejects.toMatchObject({ name: "AuthorityError" });

    // Ending the averbação: POST …/terminate with the reason; already ended (409) counts as done; 5xx is an error.
    fake.handler = () => ({ status: 204, json: {} });
    await expect(client.terminateEndorsement({ authorityEndorsementId: "E-1", reason: "settled", requestId: "k4" })).resolves.toBeUndefined();
    expect(fake.requests.at(-1)!).toMatchObject({ path: "/v1/endorsements/E-1/terminate", body: { reason: "settled" } });
    expect(fake.requests.at(-1)!.headers["idempotency-key"]).toBe("k4");
    fake.handler = () => ({ status: 409, json: {} });
    await expect(client.terminateEndorsement({ authorityEndorsementId: "E-1", reason: "canceled", requestId: "k5" })).resolves.toBeUndefined();
    // A 404 may be a wrong path or base URL: never taken as "ended" (the deduction could still be running).
    fake.handler = () => ({ status: 404, json: {} });
    await expect(client.terminateEndorsement({ authorityEndorsementId: "E-1", reason: "canceled", requestId: "k6" })).rejects.toMatchObject({ name: "AuthorityError" });
  });

  it("a margin query refused (422) is a MarginQueryRefused with the authority's refusal, not retried; a malformed refusal is bad_response", async () => {
    const { fake, client } = await setup();
    fake.handler = () => ({ status: 422, json: { error: { code: "authorization_missing", message: "The beneficiary has not authorized this institution" } } });
    const query = { document: "52998224725", source: { kind: "inss" as const, benefitNumber: "1234567890" }, requestId: "q1" };
    await expect(client.queryMargin(query)).rejects.toMatchObject({ name: "MarginQueryRefused", refusal: { code: "authorization_missing", message: "The beneficiary has not authorized this institution" } });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(1);
    fake.handler = () => ({ status: 422, json: { unexpected: true } });
    await expect(client.queryMargin({ ...query, requestId: "q2" })).rejects.toMatchObject({ name: "AuthorityError", kind: "bad_response" });
  });

  it("renews the token once on a 401 and goes on", async () => {
    const { fake, client } = await setup();
    fake.handler = (req) => (req.headers.authorization === "Bearer tok-1" ? { status: 401, json: {} } : { status: 200, json: VALID_MARGIN_ANSWER });
    expect((await client.queryMargin(QUERY)).authorityQueryId).toBe("AUTH-Q-1");
    expect(fake.calls("/oauth/token")).toHaveLength(2);
    expect(fake.calls("/v1/margin-queries").map((c) => c.headers.authorization)).toEqual(["Bearer tok-1", "Bearer tok-2"]);
  });

  it("opens the circuit after consecutive failures, answers circuit_open without calling, and closes after a good trial", async () => {
    const { fake, client } = await setup({ maxRetries: 0, breakerThreshold: 3, breakerOpenMs: 300 });
    fake.handler = () => ({ status: 503, json: {} });
    for (let i = 0; i < 3; i++) expect((await failure(client.queryMargin(QUERY))).kind).toBe("unavailable");
    const open = await failure(client.queryMargin(QUERY));
    expect({ kind: open.kind, retryable: open.retryable, retryAfter: open.retryAfterSeconds }).toEqual({ kind: "circuit_open", retryable: true, retryAfter: 1 });
    expect(fake.calls("/v1/margin-queries")).toHaveLength(3);
    fake.handler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await client.queryMargin(QUERY)).authorityQueryId).toBe("AUTH-Q-1");
    expect((await client.queryMargin(QUERY)).authorityQueryId).toBe("AUTH-Q-1");
    expect(fake.calls("/v1/margin-queries")).toHaveLength(5);
  });

  it("says whether any attempt may have been processed, whatever the last one failed on (what the recovery workers need)", async () => {
    const fresh = async (options: Partial<HttpAuthorityOptions>, handler: FakeAuthority["handler"]) => {
      const { fake, client } = await setup(options);
      fake.handler = handler;
      const err = await failure(client.reserveMargin({ authorityQueryId: "Q", document: "52998224725", source: QUERY.source, kind: "loan", installmentAmount: 100, termMonths: 12, requestId: "k" }));
      return { kind: err.kind, reached: err.reached };
    };
    // A 5xx, then a 429: the last is rate_limited, but the first may have reserved.
    expect(await fresh({ maxRetries: 1 }, (_r, n) => (n === 1 ? { status: 503, json: {} } : { status: 429, json: {} }))).toEqual({ kind: "rate_limited", reached: true });
    // A 5xx that opens the breaker, then the breaker: circuit_open, yet the first may have reserved.
    expect(await fresh({ maxRetries: 1, breakerThreshold: 1 }, () => ({ status: 503, json: {} }))).toEqual({ kind: "circuit_open", reached: true });
    // A timeout may have arrived.
    expect(await fresh({ maxRetries: 0, timeoutMs: 100 }, () => "hang")).toEqual({ kind: "timeout", reached: true });
    // Only 429s: none was processed.
    expect(await fresh({ maxRetries: 1 }, () => ({ status: 429, json: {} }))).toEqual({ kind: "rate_limited", reached: false });
    // Not listening: nothing left.
    const { fake, client } = await setup({ maxRetries: 1 });
    await fake.close();
    expect((await failure(client.queryMargin(QUERY))).reached).toBe(false);
  });

  it("an authority that is not listening is unavailable", async () => {
    const { fake, client } = await setup({ maxRetries: 1 });
    await fake.close();
    expect((await failure(client.queryMargin(QUERY))).kind).toBe("unavailable");
  });

  it("mutual TLS: with the client certificate and the CA it works; without the certificate the handshake fails", async () => {
    const certs = makeCertificates();
    const tls = { key: certs.serverKey, cert: certs.serverCert, ca: certs.ca };
    const { fake, client } = await setup({ tls: { cert: certs.clientCert, key: certs.clientKey, ca: certs.ca } }, tls);
    expect((await client.queryMargin(QUERY)).authorityQueryId).toBe("AUTH-Q-1");
    expect(fake.url.startsWith("https://")).toBe(true);
    const anonymous = new HttpPayrollAuthority({ baseUrl: fake.url, clientId: "x", clientSecret: "y", tls: { ca: certs.ca }, timeoutMs: 2000, maxRetries: 0, breakerThreshold: 5, breakerOpenMs: 1000 });
    open.push(anonymous);
    expect((await failure(anonymous.queryMargin(QUERY))).kind).toBe("unavailable");
  });
});
