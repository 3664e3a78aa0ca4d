import type { Installment, Prisma } from "@prisma/client";
import { randomBytes } from "node:crypto";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { db, type Tx } from "@/lib/db/client";
import { invalidField, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { where, type Scope } from "@/lib/scope";
import { centavos, dateColumn, isoDate } from "@/lib/serialize";
import { collectionAccount, type CollectionAccount } from "./account";
import { amountsDue, type AllocatableInstallment } from "./allocation";
import { bankFreeField, barcode, digitableLine } from "./boleto";
import { brCode } from "./pix-brcode";
import type { ChargeResponse, CreateChargeBody } from "./schemas";
import { toChargeResponse } from "./serialize";

// POST /v1/charges: a boleto or Pix charge for open installments of an active contract. The amount comes
// from the finance library: each installment's open amount, plus late fine and pro-rata late interest up to
// the charge's due date when it is already late then. Row, audit and `charge.created` in one transaction.

export async function createCharge(scope: Scope, actor: Actor, body: CreateChargeBody): Promise<ChargeResponse> {
  const account = collectionAccount(scope.environment);
  return db().$transaction(async (tx) => {
    const contract = await tx.contract.findFirst({ where: { id: body.contract_id, ...where(scope) } });
    if (!contract) throw notFound("Contract");
    if (contract.status !== "active") throw invalidField("contract_id", `The contract is ${contract.status}: only active contracts are collected`);
    const installments = await chosenInstallments(tx, scope, contract.id, body.installment_ids);
    const today = todayInBrazil();
    const latestDue = installments.map((i) => isoDate(i.dueDate)).sort().at(-1)!;
    const dueDate = body.due_date ?? (latestDue > today ? latestDue : today);
    if (dueDate < today) throw invalidField("due_date", "Must be today or later");

    const rules = PRODUCTS[(contract.terms as { product: ProductCode }).product] ?? PRODUCTS.personal_loan;
    const late = { fineRate: rules.lateFineRate, monthlyLateInterestRate: rules.lateMonthlyInterestRate };
    const breakdown = installments.map((i) => ({ installment_id: i.id, number: i.number, due_date: isoDate(i.dueDate), ...amountsDue(allocatable(i), late, dueDate) }));
    const amount = breakdown.reduce((sum, line) => sum + line.total, 0);
    if (amount <= 0) throw invalidField("installment_ids", "Nothing is open on these installments");

    const id = newId("charge");
    const now = new Date();
    const boleto = body.method === "boleto" ? await boletoFor(tx, scope, account, dueDate, amount) : null;
    const pix = body.method === "pix" ? pixFor(account, body.pix?.kind ?? "cobv", amount, now, body.pix?.expires_in ?? 86_400, late) : null;
    const row = await tx.charge.create({
      data: {
        id,
        ...where(scope),
        contractId: contract.id,
        customerId: contract.customerId,
        method: body.method,
        status: "pending",
        installmentIds: installments.map((i) => i.id),
        dueDate: dateColumn(dueDate),
        amount: BigInt(amount),
        breakdown: breakdown as unknown as Prisma.InputJsonArray,
        ...(boleto ? { boleto } : {}),
        ...(pix ? { pix } : {}),
        expiresAt: pix?.expires_at ? new Date(pix.expires_at) : null,
      },
    });
    const response = toChargeResponse(row);
    await writeAudit(tx, { ...where(scope), actor, action: "charge.created", target: { type: "charge", id }, metadata: { contract_id: contract.id, method: body.method, amount } });
    await writeOutboxEvent(tx, { ...where(scope), type: "charge.created", payload: response as unknown as Prisma.InputJsonObject });
    return response;
  });
}

export function allocatable(i: Installment): AllocatableInstallment {
  return {
    id: i.id,
    number: i.number,
    dueDate: isoDate(i.dueDate),
    principal: centavos(i.principal),
    interest: centavos(i.interest),
    paidAmount: centavos(i.paidAmount),
    finePaid: centavos(i.finePaid),
    lateInterestPaid: centavos(i.lateInterestPaid),
  };
}

async function chosenInstallments(tx: Tx, scope: Scope, contractId: string, ids: string[] | undefined): Promise<Installment[]> {
  const open = await tx.installment.findMany({
    where: { ...where(scope), contractId, status: { in: ["open", "partially_paid"] } },
    orderBy: [{ dueDate: "asc" }, { number: "asc" }],
  });
  if (ids === undefined) {
    if (open.length === 0) throw invalidField("contract_id", "The contract has no open installment");
    return [open[0]!];
  }
  return ids.map((id, index) => {
    const found = open.find((i) => i.id === id);
    if (!found) throw invalidField(`installment_ids.${index}`, "Not an open installment of this contract");
    return found;
  });
}

async function boletoFor(tx: Tx, scope: Scope, account: CollectionAccount, dueDate: string, amount: number) {
  const [next] = await tx.$queryRaw<{ value: number }[]>`
    INSERT INTO sequences (tenant_id, environment, name, value)
    VALUES (${scope.tenantId}, ${scope.environment}::"Environment", 'boleto-our-number', 1)
    ON CONFLICT (tenant_id, environment, name) DO UPDATE SET value = sequences.value + 1
    RETURNING value`;
  const { freeField, ourNumber } = bankFreeField(account.agreement, next!.value, account.wallet);
  const code = barcode({ bankCode: account.bankCode, dueDate, amount, freeField });
  return { barcode: code, digitable_line: digitableLine(code), due_date: dueDate, our_number: ourNumber, bank_code: account.bankCode };
}

/** A BCB txid: 32 characters of [a-zA-Z0-9] from a random source. */
function newTxid(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(32), (b) => alphabet[b % alphabet.length]).join("");
}

function pixFor(account: CollectionAccount, kind: "cob" | "cobv", amount: number, now: Date, expiresIn: number, late: { fineRate: string; monthlyLateInterestRate: string }) {
  const txid = newTxid();
  // The BR Code's location field holds at most 77 characters: base (≤ 44) + "/" + 32.
  const location = `${account.pixLocationBase}/${randomBytes(16).toString("hex")}`;
  return {
    kind,
    txid,
    brcode: brCode({ location, amount, merchantName: account.pixMerchantName, merchantCity: account.pixMerchantCity }),
    location,
    expires_at: kind === "cob" ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
    fine_rate: kind === "cobv" ? late.fineRate : null,
    interest_rate_monthly: kind === "cobv" ? late.monthlyLateInterestRate : null,
  };
}
