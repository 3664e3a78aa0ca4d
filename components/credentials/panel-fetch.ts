// fetch for the panel's JSON endpoints: throws the problem's detail (and its field errors) so forms can show them;
// a request the network never answers fails after PANEL_FETCH_TIMEOUT_MS with a message saying so, instead of
// hanging; an expired session (401) goes back to the sign-in page.
export class PanelError extends Error {
  constructor(message: string, readonly errors: { param: string; message: string }[] = []) {
    super(message);
  }
}

export const PANEL_FETCH_TIMEOUT_MS = 20_000;

export async function panelFetch<T>(url: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(PANEL_FETCH_TIMEOUT_MS),
    });
  } catch {
    throw new PanelError("The platform could not be reached: check your connection and try again.");
  }
  if (response.status === 401 && typeof window !== "undefined") {
    // A full load on purpose (not the router): nothing of the expired session's screens and cache survives it.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign("/login?expired=1");
    throw new PanelError("Your session has expired: sign in again.");
  }
  const data = (await response.json().catch(() => null)) as (T & { detail?: string; errors?: { param: string; message: string }[] }) | null;
  if (!response.ok) throw new PanelError(data?.detail ?? `Request failed (${response.status})`, data?.errors);
  return data as T;
}
