"use client";

import { setScreenTenant } from "./credentials/panel-fetch";

// Tells panelFetch which tenant this page shows, as the frame renders (before any of its screens fetch): see
// components/credentials/panel-fetch.ts and lib/panel/screen-tenant-header.ts.
export function ScreenTenant({ id }: { id: string }) {
  setScreenTenant(id);
  return null;
}
