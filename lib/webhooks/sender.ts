import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { API_VERSION } from "@/lib/version";
import { checkWebhookUrlWithin, type Resolve } from "./url-safety";

// One delivery attempt over HTTP: the URL is vetted again (DNS may have changed since registration: rebinding)
// and the connection goes to an address that check returned — the socket's own lookup is pinned to it, so a
// second resolution cannot swap in a private address. Redirects are not followed (a 3xx is a failure), only a
// 2xx succeeds, the whole attempt has a deadline, and at most 4 KiB of the answer is kept. The status decides once it
// has arrived: the deadline then only ends the reading of the body (what arrived is kept), never turning a 2xx the
// receiver gave into a failure that would send the event again.

export const BODY_SNIPPET_BYTES = 4096;
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = `CreditPlatform-Webhooks/${API_VERSION}`;

export type AttemptOutcome = {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  /** The answer's `Retry-After` header, when it failed with one (the schedule decides which statuses it applies to). */
  retryAfter?: string;
};

export type SendOptions = {
  environment: "sandbox" | "production";
  allowLoopback: boolean;
  timeoutMs: number;
  resolve?: Resolve;
};

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) };

export async function sendAttempt(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<AttemptOutcome> {
  const began = performance.now();
  const took = () => Math.round(performance.now() - began);
  // One deadline for the whole attempt, the address's resolution included: a receiver's stalled nameserver must not
  // hold the worker's round past its claims' lease (the others would be claimed and sent again by another worker).
  const deadline = Date.now() + options.timeoutMs;
  const check = await checkWebhookUrlWithin(url, options);
  if (!check.ok) return { ok: false, statusCode: null, error: check.stalled ? check.reason : `Address not allowed: ${check.reason}`, durationMs: took(), responseBody: null };
  const lookup = pinnedLookup(check.addresses);
  const secure = check.url.protocol === "https:";
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: took() });
    };
    const request = (secure ? https : http).request(
      check.url,
      {
        method: "POST",
        agent: secure ? agents.https : agents.http,
        lookup,
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "user-agent": USER_AGENT },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
          else response.destroy(); // a receiver streaming megabytes at us: stop reading, judge by the status
        });
        // `cutShort`: the deadline passed while the body was still arriving (the receiver sent its status and headers,
        // then trickled or held the rest). The status was given: it decides, and the log says the body is partial.
        judge = (cutShort = false) => {
          const status = response.statusCode ?? 0;
          const text = snippet(Buffer.concat(chunks).toString("utf8"));
          const ok = status >= 200 && status < 300;
          const location = response.headers.location;
          const failure = ok ? null : status >= 300 && status < 400 ? `Redirects are not followed (${status}${location ? ` to ${location}` : ""})` : `The endpoint answered ${status}`;
          const partial = `did not end within ${options.timeoutMs} ms: what had arrived is kept`;
          const error = !cutShort ? failure : failure === null ? `The answer's body ${partial}` : `${failure}; its body ${partial}`;
          const retryAfter = ok ? undefined : response.headers["retry-after"];
          finish({ ok, statusCode: status, error, responseBody: text, ...(retryAfter !== undefined ? { retryAfter } : {}) });
        };
        const done = () => judge?.();
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    // Set once the status line and headers have arrived.
    let judge: ((cutShort?: boolean) => void) | undefined;
    const timer = setTimeout(() => {
      // Judged before the socket is destroyed (its close would judge the body as complete).
      if (judge) judge(true);
      else finish({ ok: false, statusCode: null, error: `No answer within ${options.timeoutMs} ms`, responseBody: null });
      request.destroy();
    }, Math.max(1, deadline - Date.now()));
    request.on("error", (err: NodeJS.ErrnoException) => finish({ ok: false, statusCode: null, error: `Connection failed: ${err.code ?? err.message}`, responseBody: null }));
    request.end(body);
  });
}

/** A socket lookup that answers only with the vetted addresses. Node asks for all of them (`all: true`) when it may
 *  try several (autoSelectFamily, on by default): every one is given, so a receiver whose first address is down is
 *  still reached on another — each was vetted, none comes from a second resolution. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: ipaddr.parse(address).kind() === "ipv6" ? 6 : 4 }));
  return (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

/** The first 4 KiB of a text, cut on a character boundary, storable (no NUL, no lone surrogate). */
export function snippet(raw: string): string {
  const text = raw.replace(/\u0000/g, "\uFFFD").toWellFormed();
  if (Buffer.byteLength(text) <= BODY_SNIPPET_BYTES) return text;
  let cut = text.slice(0, BODY_SNIPPET_BYTES);
  while (Buffer.byteLength(cut) > BODY_SNIPPET_BYTES) cut = cut.slice(0, -1);
  return `${cut}…`;
}
