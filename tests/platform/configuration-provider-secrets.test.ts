import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

const BASE = { DATABASE_URL: "postgresql://app@db.internal/credit", AUTH_JWT_SECRET: "a".repeat(32) };
const SECRET = "s".repeat(32);

// Payment providers' notification secrets are per environment: a notification signed for the sandbox is never taken
// on the production address (lib/collection/notifications.ts verifyProvider).
describe("configuration: COLLECTION_PROVIDER_SECRETS", () => {
  it("reads one object per environment; a flat object is production's; none is none", () => {
    const perEnvironment = { sandbox: { "acme-bank": SECRET }, production: { "acme-bank": "p".repeat(32), "beta-pay": "b".repeat(40) } };
    expect(parseEnv({ ...BASE, COLLECTION_PROVIDER_SECRETS: JSON.stringify(perEnvironment) }).COLLECTION_PROVIDER_SECRETS).toEqual(perEnvironment);
    expect(parseEnv({ ...BASE, COLLECTION_PROVIDER_SECRETS: JSON.stringify({ sandbox: { "acme-bank": SECRET } }) }).COLLECTION_PROVIDER_SECRETS).toEqual({ sandbox: { "acme-bank": SECRET }, production: {} });
    expect(parseEnv({ ...BASE, COLLECTION_PROVIDER_SECRETS: JSON.stringify({ "acme-bank": SECRET }) }).COLLECTION_PROVIDER_SECRETS).toEqual({ sandbox: {}, production: { "acme-bank": SECRET } });
    expect(parseEnv(BASE).COLLECTION_PROVIDER_SECRETS).toEqual({ sandbox: {}, production: {} });
  });

  it("refuses short secrets, bad provider names and anything else", () => {
    const message = 'COLLECTION_PROVIDER_SECRETS: Must be a JSON object {"sandbox": {"<provider>": "<secret of 32+ characters>"}, "production": {…}}';
    for (const bad of [JSON.stringify({ sandbox: { "acme-bank": "short" } }), JSON.stringify({ "Acme Bank": SECRET }), "not json", JSON.stringify({ sandbox: SECRET })]) {
      expect(() => parseEnv({ ...BASE, COLLECTION_PROVIDER_SECRETS: bad }), bad).toThrow(message);
    }
  });
});
