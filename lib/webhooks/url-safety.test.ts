import { describe, expect, it } from "vitest";
import { checkWebhookUrl, checkWebhookUrlWithin, type Resolve } from "./url-safety";

// SSRF: literal addresses in every form, hostnames resolving to private addresses (a fake resolver: no network),
// IPv6, schemes and credentials, the sandbox's loopback switch.

const table: Record<string, string[]> = {
  "hooks.example.com": ["93.184.216.34"],
  "dual.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "internal.example.com": ["10.1.2.3"],
  "mixed.example.com": ["93.184.216.34", "192.168.0.10"],
  "rebind.example.com": ["169.254.169.254"],
  "v6local.example.com": ["fd00:ec2::254"],
};
const resolve: Resolve = async (host) => {
  const found = table[host];
  if (!found) throw new Error("ENOTFOUND");
  return found;
};
const production = { environment: "production" as const, allowLoopback: false, resolve };
const check = (url: string, options = production) => checkWebhookUrl(url, options);

describe("webhook URL safety", () => {
  it("accepts https URLs whose every address is public unicast (v4 and v6)", async () => {
    expect(await check("https://hooks.example.com/credit/events?x=1")).toMatchObject({ ok: true, addresses: ["93.184.216.34"] });
    expect(await check("https://dual.example.com:8443/h")).toMatchObject({ ok: true, addresses: table["dual.example.com"] });
    expect(await check("https://93.184.216.34/h")).toMatchObject({ ok: true });
    expect(await check("https://[2606:2800:220:1:248:1893:25c8:1946]/h")).toMatchObject({ ok: true });
  });

  it.each([
    ["https://127.0.0.1/h", "loopback"],
    ["https://10.0.0.1/h", "private"],
    ["https://172.16.5.4/h", "private"],
    ["https://192.168.1.1/h", "private"],
    ["https://100.64.0.1/h", "carrierGradeNat"],
    ["https://169.254.169.254/latest/meta-data", "linkLocal"],
    ["https://0.0.0.0/h", "unspecified"],
    ["https://224.0.0.1/h", "multicast"],
    ["https://255.255.255.255/h", "broadcast"],
    ["https://[::1]/h", "loopback"],
    ["https://[fe80::1]/h", "linkLocal"],
    ["https://[fc00::1]/h", "uniqueLocal"],
    ["https://[::ffff:127.0.0.1]/h", "loopback"],
    ["https://[::ffff:7f00:1]/h", "loopback"],
    ["https://[::7f00:1]/h", "ipv4Compatible"], // IPv4-compatible (deprecated ::/96): ipaddr.js says unicast
    ["https://[::a9fe:a9fe]/h", "ipv4Compatible"],
    ["https://2130706433/h", "loopback"], // decimal 127.0.0.1
    ["https://0177.0.0.1/h", "loopback"], // octal
    ["https://0x7f000001/h", "loopback"], // hex
    ["https://0x0a.0.0.1/h", "private"],
    ["https://internal.example.com/h", "private"],
    ["https://mixed.example.com/h", "private"],
    ["https://rebind.example.com/h", "linkLocal"],
    ["https://v6local.example.com/h", "uniqueLocal"],
  ])("refuses %s (%s)", async (url, range) => {
    const result = await check(url);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(new RegExp(`a ${range} address`));
  });

  it("refuses http in production, credentials, fragments, other schemes, unresolvable hosts and garbage", async () => {
    expect(await check("http://hooks.example.com/h")).toEqual({ ok: false, reason: "Webhook URLs must use https" });
    expect(await check("https://user:pass@hooks.example.com/h")).toEqual({ ok: false, reason: "The URL must not carry credentials" });
    expect(await check("https://hooks.example.com/h#x")).toEqual({ ok: false, reason: "The URL must not have a fragment" });
    expect((await check("ftp://hooks.example.com/h")).ok).toBe(false);
    expect(await check("https://nowhere.example.com/h")).toEqual({ ok: false, reason: "The host nowhere.example.com does not resolve" });
    expect(await check("not a url")).toEqual({ ok: false, reason: "Not an absolute URL" });
  });

  it("the sandbox's loopback switch admits http(s) to localhost, 127.0.0.1 and [::1] only — never in production", async () => {
    const sandbox = { environment: "sandbox" as const, allowLoopback: true, resolve: async () => ["127.0.0.1"] };
    for (const url of ["http://localhost:4010/h", "http://127.0.0.1:4010/h", "http://[::1]:4010/h", "https://localhost/h"]) {
      expect((await checkWebhookUrl(url, sandbox)).ok, url).toBe(true);
    }
    expect((await checkWebhookUrl("http://10.0.0.1/h", sandbox)).ok).toBe(false);
    expect((await checkWebhookUrl("http://localhost:4010/h", { ...sandbox, allowLoopback: false })).ok).toBe(false);
    expect((await checkWebhookUrl("http://localhost:4010/h", { ...sandbox, environment: "production" })).ok).toBe(false);
  });
});

describe("webhook URL safety with a deadline", () => {
  it("gives up on a name server that does not answer within the deadline", async () => {
    const stalled: Resolve = () => new Promise<string[]>(() => undefined);
    expect(await checkWebhookUrlWithin("https://hooks.example.com/x", { ...production, resolve: stalled, timeoutMs: 50 })).toEqual({
      ok: false,
      reason: "The address did not resolve within 50 ms",
      stalled: true,
    });
  });

  it("otherwise answers as the check does", async () => {
    expect(await checkWebhookUrlWithin("https://dual.example.com/h", { ...production, timeoutMs: 1_000 })).toMatchObject({ ok: true, addresses: table["dual.example.com"] });
    expect(await checkWebhookUrlWithin("https://internal.example.com/h", { ...production, timeoutMs: 1_000 })).toEqual({
      ok: false,
      reason: "internal.example.com resolves to 10.1.2.3, a private address: only public addresses receive webhooks",
    });
  });
});
