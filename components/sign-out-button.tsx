"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { panelFetch, PanelError } from "./credentials/panel-fetch";

/** Ends the session on the server first (POST /api/panel/session/end), then clears the cookie: when the server cannot
 *  record it (503), nothing is cleared and the user is told — signed out only in this browser, a copy of the cookie
 *  would keep working. */
/** `failed`: the message shown when it could not, with `{reason}` where the server's problem goes. */
export function SignOutButton({ label, failed }: { label: string; failed: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function signOutEverywhere() {
    setBusy(true);
    setError(null);
    try {
      await panelFetch("/api/panel/session/end", { method: "POST", body: {} });
      await signOut({ callbackUrl: "/login" });
    } catch (err) {
      setError(failed.replace("{reason}", err instanceof PanelError ? err.message : String(err)));
      setBusy(false);
    }
  }
  return (
    <>
      <button type="button" onClick={() => void signOutEverywhere()} disabled={busy} className="text-slate-700 underline disabled:opacity-60">
        {label}
      </button>
      {error && (
        <p role="alert" className="mt-1 text-red-700">
          {error}
        </p>
      )}
    </>
  );
}
