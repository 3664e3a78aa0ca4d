import type { Contract, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { cancelCoveredCharges } from "@/lib/collection/cancel-charge";
import { toPaymentResponse } from "@/lib/collection/serialize";
import { writeAudit } from "@/lib/audit/audit-log";
import { closeIfPaidOff } from "@/lib/contracts/close-paid-off";
import { lockContract } from "@/lib/contracts/lock-contract";
import { todayInBrazil } from "@/lib/clock";
import { db, sideDb, type Tx } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { COLLECTIBLE, type ContractStatus } from "@/lib/contracts/transitions";
import { where, type Scope } from "@/lib/scope";
import { centavos, dateColumn } from "@/lib/serialize";
import type { RepasseBody, RepasseContractResult, RepasseResponse } from "./repasse-schemas";

// The sandbox repasse simulator (release 1.4.0): the paying source (INSS, or the employer through FGTS
// Digital) transfers the installments it deducted in a competence month, and they are applied as payments:
//   full     every installment due in the month is paid in full;
//   partial  `partial_percent` of what is open on each is paid (rounded down to the centavo): partially_paid;
//   none     nothing arrives: the installments stay open, overdue once past their due date.
// One transaction per contract: the ledger row (unique per contract and month), the payments, the
// installments, the contract's paid and outstanding amounts, and the events (`installment.paid` or
// `installment.partially_paid`, then `repasse.processed`; `contract.closed` when it paid the last installment).
// A month already processed for a contract is
// skipped (`already_processed`), so running it twice changes nothing the second time. What a delayed
// transfer owes in late charges is the paying source's matter, not the borrower's: the installment's
// open amount is what is paid.

const SOURCE: Record<"inss" | "private", string> = { inss: "inss_repasse", private: "private_payroll_repasse" };

export async function runRepasse(scope: Scope, actor: Actor, body: RepasseBody): Promise<RepasseResponse> {
  const contracts = await selectContracts(scope, body.contract_ids);
  const results: RepasseContractResult[] = [];
  for (const contract of contracts) {
    // Each contract commits on its own (not in the request's ambient transaction): a failure on one leaves
    // the months already applied to others in place, and a retry skips them. On a side pool of its own
    // (lib/db/client.ts): an idempotent request's transaction holds a connection of the main pool meanwhile, and as
    // many such requests as that pool has connections would each wait for a second one — every request of the
    // process, production's included, then waiting with them.
    results.push(await sideDb("sandbox-repasse").$transaction((tx) => applyToContract(tx, scope, actor, contract, body)));
  }
  const processed = results.filter((r) => r.status === "processed");
  return {
    object: "repasse",
    competence: body.competence,
    scenario: body.scenario,
    partial_percent: body.scenario === "partial" ? body.partial_percent : null,
    contracts: results,
    totals: {
      processed: processed.length,
      skipped: results.length - processed.length,
      amount_due: processed.reduce((sum, r) => sum + r.amount_due, 0),
      amount_paid: processed.reduce((sum, r) => sum + r.amount_paid, 0),
    },
  };
}

async function selectContracts(scope: Scope, ids: string[] | undefined): Promise<Contract[]> {
  const payrollProducts = (Object.keys(PRODUCTS) as ProductCode[]).filter((code) => PRODUCTS[code].payrollLink !== null);
  if (ids === undefined) {
    const all = await db().contract.findMany({ where: { ...where(scope), status: { in: [...COLLECTIBLE] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return all.filter((c) => payrollProducts.includes(productOf(c)));
  }
  const found = await db().contract.findMany({ where: { ...where(scope), id: { in: ids } } });
  for (const id of ids) {
    const contract = found.find((c) => c.id === id);
    if (!contract) throw notFound(`Contract ${id}`);
    if (!payrollProducts.includes(productOf(contract))) {
      const message = `Contract ${id} is not payroll-deductible: the paying source transfers only payroll installments`;
      throw new DomainError("validation_error", message, { errors: [{ param: `contract_ids.${ids.indexOf(id)}`, in: "body", message }] });
    }
  }
  return ids.map((id) => found.find((c) => c.id === id)!);
}

function productOf(contract: Contract): ProductCode {
  return (contract.terms as { product: ProductCode }).product;
}

async function applyToContract(tx: Tx, scope: Scope, actor: Actor, contract: Contract, body: RepasseBody): Promise<RepasseContractResult> {
  const skipped = (reason: RepasseContractResult["reason"], due = 0, paid = 0): RepasseContractResult => ({
    contract_id: contract.id,
    status: "skipped",
    reason,
    amount_due: due,
    amount_paid: paid,
    installments: [],
  });
  await lockContract(tx, scope, contract.id);
  const previous = await tx.repasseEntry.findFirst({ where: { ...where(scope), contractId: contract.id, competence: body.competence } });
  if (previous) return skipped("already_processed", centavos(previous.amountDue), centavos(previous.amountPaid));
  const current = (await tx.contract.findFirst({ where: { id: contract.id, ...where(scope) } }))!;
  if (!COLLECTIBLE.includes(current.status as ContractStatus)) return skipped("contract_not_active");

  const [year, month] = body.competence.split("-").map(Number) as [number, number];
  const from = dateColumn(`${body.competence}-01`);
  const to = dateColumn(month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`);
  const installments = await tx.installment.findMany({
    where: { ...where(scope), contractId: contract.id, dueDate: { gte: from, lt: to }, status: { in: ["open", "partially_paid"] } },
    include: { contract: { select: { terms: true } } },
    orderBy: { number: "asc" },
  });
  if (installments.length === 0) return skipped("no_installment_due");

  const now = new Date();
  const source = SOURCE[PRODUCTS[productOf(contract)].payrollLink!];
  const asOf = todayInBrazil(now);
  let amountDue = 0;
  let amountPaid = 0;
  const applied: RepasseContractResult["installments"] = [];
  for (const installment of installments) {
    const open = centavos(installment.amount) - centavos(installment.paidAmount);
    const pay = body.scenario === "full" ? open : body.scenario === "partial" ? Math.floor((open * body.partial_percent) / 100) : 0;
    amountDue += open;
    amountPaid += pay;
    let row = installment;
    if (pay > 0) {
      const paidAmount = installment.paidAmount + BigInt(pay);
      const paid = paidAmount === installment.amount;
      row = await tx.installment.update({
        where: { id: installment.id },
        data: { paidAmount, status: paid ? "paid" : "partially_paid", paidAt: paid ? now : null },
        include: { contract: { select: { terms: true } } },
      });
      // Interest before principal, as every allocation (late charges are not the borrower's here).
      const interestOpen = Math.max(0, centavos(installment.interest) - Math.min(centavos(installment.paidAmount), centavos(installment.interest)));
      const interest = Math.min(pay, interestOpen);
      const allocation = { installment_id: installment.id, number: installment.number, fine: 0, late_interest: 0, interest, principal: pay - interest, total: pay };
      const payment = await tx.payment.create({
        data: { id: newId("payment"), ...where(scope), contractId: contract.id, installmentId: installment.id, assignmentId: current.assignmentId, amount: BigInt(pay), source, competence: body.competence, allocations: [allocation], paidAt: now },
      });
      await writeOutboxEvent(tx, { ...where(scope), type: "payment.received", payload: toPaymentResponse(payment) as unknown as Prisma.InputJsonObject });
      const view = toInstallmentResponse(row, asOf);
      await writeOutboxEvent(tx, { ...where(scope), type: paid ? "installment.paid" : "installment.partially_paid", payload: { ...view, payment: { amount: pay, source, competence: body.competence } } as unknown as Prisma.InputJsonObject });
    }
    const view = toInstallmentResponse(row, asOf);
    applied.push({ id: row.id, number: row.number, due_date: view.due_date, amount_paid: pay, status: view.status });
  }
  await tx.repasseEntry.create({
    data: { id: newId("repasseEntry"), ...where(scope), contractId: contract.id, competence: body.competence, scenario: body.scenario, amountDue: BigInt(amountDue), amountPaid: BigInt(amountPaid) },
  });
  if (amountPaid > 0) {
    await tx.contract.update({
      where: { id: contract.id },
      data: { amountPaid: { increment: BigInt(amountPaid) }, outstandingBalance: { decrement: BigInt(amountPaid) } },
    });
    if (applied.some((i) => i.status === "paid")) {
      await cancelCoveredCharges(tx, scope, actor, contract.id, `its installments were paid by the ${body.competence} repasse`);
      await closeIfPaidOff(tx, scope, actor, contract.id);
    }
  }
  const result: RepasseContractResult = { contract_id: contract.id, status: "processed", reason: null, amount_due: amountDue, amount_paid: amountPaid, installments: applied };
  await writeAudit(tx, {
    ...where(scope),
    actor,
    action: "repasse.processed",
    target: { type: "contract", id: contract.id },
    metadata: { competence: body.competence, scenario: body.scenario, source, amount_due: amountDue, amount_paid: amountPaid },
  });
  await writeOutboxEvent(tx, {
    ...where(scope),
    type: "repasse.processed",
    payload: { competence: body.competence, scenario: body.scenario, source, ...result } as unknown as Prisma.InputJsonObject,
  });
  return result;
}
