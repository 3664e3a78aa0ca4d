import { SCREEN_TENANT_HEADER } from "@/lib/panel/screen-tenant-header";

// fetch for the panel's JSON endpoints: throws the problem's message (and its field errors) so forms can show them;
// a request the network never answers fails after PANEL_FETCH_TIMEOUT_MS with a message saying so, instead of
// hanging; an expired session (401) goes back to the sign-in page.
//
// The messages are in the panel's language: app/providers.tsx registers them (setPanelMessages) from next-intl's
// `Errors` messages. In English a problem shows the server's `detail` (the most specific words there are); in pt-BR
// its code's message, since the API's own texts are English. The field errors beside the fields come from the panel's
// endpoints already in the panel's language (lib/panel/field-messages-pt-br.ts).
export class PanelError extends Error {
  constructor(
    message: string,
    readonly errors: { param: string; message: string }[] = [],
    /** The problem's `code` (e.g. `not_found`); undefined for a network failure. */
    readonly code?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export type PanelMessages = {
  unreachable: string;
  sessionExpired: string;
  problem: (problem: { code?: string; detail?: string; status: number }) => string;
};

let messages: PanelMessages = {
  unreachable: "The platform could not be reached: check your connection and try again.",
  sessionExpired: "Your session has expired: sign in again.",
  problem: ({ detail, status }) => detail ?? `The request failed (${status}).`,
};

export function setPanelMessages(next: PanelMessages): void {
  messages = next;
}

/** The messages for `locale` from next-intl's `Errors` namespace (`t`, `has`: its translator for that namespace). */
export function localizedPanelMessages(
  locale: string,
  t: (key: string, values?: Record<string, string | number>) => string,
  has: (key: string) => boolean,
): PanelMessages {
  return {
    unreachable: t("unreachable"),
    sessionExpired: t("sessionExpired"),
    problem: ({ code, detail, status }) => {
      if (locale === "en" && detail) return detail;
      if (code && has(`codes.${code}`)) return t(`codes.${code}`);
      return detail ?? t("requestFailed", { status });
    },
  };
}

export const PANEL_FETCH_TIMEOUT_MS = 20_000;

// The tenant this page shows (set by the panel's frame when it renders, components/screen-tenant.tsx), sent with every
// request: the server refuses one from a page whose tenant is no longer the active one (another tab switched it; 409
// `tenant_changed`), and the page reloads to show the active tenant.
let screenTenant: string | null = null;

export function setScreenTenant(tenantId: string): void {
  screenTenant = tenantId;
}

/** `idempotencyKey`: for the panel's creating POSTs (components/idempotency-keys.ts), sent as Idempotency-Key. */
export async function panelFetch<T>(url: string, init: { method?: string; body?: unknown; idempotencyKey?: string } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...(screenTenant === null ? {} : { [SCREEN_TENANT_HEADER]: screenTenant }),
        ...(init.idempotencyKey === undefined ? {} : { "idempotency-key": init.idempotencyKey }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(PANEL_FETCH_TIMEOUT_MS),
    });
  } catch {
    throw new PanelError(messages.unreachable);
  }
  if (response.status === 401 && typeof window !== "undefined") {
    // A full load on purpose (not the router): nothing of the expired session's screens and cache survives it.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign("/login?expired=1");
    throw new PanelError(messages.sessionExpired, [], "authentication_required", 401);
  }
  const data = (await response.json().catch(() => null)) as (T & { code?: string; detail?: string; errors?: { param: string; message: string }[] }) | null;
  if (response.status === 409 && data?.code === "tenant_changed" && typeof window !== "undefined") {
    window.location.reload(); // nothing of the previous tenant's screen survives: the frame renders the active one
  }
  if (!response.ok) {
    const problem = { code: data?.code, detail: data?.detail, status: response.status };
    throw new PanelError(messages.problem(problem), data?.errors, data?.code, response.status);
  }
  return data as T;
}
