import { createHash } from "node:crypto";
import type http from "node:http";
import ipaddr from "ipaddr.js";

// The client's address, for what is counted per client (the panel's sign-in limit, lib/panel/auth-options.ts). A route
// handler never sees the socket, and X-Forwarded-For is whatever the client wrote unless a proxy the deployment trusts
// appended to it; so the app's own server (./edge-server.ts) writes the address into CLIENT_ADDRESS_HEADER on every
// request, replacing any value a client sent: the socket's, or behind a trusted proxy (TRUST_PROXY) the last
// X-Forwarded-For entry — the one that proxy appended for the connection it received (earlier ones are the client's).
// Behind two proxies the last entry is the outer one's address: put only the one in front of the app in the chain.

export const CLIENT_ADDRESS_HEADER = "x-client-address";

export function clientAddressOf(req: Pick<http.IncomingMessage, "headers" | "socket">, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const raw = req.headers["x-forwarded-for"];
    const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
    const last = value.split(",").at(-1)?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? undefined;
}

/** Sets the header on Node's request before Next reads it (what a client sent under that name never passes). */
export function stampClientAddress(req: http.IncomingMessage, trustProxy: boolean): void {
  const address = clientAddressOf(req, trustProxy);
  if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
  else delete req.headers[CLIENT_ADDRESS_HEADER];
}

/** The counter key of a client address (hashed: no address is stored in Redis): IPv4 as is (also written IPv4-mapped),
 *  IPv6 by its /64 (one subscriber's prefix: any host of it). null — nothing to count — for no address or anything that
 *  is not an IP address. */
export function addressKey(address: string | null | undefined): string | null {
  const ip = address?.trim();
  if (!ip || !ipaddr.isValid(ip)) return null;
  const parsed = ipaddr.process(ip); // an IPv4-mapped IPv6 address as its IPv4 one
  const text = parsed.kind() === "ipv4" ? parsed.toString() : `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((group) => group.toString(16)).join(":")}::/64`;
  return createHash("sha256").update(text).digest("base64url");
}
