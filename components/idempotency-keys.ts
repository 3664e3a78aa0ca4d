"use client";

import { useRef } from "react";

/**
 * Idempotency keys for a form that creates something (lib/panel/panel-idempotency.ts): the same submission sent again
 * — a click after the answer was lost or the panel gave up waiting — carries the same key and gets the first answer;
 * a changed submission, or one after `settled()` (call it when the first succeeded), gets a new key; a refused one
 * left nothing behind and may keep its key. From
 * crypto.getRandomValues, which (unlike randomUUID) also works on a panel served over plain http.
 */
export function useIdempotencyKeys(): { keyFor: (body: unknown) => string; settled: () => void } {
  const last = useRef<{ body: string; key: string } | null>(null);
  return {
    keyFor(body) {
      const text = JSON.stringify(body);
      if (last.current?.body !== text) last.current = { body: text, key: newKey() };
      return last.current.key;
    },
    settled() {
      last.current = null;
    },
  };
}

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `panel_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
