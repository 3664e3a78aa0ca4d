import type http from "node:http";
import { describe, expect, it } from "vitest";
import { applyPanelPolicy } from "@/lib/http/panel-csp";

// The panel's per-view Content-Security-Policy: every document a browser may show carries it — a browser's own
// prefetch or prerender of a page too (it was skipped for `Purpose: prefetch`, so such a page showed without one).

function view(url: string, headers: Record<string, string> = {}) {
  const req = { url, headers: { ...headers } } as unknown as http.IncomingMessage;
  const set: Record<string, string> = {};
  const res = { setHeader: (name: string, value: string) => void (set[name] = value) } as unknown as http.ServerResponse;
  applyPanelPolicy(req, res, false);
  return { request: req.headers["content-security-policy"] as string | undefined, response: set["content-security-policy"] };
}

describe("the panel's Content-Security-Policy", () => {
  it("is set on a page view, on the request (Next's nonce) and the response alike, with a fresh nonce each time", () => {
    const first = view("/proposals?status=pending_review");
    expect(first.response).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(first.response).toContain("frame-ancestors 'none'");
    expect(first.request).toBe(first.response);
    expect(view("/proposals").response).not.toBe(first.response);
  });

  it("is set on a browser's prefetch or prerender of a page, which it may show as the document", () => {
    const prefetches: Record<string, string>[] = [{ purpose: "prefetch" }, { "sec-purpose": "prefetch;prerender" }, { "next-router-prefetch": "1" }];
    for (const headers of prefetches) {
      expect(view("/", headers).response).toMatch(/'nonce-/);
    }
  });

  it("is not set on the router's RSC payloads, /v1, /api or static assets", () => {
    expect(view("/proposals", { rsc: "1", "next-router-prefetch": "1" }).response).toBeUndefined();
    for (const url of ["/v1/health", "/api/panel/proposals", "/_next/static/chunks/app.js", "/favicon.ico"]) expect(view(url).response).toBeUndefined();
  });

  it("never takes a policy the client sent", () => {
    const sent = view("/v1/health", { "content-security-policy": "script-src *" });
    expect(sent.request).toBeUndefined();
    expect(view("/", { "content-security-policy": "script-src *" }).request).toMatch(/'nonce-/);
  });
});
