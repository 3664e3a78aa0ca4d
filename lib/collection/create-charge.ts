import type { Charge, Contract, Installment, Prisma } from "@prisma/client";
import { randomBytes } from "node:crypto";
import type { Actor } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { COLLECTIBLE, type ContractStatus } from "@/lib/contracts/transitions";
import { CONTRACT_COLUMNS, INSTALLMENT_COLUMNS, toContract, toInstallment, type ContractText, type InstallmentText } from "@/lib/contracts/sql-rows";
import type { Tx } from "@/lib/db/client";
import { queryCommitted, queryRows, raw, sql, type Sql } from "@/lib/db/sql";
import { DomainError, invalidField, notFound, TransientConflict } from "@/lib/errors";
import { addMonths, isLate } from "@/lib/finance";
import { newId } from "@/lib/ids";
import { lateRulesOfTerms } from "@/lib/contracts/late-rules";
import type { Scope } from "@/lib/scope";
import { dateColumn, isoDate } from "@/lib/serialize";
import { accountOrDefault, collectionAccount, fromRow, ourNumberSequence, type CollectionAccount } from "./account";
import { allocatable, amountsDue } from "./allocation";
import { bankFreeField, barcode, digitableLine } from "./boleto";
import { pixQrPngDataUrl } from "./payment-images";
import { brCode } from "./pix-brcode";
import type { ChargeResponse, CreateChargeBody } from "./schemas";
import { toChargeResponse } from "./serialize";

// POST /v1/charges: a boleto or Pix charge for open installments of an active (or assigned) contract. The
// amount comes from the finance library: each installment's open amount, plus late fine and pro-rata late
// interest up to the charge's due date when it is already late then. In plain SQL (lib/db/sql.ts: Prisma's
// per-statement cost was most of the request): the account, the contract and its open installments in one read,
// the nosso número (boleto), then the charge row, its audit row and `charge.created` in one statement — atomic
// on its own, and inside the request's transaction when it is an idempotent one. A settlement's charge is
// issued the same way inside the settlement's transaction (insertChargeIn).

/** A boleto's amount field has 10 digits: R$ 99.999.999,99. */
const MAX_BOLETO_AMOUNT = 99_999_999_99;

/** Runs a statement: on the ambient transaction or the pool (queryRows), or on a given Prisma transaction. */
type Run = <T>(statement: Sql) => Promise<T[]>;
const onTx =
  (tx: Tx): Run =>
  <T,>(statement: Sql) =>
    tx.$queryRawUnsafe<T[]>(statement.text, ...statement.values);

type AccountRow = Parameters<typeof fromRow>[0];

