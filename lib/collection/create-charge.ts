import type { Contract, Installment, Prisma } from "@prisma/client";
import { randomBytes } from "node:crypto";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { COLLECTIBLE, type ContractStatus } from "@/lib/contracts/transitions";
import { db, type Tx } from "@/lib/db/client";
import { invalidField, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { where, type Scope } from "@/lib/scope";
import { centavos, dateColumn, isoDate } from "@/lib/serialize";
import { collectionAccount, ourNumberSequence, type CollectionAccount } from "./account";
import { amountsDue, type AllocatableInstallment } from "./allocation";
import { bankFreeField, barcode, digitableLine } from "./boleto";
import { pixQrPngDataUrl } from "./payment-images";
import { brCode } from "./pix-brcode";
import type { ChargeResponse, CreateChargeBody } from "./schemas";
import { toChargeResponse } from "./serialize";

// POST /v1/charges: a boleto or Pix charge for open installments of an active contract. The amount comes
// from the finance library: each installment's open amount, plus late fine and pro-rata late interest up to
// the charge's due date when it is already late then. Row, audit and `charge.created` in one transaction.

export async function createCharge(scope: Scope, actor: Actor, body: CreateChargeBody): Promise<ChargeResponse> {
  return db().$transaction(async (tx) => {
    const account = await collectionAccount(tx, scope); // 409 first when the environment has none
    const contract = await tx.contract.findFirst({ where: { id: body.contract_id, ...where(scope) } });
    if (!contract) throw notFound("Contract");
    if (!COLLECTIBLE.includes(contract.status as ContractStatus)) throw invalidField("contract_id", `The contract is ${contract.status}: only active and assigned contracts are collected`);
    const installments = await chosenInstallments(tx, scope, contract.id, body.installment_ids);
    const today = todayInBrazil();
    const latestDue = installments.map((i) => isoDate(i.dueDate)).sort().at(-1)!;
    const dueDate = body.due_date ?? (latestDue > today ? latestDue : today);
    if (dueDate < today) throw invalidField("due_date", "Must be today or later");

    const late = lateRulesOf(contract);
    const breakdown = installments.map((i) => ({ installment_id: i.id, number: i.number, due_date: isoDate(i.dueDate), ...amountsDue(allocatable(i), late, dueDate) }));
    const amount = breakdown.reduce((sum, line) => sum + line.total, 0);
    if (amount <= 0) throw invalidField("installment_ids", "Nothing is open on these installments");
    return insertChargeIn(tx, scope, actor, { contract, installmentIds: installments.map((i) => i.id), dueDate, amount, breakdown, method: body.method, pix: body.pix }, account);
  });
}

export type NewCharge = {
  contract: Contract;
  installmentIds: string[];
  dueDate: string;
  amount: number;
  /** Per installment, what `amount` is made of; empty for a settlement (its quote has the detail). */
  breakdown: object[];
  method: "boleto" | "pix";
  pix?: { kind?: "cob" | "cobv"; expires_in?: number };
  settlementId?: string;
};

/** Issues a charge in the caller's transaction under the tenant's collection account: row, audit, `charge.created`. */
export async function insertChargeIn(tx: Tx, scope: Scope, actor: Actor, input: NewCharge, known?: CollectionAccount): Promise<ChargeResponse> {
  const account = known ?? (await collectionAccount(tx, scope));
  const id = newId("charge");
  const now = new Date();
  const late = lateRulesOf(input.contract);
  const boleto = input.method === "boleto" ? await boletoFor(tx, scope, account, input.dueDate, input.amount) : null;
  const pix = input.method === "pix" ? await pixFor(account, input.pix?.kind ?? "cobv", input.amount, now, input.pix?.expires_in ?? 86_400, late) : null;
  const row = await tx.charge.create({
    data: {
      id,
      ...where(scope),
      contractId: input.contract.id,
      customerId: input.contract.customerId,
      method: input.method,
      status: "pending",
      installmentIds: input.installmentIds,
      settlementId: input.settlementId ?? null,
      dueDate: dateColumn(input.dueDate),
      amount: BigInt(input.amount),
      breakdown: input.breakdown as Prisma.InputJsonArray,
      ...(boleto ? { boleto } : {}),
      ...(pix ? { pix } : {}),
      beneficiary: beneficiaryOf(account),
      expiresAt: pix?.expires_at ? new Date(pix.expires_at) : null,
    },
  });
  const response = toChargeResponse(row);
  await writeAudit(tx, { ...where(scope), actor, action: "charge.created", target: { type: "charge", id }, metadata: { contract_id: input.contract.id, method: input.method, amount: input.amount } });
  await writeOutboxEvent(tx, { ...where(scope), type: "charge.created", payload: response as unknown as Prisma.InputJsonObject });
  return response;
}

/** The product's late-payment rules (fine once, monthly late interest pro rata die). */
export function lateRulesOf(contract: Contract) {
  const rules = PRODUCTS[(contract.terms as { product: ProductCode }).product] ?? PRODUCTS.personal_loan;
  return { fineRate: rules.lateFineRate, monthlyLateInterestRate: rules.lateMonthlyInterestRate };
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

function beneficiaryOf(account: CollectionAccount) {
  return { name: account.beneficiaryName, document: account.beneficiaryDocument, city: account.city, bank_code: account.bankCode, agreement: account.agreement };
}

/** The next nosso número sequence of the account: the shared sandbox account's spans tenants; a tenant's
 *  own account counts per agreement (a new agreement starts at 1). */
async function nextOurNumber(tx: Tx, scope: Scope, account: CollectionAccount): Promise<number> {
  if (account.shared) {
    const [row] = await tx.$queryRaw<{ value: bigint }[]>`SELECT nextval('boleto_sandbox_shared_seq') AS value`;
    return Number(row!.value);
  }
  const name = ourNumberSequence(account.bankCode, account.agreement);
  const [row] = await tx.$queryRaw<{ value: number }[]>`
    INSERT INTO sequences (tenant_id, environment, name, value)
    VALUES (${scope.tenantId}, ${scope.environment}::"Environment", ${name}, 1)
    ON CONFLICT (tenant_id, environment, name) DO UPDATE SET value = sequences.value + 1
    RETURNING value`;
  return row!.value;
}

async function boletoFor(tx: Tx, scope: Scope, account: CollectionAccount, dueDate: string, amount: number) {
  const { freeField, ourNumber } = bankFreeField(account.agreement, await nextOurNumber(tx, scope, account), account.wallet);
  const code = barcode({ bankCode: account.bankCode, dueDate, amount, freeField });
  return { barcode: code, digitable_line: digitableLine(code), due_date: dueDate, our_number: ourNumber, bank_code: account.bankCode };
}

/** A BCB txid: 32 characters of [a-zA-Z0-9], uniform (random bytes above 247 are drawn again). */
function newTxid(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let txid = "";
  while (txid.length < 32) {
    for (const b of randomBytes(40)) if (b < 248 && txid.length < 32) txid += alphabet[b % 62];
  }
  return txid;
}

async function pixFor(account: CollectionAccount, kind: "cob" | "cobv", amount: number, now: Date, expiresIn: number, late: { fineRate: string; monthlyLateInterestRate: string }) {
  const txid = newTxid();
  // The BR Code's location field holds at most 77 characters: base (≤ 44) + "/" + 32.
  const location = `${account.pixLocationBase}/${randomBytes(16).toString("hex")}`;
  const brcode = brCode({ location, amount, merchantName: account.beneficiaryName, merchantCity: account.city });
  return {
    kind,
    txid,
    brcode,
    qr_code: await pixQrPngDataUrl(brcode),
    location,
    expires_at: kind === "cob" ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
    fine_rate: kind === "cobv" ? late.fineRate : null,
    interest_rate_monthly: kind === "cobv" ? late.monthlyLateInterestRate : null,
  };
}
