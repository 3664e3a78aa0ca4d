import { describe, expect, it } from "vitest";
import { grants, normalizePermissions, splitScopes } from "./permissions";
import { resolveScopes } from "./tokens";

describe("permissions", () => {
  it("coarse read/write grant every resource's action, never the other action", () => {
    expect(grants(["read"], "customers:read")).toBe(true);
    expect(grants(["read"], "customers:write")).toBe(false);
    expect(grants(["write"], "proposals:write")).toBe(true);
    expect(grants(["write"], "proposals:read")).toBe(false);
    expect(grants(["customers:write"], "customers:write")).toBe(true);
    expect(grants(["customers:write"], "contracts:write")).toBe(false);
    expect(grants(["read", "write"], "proposals:review")).toBe(false);
    expect(grants(["proposals:review"], "proposals:review")).toBe(true);
  });

  it("normalizes and rejects unknown names", () => {
    expect(normalizePermissions(["write", "read", "read", "customers:read"])).toEqual(["customers:read", "read", "write"]);
    expect(() => normalizePermissions(["admin"])).toThrow("Unknown permissions: admin");
    expect(splitScopes(" read,write  customers:read ")).toEqual(["read", "write", "customers:read"]);
  });

  it("resolves OAuth scopes: default all, narrowing allowed, widening refused", () => {
    expect(resolveScopes(["read", "write"], undefined)).toEqual(["read", "write"]);
    expect(resolveScopes(["read"], "customers:read")).toEqual(["customers:read"]);
    expect(() => resolveScopes(["read"], "write")).toThrow("Scope not allowed for this client: write");
    expect(() => resolveScopes(["read"], "read admin")).toThrow("Scope not allowed for this client: admin");
  });
});