export async function createCharge(scope: Scope, actor: Actor, body: CreateChargeBody): Promise<ChargeResponse> {
  const run: Run = queryRows;
  // One read for the account, the contract and its open installments (each round trip cost ~0.3 ms of CPU).
  const [found] = await run<{ account: AccountRow | null; contract: ContractText | null; installments: InstallmentText[] | null }>(sql`
    SELECT (SELECT row_to_json(a) FROM (SELECT bank_code AS "bankCode", agreement, wallet, beneficiary_name AS "beneficiaryName",
                                               beneficiary_document AS "beneficiaryDocument", city, pix_location_base AS "pixLocationBase"
                                        FROM collection_accounts WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment") a) AS account,
           (SELECT row_to_json(x) FROM (SELECT ${raw(CONTRACT_COLUMNS)} FROM contracts c
                                        WHERE c.id = ${body.contract_id} AND c.tenant_id = ${scope.tenantId} AND c.environment = ${scope.environment}::"Environment") x) AS contract,
           (SELECT json_agg(x ORDER BY x.due_date, x.number) FROM (SELECT ${raw(INSTALLMENT_COLUMNS)} FROM installments i
                                        WHERE i.contract_id = ${body.contract_id} AND i.tenant_id = ${scope.tenantId} AND i.environment = ${scope.environment}::"Environment"
                                          AND i.status IN ('open', 'partially_paid')) x) AS installments`);
  const account = accountOrDefault(scope, found!.account && fromRow(found!.account)); // 409 first when the environment has none
  if (!found!.contract) throw notFound("Contract");
  const contract = toContract(found!.contract);
  if (!COLLECTIBLE.includes(contract.status as ContractStatus)) {
    throw new DomainError("contract_not_active", `The contract is ${contract.status}: only active, assigned and written-off contracts are collected`, { current_status: contract.status });
  }
  const open = (found!.installments ?? []).map(toInstallment);
  const installments = chosenInstallments(open, body.installment_ids);
  const today = todayInBrazil();
  const latestDue = installments.map((i) => isoDate(i.dueDate)).sort().at(-1)!;
  const dueDate = body.due_date ?? (latestDue > today ? latestDue : today);
  if (dueDate < today) throw invalidField("due_date", "Must be today or later");
  // A year past the later of today and the installments' due dates at most: late charges run to the due date, and a
  // boleto's due-date factor names dates only until 2049 (lib/collection/boleto.ts).
  const latestAllowed = addMonths(latestDue > today ? latestDue : today, 12);
  if (dueDate > latestAllowed) throw invalidField("due_date", `Must be on or before ${latestAllowed} (a year past the later of today and the installments' due dates)`);

  const late = lateRulesOfTerms(contract.terms);
  const breakdown = installments.map((i) => ({ installment_id: i.id, number: i.number, due_date: isoDate(i.dueDate), ...amountsDue(allocatable(i), late, dueDate) }));
  const amount = breakdown.reduce((sum, line) => sum + line.total, 0);
  if (amount <= 0) throw invalidField("installment_ids", "Nothing is open on these installments");
  if (body.method === "boleto" && amount > MAX_BOLETO_AMOUNT) {
    throw invalidField("installment_ids", "The amount is over a boleto's maximum (R$ 99.999.999,99): collect these installments in more than one charge");
  }
  const unchangedSince = { amountPaid: contract.amountPaid, outstandingBalance: contract.outstandingBalance };
  const pspLateRates = installments.every((i) => fallsLateWith(isoDate(i.dueDate), dueDate));
  return insertCharge(run, scope, actor, { contract, installmentIds: installments.map((i) => i.id), dueDate, amount, breakdown, method: body.method, pix: body.pix, unchangedSince, pspLateRates }, account);
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
  /** A cobv carries the contract's fine and late interest for the PSP to add after its due date (fallsLateWith holds
   *  for every installment); otherwise, and for a settlement's charge, "0". */
  pspLateRates?: boolean;
  /** The contract's money as the charge was computed from it, when that read was not under the contract's lock: a
   *  payment committed since (installments paid, amounts changed) makes the insert write nothing. */
  unchangedSince?: { amountPaid: bigint; outstandingBalance: bigint };
};

/** Issues a charge in the caller's Prisma transaction (a settlement's): row, audit, `charge.created`. */
export async function insertChargeIn(tx: Tx, scope: Scope, actor: Actor, input: NewCharge): Promise<ChargeResponse> {
  return insertCharge(onTx(tx), scope, actor, input, await collectionAccount(tx, scope), true);
}

