import { afterEach, describe, expect, it, vi } from "vitest";
import en from "@/messages/en.json";
import pt from "@/messages/pt-BR.json";
import { localizedPanelMessages, panelFetch, PanelError, setPanelMessages, setScreenTenant } from "./panel-fetch";

// panelFetch's failures in the panel's language: the network, and a problem by its code (in pt-BR), or the server's
// detail (in English, and for codes without a message of their own).

type Errors = typeof en.Errors;
const translator = (errors: Errors) => {
  const lookup = (key: string): string | undefined =>
    key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], errors) as string | undefined;
  return {
    t: (key: string, values: Record<string, string | number> = {}) => lookup(key)!.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name])),
    has: (key: string) => typeof lookup(key) === "string",
  };
};
const use = (locale: "en" | "pt-BR") => {
  const { t, has } = translator(locale === "en" ? en.Errors : pt.Errors);
  setPanelMessages(localizedPanelMessages(locale, t, has));
};
const answer = (status: number, body: unknown) =>
  vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/problem+json" } }));

afterEach(() => vi.restoreAllMocks());

describe("panelFetch's messages", () => {
  const notFound = { code: "not_found", status: 404, detail: "Webhook endpoint not found", errors: [] };

  it("in pt-BR, a problem says its code's message and keeps code, status and field errors", async () => {
    use("pt-BR");
    answer(404, notFound);
    const error = await panelFetch("/api/panel/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PanelError);
    expect(error).toMatchObject({ message: pt.Errors.codes.not_found, code: "not_found", status: 404, errors: [] });
  });

  it("in English, the server's detail; a code without its own message falls back to the detail, then the status", async () => {
    use("en");
    answer(404, notFound);
    await expect(panelFetch("/x")).rejects.toMatchObject({ message: "Webhook endpoint not found" });
    use("pt-BR");
    answer(422, { code: "insufficient_margin", status: 422, detail: "The margin does not cover it" });
    await expect(panelFetch("/x")).rejects.toMatchObject({ message: "The margin does not cover it", code: "insufficient_margin" });
    vi.restoreAllMocks();
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("<html>bad gateway</html>", { status: 502 }));
    await expect(panelFetch("/x")).rejects.toMatchObject({ message: "A solicitação falhou (502).", status: 502 });
  });

  it("says the platform could not be reached when the network fails", async () => {
    use("pt-BR");
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("Failed to fetch"));
    await expect(panelFetch("/x")).rejects.toMatchObject({ message: pt.Errors.unreachable, code: undefined });
    use("en");
    await expect(panelFetch("/x")).rejects.toMatchObject({ message: en.Errors.unreachable });
  });

  it("names the tenant the page shows on every request, once the frame has said it", async () => {
    const sent = answer(200, { ok: true });
    setScreenTenant("ten_01JDSCREENTENANT000000000");
    await panelFetch("/api/panel/x");
    await panelFetch("/api/panel/y", { method: "POST", body: { a: 1 } });
    const headers = sent.mock.calls.map(([, init]) => (init as RequestInit).headers);
    expect(headers).toEqual([{ "x-panel-tenant": "ten_01JDSCREENTENANT000000000" }, { "content-type": "application/json", "x-panel-tenant": "ten_01JDSCREENTENANT000000000" }]);
  });
});
