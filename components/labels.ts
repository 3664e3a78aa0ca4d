"use client";

import { useTranslations } from "next-intl";

// Display names of the API's status and product codes in the panel's language; a code without a name shows as is
// (a status added to the API before its translation is still readable, never a missing-message error).
export function useCodeLabels() {
  const statuses = useTranslations("Statuses");
  const products = useTranslations("Products");
  return {
    status: (code: string) => (statuses.has(code as never) ? statuses(code as never) : code),
    product: (code: string) => (products.has(code as never) ? products(code as never) : code),
  };
}
