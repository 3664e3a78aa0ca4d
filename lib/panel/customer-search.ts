import { db } from "@/lib/db/client";
import { queryRows, sql } from "@/lib/db/sql";
import { where, type Scope } from "@/lib/scope";

// The panel's search box over customers, shared by the proposal, contract and customer screens: a customer id matches
// that customer (the customer file links to its lists by id: a CPF in a URL stays in browser histories and proxy
// logs); a CPF or CNPJ (formatted or not) matches the document exactly; anything else is a part of the name, ignoring case and accents
// ("joao" finds João): both sides folded alike — the name by the stored column customers.search_name (migration
// 20261124110000), the text typed by foldName.

const FOLD_FROM = "ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳ";
const FOLD_TO = "AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAaAaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOoOoYy";
const FOLD = new Map([...FOLD_FROM].map((c, i) => [c, FOLD_TO[i]!]));

/** Latin letters with diacritics to their base letter, then lower case: what customers.search_name holds. */
export function foldName(text: string): string {
  return [...text].map((c) => FOLD.get(c) ?? c).join("").toLowerCase();
}

export const CUSTOMER_ID = /^cus_[0-9A-Z]{26}$/;

/** The normalized document a search text is, or null. */
export function documentIn(text: string): string | null {
  const digits = text.replace(/[.\-/\s]/g, "").toUpperCase();
  return /^\d{11}$/.test(digits) || /^[0-9A-Z]{12}\d{2}$/.test(digits) ? digits : null;
}

/** How many customers a name search looks at: the newest this many that match. */
export const SEARCH_CUSTOMER_LIMIT = 1000;

/** A search's customers: the ids the text finds (newest first, at most SEARCH_CUSTOMER_LIMIT) and whether more
 *  matched than that (`capped`: the lists then say so, and that the search should be narrowed). */
export type CustomerMatches = { ids: string[]; capped: boolean };

export async function customerIdsMatching(scope: Scope, text: string): Promise<CustomerMatches> {
  if (CUSTOMER_ID.test(text.trim())) {
    const one = await db().customer.findFirst({ where: { id: text.trim(), ...where(scope) }, select: { id: true } });
    return { ids: one ? [one.id] : [], capped: false };
  }
  const document = documentIn(text);
  const pattern = `%${foldName(text.trim()).replace(/[\\%_]/g, "\\$&")}%`; // the typed text, wildcards escaped
  const rows = await queryRows<{ id: string }>(
    document
      ? sql`SELECT id FROM customers WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"
              AND document = ${document} ORDER BY created_at DESC, id DESC LIMIT ${SEARCH_CUSTOMER_LIMIT + 1}`
      : sql`SELECT id FROM customers WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"
              AND search_name LIKE ${pattern} ESCAPE '\\' ORDER BY created_at DESC, id DESC LIMIT ${SEARCH_CUSTOMER_LIMIT + 1}`,
  );
  return { ids: rows.slice(0, SEARCH_CUSTOMER_LIMIT).map((r) => r.id), capped: rows.length > SEARCH_CUSTOMER_LIMIT };
}

export type CustomerSummary = { name: string; document: string };

/** Name and document of each of these customers, for the rows of a list (one query per page). */
export async function customerSummaries(scope: Scope, ids: readonly string[]): Promise<(id: string) => CustomerSummary> {
  const rows = await db().customer.findMany({ where: { id: { in: [...new Set(ids)] }, ...where(scope) }, select: { id: true, name: true, document: true } });
  const byId = new Map(rows.map((c) => [c.id, { name: c.name, document: c.document }]));
  return (id) => byId.get(id) ?? { name: "", document: "" };
}
