"use client";

import { useTranslations } from "next-intl";

// Display names of the API's status and product codes in the panel's language; a code without a name shows as is
// (a status added to the API before its translation is still readable, never a missing-message error).
export function useCodeLabels() {
  const statuses = useTranslations("Statuses");
  const products = useTranslations("Products");
  const codes = useTranslations("Codes");
  // Message keys cannot hold dots (next-intl's path separator): an event type's dots are stored as "__".
  const key = (code: string) => code.replace(/\./g, "__");
  return {
    status: (code: string) => (statuses.has(code as never) ? statuses(code as never) : code),
    product: (code: string) => (products.has(code as never) ? products(code as never) : code),
    /** Any other code the API answers — a risk decision, a customer's kind, a payment's source, a settlement's type, an
     *  event type. */
    code: (code: string) => (codes.has(key(code) as never) ? codes(key(code) as never) : code),
  };
}
