import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { todayInBrazil } from "@/lib/clock";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { db } from "@/lib/db/client";
import { call } from "../helpers/http";
import { creditTenant, signedProposal } from "../credit/flow-helpers";

// The collection job: Pix cob past its expiry → expired; charges past their due date → overdue; each
// installment unpaid after its due date → one installment.overdue event, however often the job runs.

describe("collection job", () => {
  it("expires, marks overdue, and announces each overdue installment once", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
    const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body;
    const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
    const pastDue = installments.filter((i) => i.dueDate.toISOString().slice(0, 10) < todayInBrazil());
    expect(pastDue.length).toBeGreaterThan(0);

    const charge = (json: unknown) => call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json }).then((r) => r.body as { id: string });
    const cob = await charge({ contract_id: contract.id, method: "pix", pix: { kind: "cob", expires_in: 60 } });
    const boleto = await charge({ contract_id: contract.id, method: "boleto", installment_ids: [installments[1]!.id] });
    await db().charge.update({ where: { id: cob.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await db().charge.update({ where: { id: boleto.id }, data: { dueDate: new Date("2026-05-01T00:00:00Z") } });

    await runCollectionJob();
    const statuses = await db().charge.findMany({ where: { id: { in: [cob.id, boleto.id] } }, orderBy: { createdAt: "asc" } });
    expect(statuses.map((c) => c.status)).toEqual(["expired", "overdue"]);
    const events = async (type: string) => db().outboxEvent.count({ where: { tenantId: t.tenant.id, type } });
    expect({ expired: await events("charge.expired"), overdue: await events("charge.overdue"), installments: await events("installment.overdue") }).toEqual({
      expired: 1,
      overdue: 1,
      installments: pastDue.length,
    });
    const marked = await db().installment.findMany({ where: { contractId: contract.id, overdueAt: { not: null } } });
    expect(marked.map((i) => i.id).sort()).toEqual(pastDue.map((i) => i.id).sort());

    await runCollectionJob();
    expect({ expired: await events("charge.expired"), overdue: await events("charge.overdue"), installments: await events("installment.overdue") }).toEqual({
      expired: 1,
      overdue: 1,
      installments: pastDue.length,
    });
  });
});
