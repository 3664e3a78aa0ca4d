import { describe, expect, it } from "vitest";
import { checkSameOrigin } from "./same-origin";

const PANEL = ["http://localhost:3000"];
const verdict = (headers: Record<string, string>) => checkSameOrigin(new Headers(headers), PANEL);

describe("checkSameOrigin", () => {
  it("accepts the panel's own origin and same-origin fetches", () => {
    expect(verdict({ origin: "http://localhost:3000", "sec-fetch-site": "same-origin" })).toEqual({ ok: true });
    expect(verdict({ origin: "http://localhost:3000" })).toEqual({ ok: true });
    expect(verdict({ "sec-fetch-site": "none" })).toEqual({ ok: true });
  });
  it("accepts requests that carry neither header (not from a browser: no victim's cookie)", () => {
    expect(verdict({})).toEqual({ ok: true });
  });
  it("refuses other origins and cross-site or same-site fetches", () => {
    expect(verdict({ origin: "https://evil.example" })).toEqual({ ok: false, reason: "Origin https://evil.example is not the panel's" });
    expect(verdict({ origin: "http://localhost:3001" })).toEqual({ ok: false, reason: "Origin http://localhost:3001 is not the panel's" });
    expect(verdict({ origin: "null" })).toEqual({ ok: false, reason: "Origin null is not the panel's" });
    expect(verdict({ "sec-fetch-site": "cross-site", origin: "http://localhost:3000" })).toEqual({ ok: false, reason: "Sec-Fetch-Site is cross-site" });
    expect(verdict({ "sec-fetch-site": "same-site" })).toEqual({ ok: false, reason: "Sec-Fetch-Site is same-site" });
  });
});
