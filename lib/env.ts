import { z } from "zod";
import { authorityCallBudgetMs } from "@/lib/payroll/authority/call-budget";

// The one place that reads process.env. Everything else asks getEnv().
// Parsed lazily (first call) so scripts can set variables before the app reads them; parsed once.

const url = z.string().trim().url();

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z.string().trim().min(1, "DATABASE_URL is required (npm run dev sets it for the embedded PostgreSQL)"),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  // Longest wait for a database connection before a request answers 503 (pg would wait forever).
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  // Longest a statement may run, lock waits included (PostgreSQL's statement_timeout on every connection of the app);
  // a statement with no answer at all DATABASE_ANSWER_MARGIN_MS after it — a database gone silent, not slow — fails on
  // the client side (lib/db/client.ts). Either way the request answers 503 instead of hanging.
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  REDIS_URL: z.string().trim().min(1).optional(),
  // Each environment has its own base address; the request's host picks the environment (spec §4 rule 1).
  // Local defaults need no DNS: sandbox on localhost, production on 127.0.0.1.
  SANDBOX_BASE_URL: url.default("http://localhost:3000"),
  PRODUCTION_BASE_URL: url.default("http://127.0.0.1:3000"),
  // Behind a reverse proxy: it names the host (X-Forwarded-Host) and the client's address (the last X-Forwarded-For
  // entry, lib/http/client-address.ts).
  TRUST_PROXY: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  AUTH_JWT_SECRET: z.string().min(32, "AUTH_JWT_SECRET must have at least 32 characters"),
  AUTH_JWT_ISSUER: z.string().trim().min(1).default("urn:credit-platform"),
  AUTH_JWT_AUDIENCE: z.string().trim().min(1).default("urn:credit-platform:api"),
  // Signs the panel's session cookies. Required in production (checked below; next-auth refuses to run without
  // it there); npm run dev generates one into .data/dev-secrets.json.
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  // The panel's public address (next-auth's callback base); panel writes must come from this origin or the
  // request's own.
  NEXTAUTH_URL: url.optional(),
  // How long an in-flight idempotent request holds its key before a retry may take over (its process died).
  IDEMPOTENCY_LEASE_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  RATE_LIMIT_SANDBOX_PER_MINUTE: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_PRODUCTION_PER_MINUTE: z.coerce.number().int().min(1).default(1000),
  // The real payroll-loan authority (production; the sandbox always uses the simulator). Unset URL: production
  // payroll calls answer 503 `authority_unavailable` (not configured). docs/payroll-authority-protocol.md.
  PAYROLL_AUTHORITY_URL: url.optional(),
  PAYROLL_AUTHORITY_CLIENT_ID: z.string().trim().min(1).optional(),
  PAYROLL_AUTHORITY_CLIENT_SECRET: z.string().min(1).optional(),
  // Client certificate (mTLS) and the CA that signed the authority's certificate: PEM file paths.
  PAYROLL_AUTHORITY_CERT_PATH: z.string().trim().min(1).optional(),
  PAYROLL_AUTHORITY_KEY_PATH: z.string().trim().min(1).optional(),
  PAYROLL_AUTHORITY_CA_PATH: z.string().trim().min(1).optional(),
  PAYROLL_AUTHORITY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  PAYROLL_AUTHORITY_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  // Consecutive failures that open the circuit, and how long it stays open before one trial call.
  PAYROLL_AUTHORITY_BREAKER_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  PAYROLL_AUTHORITY_BREAKER_OPEN_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Payment providers' notification secrets, per environment — a PSP's sandbox and production are two integrations with
  // two secrets, so a notification signed for one host is never accepted by the other (the same bank agreement may
  // number boletos alike in both): JSON {"sandbox": {"<provider>": "<secret, ≥ 32 characters>"}, "production": {…}}.
  // A flat {"<provider>": "<secret>"} (the form before environments) is production's. A provider not named for the
  // request's environment gets 404 on POST /v1/charges/notifications/{provider}.
  COLLECTION_PROVIDER_SECRETS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const none = { sandbox: {}, production: {} } as Record<"sandbox" | "production", Record<string, string>>;
      if (raw === undefined || raw.trim() === "") return none;
      const secrets = z.record(z.string().regex(/^[a-z0-9-]{1,40}$/), z.string().min(32));
      try {
        const parsed = JSON.parse(raw) as unknown;
        // Naming an environment at the top is the per-environment form (no provider is called "sandbox").
        if (parsed !== null && typeof parsed === "object" && ("sandbox" in parsed || "production" in parsed)) {
          const perEnvironment = z.strictObject({ sandbox: secrets.optional(), production: secrets.optional() }).parse(parsed);
          return { sandbox: perEnvironment.sandbox ?? {}, production: perEnvironment.production ?? {} };
        }
        return { ...none, production: secrets.parse(parsed) };
      } catch {
        ctx.addIssue({ code: "custom", message: 'Must be a JSON object {"sandbox": {"<provider>": "<secret of 32+ characters>"}, "production": {…}}' });
        return z.NEVER;
      }
    }),
  // Encrypts secrets at rest (webhook signing secrets; unsent e-mails, which hold invitation and reset links): 32
  // random bytes, base64 (`openssl rand -base64 32`). Unset: derived from AUTH_JWT_SECRET in development and tests;
  // required in production (checked below), so that rotating the token key never touches the sealed secrets.
  // Changing it makes stored secrets unreadable.
  WEBHOOK_SECRETS_KEY: z
    .string()
    .trim()
    .refine((v) => Buffer.from(v, "base64").length === 32, "Must be 32 bytes, base64 (openssl rand -base64 32)")
    .optional(),
  // Sandbox webhook endpoints may use http://localhost, 127.0.0.1 or [::1] (local development, tests). Never
  // production endpoints, and refused with NODE_ENV=production (checked below).
  WEBHOOKS_SANDBOX_ALLOW_LOOPBACK: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  // Per-attempt timeout of a webhook delivery, and how many deliveries one worker sends at once.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(10_000),
  WEBHOOK_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(50),
  // At most this many attempts in flight to one endpoint, across all workers: a receiver that hangs holds that many
  // slots (each until WEBHOOK_TIMEOUT_MS), never every worker's — below WEBHOOK_WORKER_CONCURRENCY, even one worker keeps
  // slots for every other endpoint. It also bounds one endpoint's throughput (bench/README.md: 20 → ≈ 690/s, 40 → ≈ 1,180/s).
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().min(1).max(500).default(40),
  // How long a worker holds a claimed attempt: after it, another worker takes over (the first one died). Must
  // exceed the timeout by a margin (checked below).
  WEBHOOK_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).default(60),
  // Days a finished webhook delivery (with its attempts: copies of the bodies sent, CPFs and incomes among them, and the
  // receivers' answers) is kept before the worker deletes it (LGPD: not longer than needed). Events themselves stay.
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // E-mail (invitation and password reset links): an SMTP server as a URL — smtp://user:pass@host:587 (STARTTLS when offered) or
  // smtps://user:pass@host:465 (TLS from the start). Unset: the platform sends no e-mail; the panel shows each link
  // for the owner to send. MAIL_FROM is the sender (an address, or "Name <address>").
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^\s]+$/, "Must be smtp://[user:pass@]host[:port] or smtps://…")
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(254).default("Credit Platform <no-reply@credit-platform.local>"),
  // Per-attempt timeout of an SMTP delivery (connection, greeting and each command).
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema>;