async function insertCharge(run: Run, scope: Scope, actor: Actor, input: NewCharge, account: CollectionAccount, inTransaction = false): Promise<ChargeResponse> {
  const id = newId("charge");
  const now = new Date();
  const late = lateRulesOfTerms(input.contract.terms);
  const boleto = input.method === "boleto" ? await boletoFor(run, scope, account, input.dueDate, input.amount, inTransaction) : null;
  const pixLate = input.pspLateRates === true && input.settlementId === undefined ? late : { fineRate: "0", monthlyLateInterestRate: "0" };
  const pix = input.method === "pix" ? pixFor(account, input.pix?.kind ?? "cobv", input.amount, now, input.pix?.expires_in ?? 86_400, pixLate) : null;
  const row: Charge = {
    id,
    tenantId: scope.tenantId,
    environment: scope.environment,
    contractId: input.contract.id,
    customerId: input.contract.customerId,
    method: input.method,
    status: "pending",
    installmentIds: input.installmentIds,
    settlementId: input.settlementId ?? null,
    dueDate: dateColumn(input.dueDate),
    amount: BigInt(input.amount),
    amountPaid: 0n,
    breakdown: input.breakdown as Prisma.JsonArray,
    boleto: boleto as Prisma.JsonObject | null,
    pix: pix as Prisma.JsonObject | null,
    beneficiary: beneficiaryOf(account),
    expiresAt: pix?.expires_at ? new Date(pix.expires_at) : null,
    paidAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const response = toChargeResponse(row);
  const audit = { contract_id: input.contract.id, method: input.method, amount: input.amount };
  const paidBefore = input.unchangedSince ? String(input.unchangedSince.amountPaid) : null;
  const owedBefore = input.unchangedSince ? String(input.unchangedSince.outstandingBalance) : null;
  const inserted = await run<{ id: string }>(sql`
    WITH c AS (
      INSERT INTO charges (id, tenant_id, environment, contract_id, customer_id, method, status, installment_ids, settlement_id, due_date, amount,
                           amount_paid, breakdown, boleto, pix, beneficiary, expires_at, created_at, updated_at)
      SELECT ${id}, ${scope.tenantId}, ${scope.environment}::"Environment", ${row.contractId}, ${row.customerId}, ${row.method}, 'pending',
             ${row.installmentIds}::text[], ${row.settlementId}, ${input.dueDate}::date, ${String(input.amount)}::bigint, 0,
             ${JSON.stringify(row.breakdown)}::jsonb, ${boleto ? JSON.stringify(boleto) : null}::jsonb, ${pix ? JSON.stringify(pix) : null}::jsonb,
             ${JSON.stringify(row.beneficiary)}::jsonb, ${row.expiresAt}::timestamptz, ${now}, ${now}
        FROM contracts
       WHERE id = ${row.contractId} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"
         AND status = ANY(${[...COLLECTIBLE]}::text[])
         AND (${paidBefore}::bigint IS NULL OR (amount_paid = ${paidBefore}::bigint AND outstanding_balance = ${owedBefore}::bigint))
         FOR SHARE
      RETURNING id
    ), a AS (
      INSERT INTO audit_logs (id, tenant_id, environment, actor_type, actor_id, actor_label, action, target_type, target_id, metadata, created_at)
      SELECT ${newId("audit")}, ${scope.tenantId}, ${scope.environment}::"Environment", ${actor.type}, ${actor.id ?? null}, ${actor.label},
             'charge.created', 'charge', id, ${JSON.stringify(audit)}::jsonb, ${now} FROM c
    )
    INSERT INTO outbox_events (id, tenant_id, environment, type, payload, created_at)
    SELECT ${newId("event")}, ${scope.tenantId}, ${scope.environment}::"Environment", 'charge.created', ${JSON.stringify(response)}::jsonb, ${now} FROM c
    RETURNING id`);
  // The contract row is read again under a share lock as the charge is written (every payment changes it): one that
  // closed (settled, paid off, withdrawn) since the charge was computed gets none — the closing transaction canceled
  // the open charges it saw, and waits for this one if it comes second — and neither does one a payment reached
  // meanwhile (its installments may be paid now, or owe less: a charge for them would ask for the money again).
  if (inserted.length === 0) {
    const [current] = await run<{ status: string }>(sql`SELECT status FROM contracts WHERE id = ${row.contractId} AND tenant_id = ${scope.tenantId}`);
    if (current && COLLECTIBLE.includes(current.status as ContractStatus)) {
      throw new TransientConflict("A payment reached the contract while the charge was being issued: issue it again", { contract_id: input.contract.id });
    }
    throw new DomainError("contract_not_active", "The contract closed while the charge was being issued", { contract_id: input.contract.id });
  }
  return response;
}

/**
 * Whether a cobv due on `chargeDue` may carry the contract's late rates for an installment due on `installmentDue`.
 * The PSP adds them from the charge's due date, on its whole amount; the platform reckons them per installment from its
 * own due date (lib/collection/allocation.ts). The rates go to the PSP only when that can never make it ask more than
 * the platform reckons owed — money asked beyond it would be the borrower's credit, a fine charged twice:
 * - the installment is not late on the charge's due date (isLate, with the grace of a weekend or holiday due date): once
 *   late its fine has been charged — in this amount, or paid already with part of it (the rest, charged anew, holds
 *   none) — and late interest runs from the installment's due date, not the charge's;
 * - it does not fall due after the charge's due date: the PSP would fine it before it is late.
 * So the rates go with an installment due on the charge's due date, or before it within its grace: due on a Saturday
 * and charged for the Monday after (not late on Monday, Lei 7.089/1983). Both become late the same day (Tuesday) and
 * the fine is the same; the PSP then counts late interest from Monday and the platform from Saturday, so the PSP asks
 * the two grace days' interest less — never more; that rest stays open on the installment, as with any charge paid
 * short. "0" there would leave the whole fine and late interest to collect again; a cobv cannot say "interest from
 * Saturday" (its interest runs from its own due date, and a fine that held it would be a fine above the 2% cap).
 */
function fallsLateWith(installmentDue: string, chargeDue: string): boolean {
  return installmentDue <= chargeDue && !isLate(installmentDue, chargeDue);
}

function chosenInstallments(open: Installment[], ids: string[] | undefined): Installment[] {
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
 *  own account counts per agreement (a new agreement starts at 1). Both are taken as a sequence's nextval is, committed
 *  at once and never held by the charge's transaction (queryCommitted); a charge that then rolls back leaves a gap. */
async function nextOurNumber(run: Run, scope: Scope, account: CollectionAccount, inTransaction: boolean): Promise<number> {
  if (account.shared) {
    const [row] = await run<{ value: string }>(sql`SELECT nextval('boleto_sandbox_shared_seq')::text AS value`);
    return Number(row!.value);
  }
  const name = ourNumberSequence(account.bankCode, account.agreement);
  // The tenant's sequence of this agreement exists: the agreement is the tenant's for good (no other account may take
  // one a tenant numbered under: ./account-settings.ts), whatever its account says now.
  const [next] = await queryCommitted<{ value: number }>(sql`
    UPDATE sequences SET value = value + 1
     WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND name = ${name}
    RETURNING value`, scope.environment, inTransaction);
  if (next) return next.value;
  // Its first use: the agreement was read from the account before, and the account may have moved to another agreement
  // since, and another tenant taken this one (the PUT checks accounts and sequences, and found neither). So the
  // sequence is created only while the account still holds the agreement, under a share lock on its row: a PUT changing
  // it waits until this number is committed (and another tenant's PUT then finds the sequence), and one committed first
  // is seen — the lock re-reads the row — and nothing is numbered: 409, issue it again under the account as it is now.
  const [first] = await queryCommitted<{ value: number }>(sql`
    INSERT INTO sequences (tenant_id, environment, name, value)
    SELECT tenant_id, environment, ${name}, 1 FROM collection_accounts
     WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"
       AND bank_code = ${account.bankCode} AND agreement = ${account.agreement}
       FOR SHARE
    ON CONFLICT (tenant_id, environment, name) DO UPDATE SET value = sequences.value + 1
    RETURNING value`, scope.environment, inTransaction);
  if (!first) throw new TransientConflict("The collection account changed while the boleto was being issued: issue it again", { agreement: account.agreement });
  return first.value;
}

async function boletoFor(run: Run, scope: Scope, account: CollectionAccount, dueDate: string, amount: number, inTransaction: boolean) {
  const { freeField, ourNumber } = bankFreeField(account.agreement, await nextOurNumber(run, scope, account, inTransaction), account.wallet);
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

function pixFor(account: CollectionAccount, kind: "cob" | "cobv", amount: number, now: Date, expiresIn: number, late: { fineRate: string; monthlyLateInterestRate: string }) {
  const txid = newTxid();
  // The BR Code's location field holds at most 77 characters: base (≤ 44) + "/" + 32.
  const location = `${account.pixLocationBase}/${randomBytes(16).toString("hex")}`;
  const brcode = brCode({ location, amount, merchantName: account.beneficiaryName, merchantCity: account.city });
  return {
    kind,
    txid,
    brcode,
    qr_code: pixQrPngDataUrl(brcode),
    location,
    expires_at: kind === "cob" ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
    fine_rate: kind === "cobv" ? late.fineRate : null,
    interest_rate_monthly: kind === "cobv" ? late.monthlyLateInterestRate : null,
  };
}
