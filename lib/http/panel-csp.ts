import type http from "node:http";
import { contentSecurityPolicy } from "@/lib/security/headers";

// The panel's Content-Security-Policy, per page view, set by the app's server (lib/http/edge-server.ts) before
// Next handles the request: a fresh nonce, the policy that allows only scripts carrying it on the response, and
// the same policy on the request, where Next reads the nonce and puts it on its own scripts while rendering
// (every page renders per request: the root layout opts in). This was Next's proxy (proxy.ts); here it costs
// no compile on the dev server's start and no proxy pass per page view.
// Not for /v1 (JSON, no scripts), /api, static assets, /bench, or the router's RSC fetches (`RSC: 1`, a payload Next's
// client reads, never a document). A browser's own prefetch or prerender of a page (`Purpose: prefetch`,
// `Sec-Purpose: prefetch;prerender`) is a document it may show: it gets the policy like any page view.

const NOT_PAGES = /^\/(?:v1|api|_next\/static|_next\/image|favicon\.ico|bench)/;

function isPageView(req: http.IncomingMessage): boolean {
  if (NOT_PAGES.test(req.url ?? "/")) return false;
  return req.headers.rsc === undefined;
}

/** `dev`: the server runs Next's development server — whatever NODE_ENV says (tests run it with NODE_ENV=test). */
export function applyPanelPolicy(req: http.IncomingMessage, res: http.ServerResponse, dev: boolean): void {
  // Only the server decides the nonce: a policy sent by the client never reaches Next.
  delete req.headers["content-security-policy"];
  delete req.headers["content-security-policy-report-only"];
  if (!isPageView(req)) return;
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const path = (req.url ?? "/").split("?")[0]!;
  const docs = path === "/docs" || path.startsWith("/docs/");
  const policy = contentSecurityPolicy(nonce, dev, { inlineStyles: docs });
  req.headers["content-security-policy"] = policy;
  res.setHeader("content-security-policy", policy);
}
