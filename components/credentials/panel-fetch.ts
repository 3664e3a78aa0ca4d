// fetch for the panel's JSON endpoints: throws the problem's detail so forms can show it.
export class PanelError extends Error {
  constructor(message: string, readonly errors: { param: string; message: string }[] = []) {
    super(message);
  }
}

export async function panelFetch<T>(url: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const data = (await response.json().catch(() => null)) as (T & { detail?: string; errors?: { param: string; message: string }[] }) | null;
  if (!response.ok) throw new PanelError(data?.detail ?? `Request failed (${response.status})`, data?.errors);
  return data as T;
}
