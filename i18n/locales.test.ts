import { describe, expect, it } from "vitest";
import { negotiateLocale } from "./locales";

describe("the panel's language", () => {
  it("is the cookie's when valid, else the browser's first Portuguese or English, else pt-BR", () => {
    expect(negotiateLocale("en", "pt-BR")).toBe("en");
    expect(negotiateLocale("pt-BR", "en-US")).toBe("pt-BR");
    expect(negotiateLocale("fr", "en-US,en;q=0.9")).toBe("en");
    expect(negotiateLocale(undefined, "pt-BR,pt;q=0.9,en;q=0.8")).toBe("pt-BR");
    expect(negotiateLocale(undefined, "en-US,en;q=0.9")).toBe("en");
    expect(negotiateLocale(undefined, "de-DE,en;q=0.5,pt;q=0.8")).toBe("pt-BR");
    expect(negotiateLocale(undefined, "de-DE,fr;q=0.9")).toBe("pt-BR");
    expect(negotiateLocale(undefined, null)).toBe("pt-BR");
    expect(negotiateLocale(undefined, "en;q=0,pt;q=0.1")).toBe("pt-BR");
  });
});

describe("the message files", () => {
  const keys = (node: unknown, prefix = ""): string[] =>
    typeof node === "object" && node !== null
      ? Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
      : [prefix];
  it("have the same keys in pt-BR and English, none empty", async () => {
    const en = (await import("../messages/en.json")).default;
    const pt = (await import("../messages/pt-BR.json")).default;
    expect(keys(pt).sort()).toEqual(keys(en).sort());
    const empty = (node: unknown): boolean => (typeof node === "string" ? node.trim() === "" : Object.values(node as object).some(empty));
    expect(empty(en) || empty(pt)).toBe(false);
  });
});
