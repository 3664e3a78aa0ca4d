"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { localizedPanelMessages, setPanelMessages } from "@/components/credentials/panel-fetch";

export function Providers({ children }: { children: ReactNode }) {
  // networkMode "always": offline, a request fails at once with panelFetch's "could not be reached" message instead of
  // TanStack Query pausing it until the browser says it is online again (a form that seemed to hang).
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry: 1, networkMode: "always" }, mutations: { networkMode: "always" } } }),
  );
  usePanelMessages();
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

// panelFetch's failures in the panel's language (components/credentials/panel-fetch.ts). Registered while rendering,
// before any child can have started a request, and again when the language changes.
function usePanelMessages(): void {
  const t = useTranslations("Errors");
  const locale = useLocale();
  const [registered, setRegistered] = useState<string | null>(null);
  if (registered !== locale) {
    const translate = t as unknown as (key: string, values?: Record<string, string | number>) => string;
    setPanelMessages(localizedPanelMessages(locale, translate, (key) => t.has(key as Parameters<typeof t.has>[0])));
    setRegistered(locale);
  }
}
