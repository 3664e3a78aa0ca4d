"use client";

import { useState } from "react";

// Revocation asks for confirmation: it cannot be undone and the integration stops at once.
export function RevokeButton({ name, onConfirm, pending }: { name: string; onConfirm: () => void; pending: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} className="text-sm text-red-700 underline">
        Revoke
      </button>
    );
  }
  return (
    <span role="alertdialog" aria-label={`Revoke ${name}?`} className="flex items-center gap-2 text-sm">
      <span>Revoke “{name}”? This cannot be undone.</span>
      <button type="button" onClick={() => setAsking(false)} className="underline">Cancel</button>
      <button type="button" disabled={pending} onClick={onConfirm} className="rounded bg-red-700 px-2 py-1 text-white disabled:opacity-50">
        Confirm revoke
      </button>
    </span>
  );
}
