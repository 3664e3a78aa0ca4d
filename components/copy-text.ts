"use client";

/**
 * Puts a text on the clipboard; false when it could not (no clipboard: a panel served over plain http; or the browser
 * refused, e.g. the tab lost focus). Callers say "copied" only on true — a once-only secret believed copied is lost.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Selects an element's text, for the person to copy by hand when copyText could not. */
export function selectText(element: Element | null): void {
  if (!element) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
