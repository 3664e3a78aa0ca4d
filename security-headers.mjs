// Headers on every response (next.config.js `headers()`): see lib/security/headers.ts for the panel's CSP,
// which the proxy adds per request. Kept as plain ESM because next.config.js loads it without TypeScript.

/** Every response, panel and /v1 alike. */
export const COMMON_SECURITY_HEADERS = [
  // Never guess a media type: a JSON answer or an upload is never run as a script or a page.
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Other sites see at most our origin, never a panel URL (which may name ids).
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // The panel needs no device or payment API; deny them to any script that gets in.
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()" },
  // No framing of any page or answer (the CSP's frame-ancestors says it again for browsers that read CSP).
  { key: "X-Frame-Options", value: "DENY" },
];

/** HSTS only when the request came over HTTPS (a TLS-terminating proxy says so in X-Forwarded-Proto):
 *  on plain-HTTP development addresses it would be ignored at best and pin localhost at worst. */
export const HSTS_OVER_HTTPS = {
  has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
  headers: [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }],
};
