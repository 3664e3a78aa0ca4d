import { NextResponse, type NextRequest } from "next/server";
import { gateV1 } from "@/lib/api/v1-gate";
import { contentSecurityPolicy } from "@/lib/security/headers";

// Next 16's proxy (formerly middleware), before routing:
// - /v1: methods, unknown paths and malformed URLs answered as problem+json (lib/api/v1-gate.ts), since the
//   framework would answer some of them with HTML or a stack-trace page;
// - panel pages: a fresh nonce per page view and the Content-Security-Policy that allows only scripts carrying
//   it. Next reads the policy from the request headers and puts the nonce on its own scripts while rendering
//   (every page renders per request: the root layout opts in).
// Static assets, /api and prefetches skip the proxy (matcher below).

export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname === "/v1" || request.nextUrl.pathname.startsWith("/v1/")) {
    return gateV1(request) ?? NextResponse.next();
  }
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
    "/v1",
    "/v1/:path*",
    {
      source: "/((?!v1|api|_next/static|_next/image|favicon.ico|bench).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
