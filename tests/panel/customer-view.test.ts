import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { customerFile, customerList, CustomerListQuery } from "@/lib/panel/customer-view";
import { creditTenant, newProposal } from "../credit/flow-helpers";
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
});
