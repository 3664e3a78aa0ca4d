import fc from "fast-check";

// Test defaults for the validated config (lib/env.ts). DATABASE_URL comes from scripts/run-tests.ts.
process.env.AUTH_JWT_SECRET ??= "test-jwt-secret-0123456789abcdef0123456789abcdef";
process.env.NEXTAUTH_SECRET ??= "test-nextauth-secret-0123456789abcdef";
process.env.LOG_LEVEL ??= "silent";
process.env.WEBHOOKS_SANDBOX_ALLOW_LOOPBACK ??= "true"; // sandbox endpoints may point at the tests' loopback receivers

// Property tests (fast-check) draw a new seed per run unless FC_SEED fixes it: .ci/run sets it from the commit,
// so one commit's CI always tries the same cases (a failure is reproduced by running again) while each commit
// explores new ones. A failure prints its seed; FC_SEED=<seed> npx vitest run <file> replays it.
if (process.env.FC_SEED) {
  const seed = Number(process.env.FC_SEED);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${process.env.FC_SEED}`);
  fc.configureGlobal({ seed });
}
