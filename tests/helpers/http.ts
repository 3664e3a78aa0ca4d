import type { RouteHandler } from "@/lib/api/route";

// Calls a route handler the way Next does: a real Request (host picks the environment) and route params.
export const SANDBOX = "http://localhost:3000";
export const PRODUCTION = "http://127.0.0.1:3000";

export type CallOptions = {
  base?: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  rawBody?: string;
  params?: Record<string, string>;
};

// Tests read arbitrary response JSON; `any` keeps assertions short (every body is asserted in full).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CallResult = { status: number; headers: Headers; body: any; text: string };

export async function call(handler: RouteHandler, options: CallOptions): Promise<CallResult> {
  const headers = new Headers(options.headers);
  let body: string | undefined = options.rawBody;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  const request = new Request(`${options.base ?? SANDBOX}${options.path}`, {
    method: options.method ?? handler.operation.method,
    headers,
    body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export const bearer = (token: string, tenantId: string) => ({ authorization: `Bearer ${token}`, "x-tenant-id": tenantId });
