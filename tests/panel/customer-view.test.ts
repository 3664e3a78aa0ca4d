import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { customerFile, customerList, CustomerListQuery } from "@/lib/panel/customer-view";
import { customerIdsMatching, foldName } from "@/lib/panel/customer-search";
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
    expect((await ids("MARIA")).length).toBe(2);
    expect((await customerList({ tenantId: t.tenant.id, environment: "production" }, CustomerListQuery.parse({}))).data).toEqual([]);

    const file = await customerFile(scope, customer.id);
    expect(file.customer.id).toBe(customer.id);
    expect(file.contracts.map((c) => c.id)).toEqual([contract.id]);
    expect(file.proposals.map((p) => [p.id, p.status, p.contract_id])).toEqual([[contract.proposalId, "contract_issued", contract.id]]);
    expect(file.proposals.map((p) => p.id)).not.toContain(open.id);
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
    const find = (q: string) => customerIdsMatching(scope, q);
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
});