const CheckedEnvSchema = EnvSchema.superRefine((env, ctx) => {
  if (env.NODE_ENV === "production" && env.NEXTAUTH_SECRET === undefined) {
    ctx.addIssue({ code: "custom", path: ["NEXTAUTH_SECRET"], message: "Required in production: it signs the panel's session cookies (openssl rand -base64 32)" });
  }
  // next-auth marks the session cookie Secure (and names it __Secure-…) only when NEXTAUTH_URL is https; unset, it takes
  // http://localhost:3000 — behind a TLS-terminating proxy the panel's session then travels without Secure, sent on any
  // plain-http request to the host. Production names its public address; plain http only on a loopback host.
  // (A malformed URL has its own error from its field's check, and superRefine still runs after it: skipped here.)
  if (env.NODE_ENV === "production" && env.NEXTAUTH_URL === undefined) {
    ctx.addIssue({ code: "custom", path: ["NEXTAUTH_URL"], message: "Required in production: the panel's public https address (its session cookie is Secure only then)" });
  } else if (env.NODE_ENV === "production" && URL.canParse(env.NEXTAUTH_URL!)) {
    const panel = new URL(env.NEXTAUTH_URL!);
    if (panel.protocol !== "https:" && !["localhost", "127.0.0.1", "[::1]"].includes(panel.hostname)) {
      ctx.addIssue({ code: "custom", path: ["NEXTAUTH_URL"], message: "Must be https in production (http only on localhost): the panel's session cookie is Secure only then" });
    }
  }
  if (env.NODE_ENV === "production" && env.WEBHOOKS_SANDBOX_ALLOW_LOOPBACK) {
    // One deployment serves both environments: any sandbox key could point an endpoint at this host's own services
    // and read their answers in the delivery log.
    ctx.addIssue({ code: "custom", path: ["WEBHOOKS_SANDBOX_ALLOW_LOOPBACK"], message: "Not allowed in production: sandbox endpoints would reach this host's loopback services" });
  }
  if (env.NODE_ENV === "production" && env.WEBHOOK_SECRETS_KEY === undefined) {
    ctx.addIssue({ code: "custom", path: ["WEBHOOK_SECRETS_KEY"], message: "Required in production: it seals webhook signing secrets and unsent e-mails at rest (openssl rand -base64 32)" });
  }
  // The request's host picks the environment (lib/api/environment.ts): with one host for both, every request would be
  // taken for a production one (the later entry of the host table wins) and the sandbox could not be reached at all.
  const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host.toLowerCase() : url);
  if (hostOf(env.SANDBOX_BASE_URL) === hostOf(env.PRODUCTION_BASE_URL)) {
    ctx.addIssue({
      code: "custom",
      path: ["PRODUCTION_BASE_URL"],
      message: "Must use another host[:port] than SANDBOX_BASE_URL: the request's host picks the environment",
    });
  }
  // An idempotent request runs in one transaction limited by the lease (lib/api/route.ts): a payroll call inside it
  // (a reservation, an averbação) must be able to use all its attempts, or the transaction ends after the authority acted.
  const authorityBudgetMs = authorityCallBudgetMs(env) + 1000; // and a second for the request's own statements
  if (env.IDEMPOTENCY_LEASE_SECONDS * 1000 < authorityBudgetMs) {
    ctx.addIssue({
      code: "custom",
      path: ["IDEMPOTENCY_LEASE_SECONDS"],
      message: `Must be at least ${Math.ceil(authorityBudgetMs / 1000)} with these PAYROLL_AUTHORITY_TIMEOUT_MS and PAYROLL_AUTHORITY_MAX_RETRIES: a request's transaction must outlive its payroll authority call`,
    });
  }
  if (env.WEBHOOK_LEASE_SECONDS * 1000 < env.WEBHOOK_TIMEOUT_MS + 1000) {
    ctx.addIssue({ code: "custom", path: ["WEBHOOK_LEASE_SECONDS"], message: "Must exceed WEBHOOK_TIMEOUT_MS by at least a second" });
  }
});

let cached: Env | undefined;

/** The configuration in `source`, or an error naming every variable that is wrong. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = CheckedEnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}

export function getEnv(): Env {
  return (cached ??= parseEnv(process.env));
}

