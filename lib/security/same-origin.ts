// Cross-site request forgery defence of the panel's JSON writes (OWASP: verify the source origin with standard
// headers). A browser always labels a request with `Sec-Fetch-Site` (modern browsers) and/or `Origin` (every
// browser, on every non-GET): a write is accepted only when those say it comes from the panel's own origin.
// A request with neither header is not from a browser, so it cannot carry a victim's session cookie by accident.
// The session cookie is also SameSite=Lax, and writes require Content-Type: application/json; this check does
// not rely on either.

const SAFE_FETCH_SITES = new Set(["same-origin", "none"]); // "none": typed in the address bar, a bookmark

export type OriginVerdict = { ok: true } | { ok: false; reason: string };

/** `allowedOrigins`: the panel's own origins (lib/panel/panel-route.ts panelOrigins). */
export function checkSameOrigin(headers: Headers, allowedOrigins: readonly string[]): OriginVerdict {
  const site = headers.get("sec-fetch-site");
  if (site !== null && !SAFE_FETCH_SITES.has(site)) return { ok: false, reason: `Sec-Fetch-Site is ${site}` };
  const origin = headers.get("origin");
  if (origin !== null && !allowedOrigins.includes(origin)) return { ok: false, reason: `Origin ${origin} is not the panel's` };
  return { ok: true };
}
