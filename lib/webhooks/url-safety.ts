import { lookup as dnsLookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import type { Environment } from "@prisma/client";

// Where webhooks may be sent (SSRF): a receiver URL must resolve only to public unicast addresses — loopback,
// private, carrier-grade NAT, link-local (incl. the cloud metadata address 169.254.169.254), unique-local,
// multicast, broadcast, unspecified and reserved ranges are refused, IPv4 inside IPv6 (::ffff:a.b.c.d) judged as
// IPv4. The WHATWG URL parser first normalizes the host, so decimal (2130706433), octal (0177.0.0.1) and hex
// (0x7f000001) IPv4 forms are judged as the address they are. Production URLs must be https; no credentials in
// the URL. Checked when an endpoint is registered and again before every delivery (DNS can change: rebinding),
// and the delivery connects to the addresses this check returned.
//
// `allowLoopback` (sandbox only, from WEBHOOKS_SANDBOX_ALLOW_LOOPBACK): http(s)://localhost, 127.0.0.1 or [::1]
// for local development and the tests' loopback receivers.

export type UrlCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string; stalled?: true };
export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

export async function checkWebhookUrl(raw: string, options: { environment: Environment; allowLoopback: boolean; resolve?: Resolve }): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "Not an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "Only https (and http for local development in the sandbox)" };
  if (url.username || url.password) return { ok: false, reason: "The URL must not carry credentials" };
  if (url.hash) return { ok: false, reason: "The URL must not have a fragment" };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopbackAllowed = options.environment === "sandbox" && options.allowLoopback && isLoopbackName(host);
  if (url.protocol === "http:" && !loopbackAllowed) return { ok: false, reason: "Webhook URLs must use https" };

  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      return { ok: false, reason: `The host ${host} does not resolve` };
    }
    if (addresses.length === 0) return { ok: false, reason: `The host ${host} does not resolve` };
  }
  for (const address of addresses) {
    const range = rangeOf(address);
    if (range === "unicast") continue;
    if (loopbackAllowed && range === "loopback") continue;
    return { ok: false, reason: `${host} resolves to ${address}, a ${range} address: only public addresses receive webhooks` };
  }
  return { ok: true, url, addresses };
}

/** checkWebhookUrl with a deadline, the name's resolution included: a stalled name server must hold neither a
 *  registration request nor a worker's attempt (past its claim's lease) beyond `timeoutMs`. */
export async function checkWebhookUrlWithin(raw: string, options: { environment: Environment; allowLoopback: boolean; resolve?: Resolve; timeoutMs: number }): Promise<UrlCheck> {
  let stalled: NodeJS.Timeout | undefined;
  const timeout = new Promise<UrlCheck>((resolve) => {
    stalled = setTimeout(() => resolve({ ok: false, reason: `The address did not resolve within ${options.timeoutMs} ms`, stalled: true }), options.timeoutMs);
  });
  return Promise.race([checkWebhookUrl(raw, options), timeout]).finally(() => clearTimeout(stalled));
}

function isLoopbackName(host: string): boolean {
  return host === "localhost" || host === "127.0.0.1" || host === "::1";
}

/** ipaddr.js's range name; IPv4-mapped IPv6 judged as its IPv4 address. The deprecated IPv4-compatible form
 *  (`::/96`, e.g. `::7f00:1`, `::a9fe:a9fe`) is refused outright: ipaddr.js calls it "unicast", and a stack that still
 *  routes it would reach the IPv4 address inside (loopback, the metadata service). */
export function rangeOf(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.range() === "unicast" && v6.parts.slice(0, 6).every((part) => part === 0)) return "ipv4Compatible";
  }
  return parsed.range();
}
