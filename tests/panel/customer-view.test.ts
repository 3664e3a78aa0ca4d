import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { customerFile, customerList, CustomerListQuery, FILE_ROWS } from "@/lib/panel/customer-view";
import { customerIdsMatching, foldName, SEARCH_CUSTOMER_LIMIT } from "@/lib/panel/customer-search";
import { queryRows, sql } from "@/lib/db/sql";
import { newId } from "@/lib/ids";
import { creditTenant, newProposal, uniqueCpf } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";

// The panel's customers (issue 12): search by document, id and name within the tenant's environment, and a
// customer's proposals and contracts.

describe("the panel's customers", () => {
  it("searches customers and shows each one's proposals and contracts, never another tenant's", async () => {
    const t = await creditTenant();
    const other = await creditTenant();
    const [contractId] = await contractsOf(t, 1);
    const contract = await db().contract.findUniqueOrThrow({ where: { id: contractId! } });
    const { proposal: open } = await newProposal(t);
    await newProposal(other);
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const ids = async (q?: string) => (await customerList(scope, CustomerListQuery.parse({ q }))).data.map((c) => c.id);
    expect((await ids()).length).toBe(2);
    const customer = await db().customer.findUniqueOrThrow({ where: { id: contract.customerId } });
    expect(await ids(customer.document.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, "$1.$2.$3-$4"))).toEqual([customer.id]);
    expect(await ids(customer.id)).toEqual([customer.id]);
    // A list row is what the list shows — no income, address, contact or benefit number.
    const [row] = (await customerList(scope, CustomerListQuery.parse({ q: customer.id }))).data;
    expect(row).toEqual({ id: customer.id, name: customer.name, document: customer.document, kind: "person", created_at: customer.createdAt.toISOString() });
    // The proposal and contract lists find the customer by id (the file links to them so, not by CPF).
    expect(await customerIdsMatching(scope, customer.id)).toEqual({ ids: [customer.id], capped: false });
    expect(await customerIdsMatching({ tenantId: other.tenant.id, environment: "sandbox" }, customer.id)).toEqual({ ids: [], capped: false });
    expect((await ids("MARIA")).length).toBe(2);
    expect((await customerList({ tenantId: t.tenant.id, environment: "production" }, CustomerListQuery.parse({}))).data).toEqual([]);

    const file = await customerFile(scope, customer.id);
    expect(file.customer.id).toBe(customer.id);
    expect(file.contracts.map((c) => c.id)).toEqual([contract.id]);
    expect(file.proposals.map((p) => [p.id, p.status, p.contract_id])).toEqual([[contract.proposalId, "contract_issued", contract.id]]);
    expect(file.proposals.map((p) => p.id)).not.toContain(open.id);
    expect([file.more_proposals, file.more_contracts]).toEqual([false, false]);

    // Past FILE_ROWS proposals: the newest FILE_ROWS, a flag for the rest, and the contract of the oldest still linked.
    const issued = await db().proposal.findUniqueOrThrow({ where: { id: contract.proposalId } });
    await db().proposal.createMany({
      data: Array.from({ length: FILE_ROWS }, (_, i) => ({ ...issued, id: newId("proposal"), status: "canceled", contractNumber: null, createdAt: new Date(issued.createdAt.getTime() + 1000 + i) })) as never,
    });
    const long = await customerFile(scope, customer.id);
    expect(long.proposals).toHaveLength(FILE_ROWS);
    expect(long.proposals.map((p) => p.id)).not.toContain(contract.proposalId);
    expect([long.more_proposals, long.more_contracts]).toEqual([true, false]);
    await expect(customerFile({ tenantId: other.tenant.id, environment: "sandbox" }, customer.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(customerFile(scope, "cus_\u0000")).rejects.toMatchObject({ code: "not_found" });
  });

  it("finds names whatever their accents and case: what staff type is folded as the stored name is", async () => {
    const t = await creditTenant();
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const names = ["João Gonçalves da Conceição", "ANTÔNIA Müller", "Zé_100%"];
    const made = [];
    for (const [i, name] of names.entries()) {
      made.push(await db().customer.create({ data: { id: newId("customer"), ...scope, kind: "person", document: uniqueCpf(), name, createdAt: new Date(Date.now() - i) } }));
    }
    const [joao, antonia, ze] = made.map((c) => c.id);
    const find = async (q: string) => (await customerIdsMatching(scope, q)).ids;
    expect(await find("joao")).toEqual([joao]);
    expect(await find("goncalves da conceicao")).toEqual([joao]);
    expect(await find("GONÇALVES")).toEqual([joao]);
    expect(await find("antonia muller")).toEqual([antonia]);
    expect(await find("Antônia")).toEqual([antonia]);
    // LIKE's wildcards typed are plain characters.
    expect(await find("_1")).toEqual([ze]);
    expect(await find("%")).toEqual([ze]);
    expect(await find("z%")).toEqual([]);
    // The database's fold (the generated column) and the typed text's agree letter for letter.
    const stored = await db().$queryRaw<{ search_name: string; name: string }[]>`SELECT name, search_name FROM customers WHERE tenant_id = ${t.tenant.id}`;
    for (const row of stored) expect(row.search_name).toBe(foldName(row.name));
    expect(foldName("ÀÉÎÕÜÇÑ àéîõüçñ Ŵ")).toBe("aeioucn aeioucn w");
  });

  it("says so when a name matches more customers than a search looks at, and lists the newest of them", async () => {
    const t = await creditTenant();
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    // One more Silva than the search looks at, the oldest first; and one Souza.
    const ids = Array.from({ length: SEARCH_CUSTOMER_LIMIT + 1 }, () => newId("customer"));
    const documents = ids.map(() => uniqueCpf());
    await queryRows(sql`
      INSERT INTO customers (id, tenant_id, environment, kind, document, name, created_at, updated_at)
      SELECT u.id, ${t.tenant.id}, 'sandbox', 'person', u.document, 'Ana Silva ' || (u.n - 1),
             now() - (interval '1 second' * (${SEARCH_CUSTOMER_LIMIT + 1} - u.n)), now()
      FROM unnest(${ids}::text[], ${documents}::text[]) WITH ORDINALITY AS u(id, document, n)`);
    const silva = await customerList(scope, CustomerListQuery.parse({ q: "silva", limit: 2 }));
    expect({ names: silva.data.map((c) => c.name), capped: silva.search_capped }).toEqual({ names: [`Ana Silva ${SEARCH_CUSTOMER_LIMIT}`, `Ana Silva ${SEARCH_CUSTOMER_LIMIT - 1}`], capped: true });
    const found = await customerIdsMatching(scope, "silva");
    expect({ count: found.ids.length, oldestLeftOut: found.ids.includes(ids[0]!) }).toEqual({ count: SEARCH_CUSTOMER_LIMIT, oldestLeftOut: false });
    // A narrower search, a document, or no search at all is not capped.
    expect((await customerList(scope, CustomerListQuery.parse({ q: "silva 1000" }))).search_capped).toBe(false);
    expect((await customerList(scope, CustomerListQuery.parse({ q: documents[5]! }))).search_capped).toBe(false);
    expect((await customerList(scope, CustomerListQuery.parse({}))).search_capped).toBe(false);
  });
});
