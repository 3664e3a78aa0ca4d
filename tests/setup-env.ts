// Test defaults for the validated config (lib/env.ts). DATABASE_URL comes from scripts/run-tests.ts.
process.env.AUTH_JWT_SECRET ??= "test-jwt-secret-0123456789abcdef0123456789abcdef";
process.env.NEXTAUTH_SECRET ??= "test-nextauth-secret-0123456789abcdef";
process.env.LOG_LEVEL ??= "silent";
process.env.WEBHOOKS_SANDBOX_ALLOW_LOOPBACK ??= "true"; // sandbox endpoints may point at the tests' loopback receivers
