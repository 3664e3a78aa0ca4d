"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

export function Providers({ children }: { children: ReactNode }) {
  // networkMode "always": offline, a request fails at once with panelFetch's "could not be reached" message instead of
  // TanStack Query pausing it until the browser says it is online again (a form that seemed to hang).
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry: 1, networkMode: "always" }, mutations: { networkMode: "always" } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
