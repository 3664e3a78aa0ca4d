// Every /v1 path and the methods it answers, for the /v1 gate (lib/api/v1-gate.ts, run by the app's server in
// front of Next, lib/http/edge-server.ts), which answers what the route modules cannot: 405 with `Allow` for
// any method a path does not have (TRACE included), 404 for unknown paths (bare /v1 included) and 400 for a
// malformed URL — all problem+json. Kept as plain data so the server module stays small;
// tests/platform/route-table.test.ts fails when it disagrees with the operations (lib/api/operations).

export const ROUTE_TABLE: Readonly<Record<string, readonly string[]>> = {
  "/v1/assignments": ["GET", "POST"],
  "/v1/assignments/{id}": ["GET"],
  "/v1/assignments/{id}/contracts": ["GET"],
  "/v1/assignments/{id}/buyback": ["POST"],
  "/v1/assignments/{id}/cancel": ["POST"],
  "/v1/assignments/{id}/decline": ["POST"],
  "/v1/assignments/{id}/settle": ["POST"],
  "/v1/auth/token": ["POST"],
  "/v1/charges": ["GET", "POST"],
  "/v1/charges/{id}": ["GET"],
  "/v1/charges/{id}/cancel": ["POST"],
  "/v1/charges/notifications/{provider}": ["POST"],
  "/v1/clients": ["GET"],
  "/v1/collection-account": ["GET", "PUT"],
  "/v1/clients/{id}": ["GET"],
  "/v1/contracts": ["GET", "POST"],
  "/v1/contracts/{id}": ["GET"],
  "/v1/contracts/{id}/payoff-quote": ["GET"],
  "/v1/contracts/{id}/cancel": ["POST"],
  "/v1/contracts/{id}/write-off": ["POST"],
  "/v1/contracts/{id}/installments": ["GET"],
  "/v1/customers": ["GET", "POST"],
  "/v1/customers/{id}": ["GET", "PATCH", "DELETE"],
  "/v1/events": ["GET"],
  "/v1/events/{id}": ["GET"],
  "/v1/health": ["GET"],
  "/v1/installments": ["GET"],
  "/v1/installments/{id}": ["GET"],
  "/v1/openapi.json": ["GET"],
  "/v1/payments": ["GET"],
  "/v1/payments/{id}": ["GET"],
  "/v1/payroll/endorsements": ["GET", "POST"],
  "/v1/payroll/endorsements/{id}": ["GET"],
  "/v1/payroll/margin-queries": ["GET", "POST"],
  "/v1/payroll/margin-queries/{id}": ["GET"],
  "/v1/payroll/margin-reservations": ["GET", "POST"],
  "/v1/payroll/margin-reservations/{id}": ["GET"],
  "/v1/payroll/margin-reservations/{id}/cancel": ["POST"],
  "/v1/proposals": ["GET", "POST"],
  "/v1/proposals/{id}": ["GET"],
  "/v1/proposals/{id}/approve": ["POST"],
  "/v1/proposals/{id}/cancel": ["POST"],
  "/v1/proposals/{id}/reject": ["POST"],
  "/v1/proposals/{id}/sign": ["POST"],
  "/v1/proposals/{id}/submit": ["POST"],
  "/v1/refunds": ["GET", "POST"],
  "/v1/refunds/{id}": ["GET"],
  "/v1/risk-assessments": ["GET", "POST"],
  "/v1/risk-assessments/{id}": ["GET"],
  "/v1/sandbox/charges/{id}/pay": ["POST"],
  "/v1/sandbox/repasse": ["POST"],
  "/v1/settlements": ["GET", "POST"],
  "/v1/settlements/batch": ["POST"],
  "/v1/settlements/batch/{id}": ["GET"],
  "/v1/settlements/{id}": ["GET"],
  "/v1/settlements/{id}/cancel": ["POST"],
  "/v1/simulations": ["GET", "POST"],
  "/v1/simulations/{id}": ["GET"],
  "/v1/webhook-deliveries": ["GET"],
  "/v1/webhook-deliveries/{id}": ["GET"],
  "/v1/webhook-deliveries/{id}/resend": ["POST"],
  "/v1/webhook-endpoints": ["GET", "POST"],
  "/v1/webhook-endpoints/{id}": ["DELETE", "GET", "PATCH"],
  "/v1/webhook-endpoints/{id}/recover": ["POST"],
  "/v1/webhook-endpoints/{id}/rotate-secret": ["POST"],
  "/v1/webhook-endpoints/{id}/test": ["POST"],
};

const COMPILED = Object.entries(ROUTE_TABLE).map(([template, methods]) => ({
  pattern: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  methods,
}));

/** The methods a /v1 path answers (HEAD wherever GET is, OPTIONS everywhere), or null for an unknown path. */
export function allowedMethods(pathname: string): string[] | null {
  const route = COMPILED.find((r) => r.pattern.test(pathname));
  if (!route) return null;
  return [...route.methods, ...(route.methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
}
