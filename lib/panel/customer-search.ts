import { db } from "@/lib/db/client";
import { where, type Scope } from "@/lib/scope";

// The panel's search box over customers, shared by the proposal, contract and customer screens: a CPF or CNPJ
// (formatted or not) matches the document exactly; anything else is a case-insensitive part of the name.

/** The normalized document a search text is, or null. */
export function documentIn(text: string): string | null {
  const digits = text.replace(/[.\-/\s]/g, "").toUpperCase();
  return /^\d{11}$/.test(digits) || /^[0-9A-Z]{12}\d{2}$/.test(digits) ? digits : null;
}

/** Ids of the scope's customers the text finds (at most 1,000). */
export async function customerIdsMatching(scope: Scope, text: string): Promise<string[]> {
  const document = documentIn(text);
  const customers = await db().customer.findMany({
    where: { ...where(scope), ...(document ? { document } : { name: { contains: text, mode: "insensitive" } }) },
    select: { id: true },
    take: 1000,
  });
  return customers.map((c) => c.id);
}

export type CustomerSummary = { name: string; document: string };

/** Name and document of each of these customers, for the rows of a list (one query per page). */
export async function customerSummaries(scope: Scope, ids: readonly string[]): Promise<(id: string) => CustomerSummary> {
  const rows = await db().customer.findMany({ where: { id: { in: [...new Set(ids)] }, ...where(scope) }, select: { id: true, name: true, document: true } });
  const byId = new Map(rows.map((c) => [c.id, { name: c.name, document: c.document }]));
  return (id) => byId.get(id) ?? { name: "", document: "" };
}
