import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy } from "@/lib/security/headers";

// Next 16's proxy (formerly middleware), before routing, for panel pages only: a fresh nonce per page view and
// the Content-Security-Policy that allows only scripts carrying it. Next reads the policy from the request
// headers and puts the nonce on its own scripts while rendering (every page renders per request: the root
// layout opts in). /v1 (checked by the server in front of Next, lib/http/edge-server.ts: the proxy would cost
// every API request ~0.3 ms), static assets, /api and prefetches skip it (matcher below).

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const docs = request.nextUrl.pathname === "/docs" || request.nextUrl.pathname.startsWith("/docs/");
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development", { inlineStyles: docs });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!v1|api|_next/static|_next/image|favicon.ico|bench).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
