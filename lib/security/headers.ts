// The panel's Content-Security-Policy, set per page view by the app's server (lib/http/panel-csp.ts). The headers every response carries
// (nosniff, referrer and permissions policies, no framing, HSTS over HTTPS) are in security-headers.mjs, which
// next.config.js loads.

/** The panel's Content-Security-Policy. Scripts: only Next's own, each carrying this request's nonce
 *  ('strict-dynamic' lets them load their chunks). Styles: the Tailwind stylesheet from 'self' and nonce'd
 *  <style> elements. Development adds what React's dev tooling needs: 'unsafe-eval' (server error stacks) and
 *  inline styles (the dev overlay); production has neither. No framing (clickjacking), no plugins, forms and
 *  <base> only to ourselves, and the browser connects only back to us (plus the dev server's websocket).
 *  `inlineStyles` (the /docs API reference only: its component injects <style> elements without our nonce)
 *  allows inline styles; scripts stay nonce-only there too. */
export function contentSecurityPolicy(nonce: string, dev: boolean, options: { inlineStyles?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${dev || options.inlineStyles ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
