// How long one call to the payroll authority may take at most, retries included: every attempt's timeout and the
// longest wait between two attempts. A transaction that calls the authority must outlive it (the request's
// transaction: IDEMPOTENCY_LEASE_SECONDS, checked by lib/env.ts; the others: ./index.ts).

/** The longest single wait between two attempts (a 429's Retry-After included), unless the client's options say less. */
export const MAX_RETRY_DELAY_MS = 5000;

export function authorityCallBudgetMs(settings: { PAYROLL_AUTHORITY_TIMEOUT_MS: number; PAYROLL_AUTHORITY_MAX_RETRIES: number }): number {
  const attempts = settings.PAYROLL_AUTHORITY_MAX_RETRIES + 1;
  return settings.PAYROLL_AUTHORITY_TIMEOUT_MS * attempts + MAX_RETRY_DELAY_MS * settings.PAYROLL_AUTHORITY_MAX_RETRIES;
}
