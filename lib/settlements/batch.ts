import { createHash, randomUUID } from "node:crypto";
import type { Prisma, SettlementBatch } from "@prisma/client";
import stringify from "safe-stable-stringify";
import { z } from "zod";
import type { Actor } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { requestTransactionOptions } from "@/lib/db/transaction";
import { withSqlTransaction } from "@/lib/db/sql";
import { getEnv } from "@/lib/env";
import { DomainError, notFound } from "@/lib/errors";
import { idSchema } from "@/lib/id-schema";
import { newId } from "@/lib/ids";
import { where, type Scope } from "@/lib/scope";
import { createSettlementIn } from "./create-settlement";
import { LeaseLost, NeedsServicesPath, settleFullReceivedSql } from "./settle-received-sql";
import { CreateSettlementBody } from "./schemas";

// POST /v1/settlements/batch: up to MAX_BATCH_ITEMS settlements, each validated and applied in its own
// transaction, with a result per item in request order. Items start in request order, a few at once (inWindow; two
// naming the same contract one after the other, so the earlier wins as it would one at a time). Exactly once, also
// across crashes and races:
// - the batch row is found again by the caller's X-Request-Id (+ the items' hash: another body → 422);
// - one request at a time holds its lease (IDEMPOTENCY_LEASE_SECONDS, renewed every third of it as items start,
//   checked under a share lock in every item's transaction: Lease below):
//   a second request while it is alive gets 409 `idempotency_in_progress`; once it lapses (the process died),
//   a replay takes the lease over;
// - an item's result row is written in the same transaction as its settlement, and its (batch, index) key is
//   unique: a replay skips every item with a result, and two holders can never both apply one.
// Items failing for a reason of their own (validation, a contract not active, …) record the problem and the
// batch goes on; anything else (the database gone) ends the request, and replaying it resumes the batch.

export const MAX_BATCH_ITEMS = 5000;
/** The lease: the same setting as the idempotency of single requests (IDEMPOTENCY_LEASE_SECONDS, default 30). */
const leaseMs = () => getEnv().IDEMPOTENCY_LEASE_SECONDS * 1000;

export const SettlementBatchBody = z
  .strictObject({
    items: z
      .array(z.unknown())
      .min(1)
      // Each item is validated on its own (a bad one is that item's failure, not the batch's 400), so the schema
      // accepts anything; the document types the items for generated clients and states the limit.
      .meta({
        description: `The settlements (each a CreateSettlementBody), at most ${MAX_BATCH_ITEMS} (413 \`batch_too_large\` above it); each validated on its own.`,
        items: { $ref: "#/components/schemas/CreateSettlementBody" },
        maxItems: MAX_BATCH_ITEMS,
      }),
  })
  .meta({ id: "SettlementBatchBody" });
export type SettlementBatchBody = z.infer<typeof SettlementBatchBody>;

/** The problem body of a failed item (the HTTP layer renders DomainErrors; services never speak HTTP). */
export type DescribeError = (err: DomainError) => Record<string, unknown>;

const BatchItemResult = z.object({
  index: z.number().int().meta({ description: "The item's position in `items` (from 0)." }),
  contract_id: z.string().nullable(),
  status: z.enum(["created", "failed"]),
  settlement_id: z.string().nullable().meta({ description: "`created`: the settlement (GET /v1/settlements/{id})." }),
  error: z.record(z.string(), z.unknown()).nullable().meta({ description: "`failed`: the problem (RFC 9457 body, as a single request would get it; field errors named `items.<index>.<field>`)." }),
});
type BatchItemResult = z.infer<typeof BatchItemResult>;

export const SettlementBatchResponse = z
  .object({
    id: z.string().meta({ example: "stb_01JDQ9E1F2G3H4J5K6M7N8P9Q0" }),
    object: z.literal("settlement_batch"),
    status: z.enum(["processing", "completed"]),
    request_id: z.string().nullable().meta({ description: "The X-Request-Id it is idempotent by." }),
    item_count: z.number().int(),
    processed: z.number().int().meta({ description: "Items with a result so far (progress while `processing`)." }),
    created: z.number().int(),
    failed: z.number().int(),
    results: z.array(BatchItemResult).meta({ description: "One per processed item, in request order." }),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: "SettlementBatch" });
export type SettlementBatchResponse = z.infer<typeof SettlementBatchResponse>;

export const SettlementBatchIdParams = z.strictObject({ id: idSchema("settlementBatch", "settlement batch") });

export async function runSettlementBatch(
  scope: Scope,
  actor: Actor,
  input: { requestId: string | null; caller: string; items: unknown[]; describe: DescribeError },
): Promise<{ replayed: boolean; batch: SettlementBatchResponse }> {
  if (input.items.length > MAX_BATCH_ITEMS) {
    throw new DomainError("batch_too_large", `A batch holds at most ${MAX_BATCH_ITEMS} items; this one has ${input.items.length}`, { max_items: MAX_BATCH_ITEMS });
  }
  const hash = createHash("sha256").update(stringify(input.items) ?? "").digest("hex");
  const token = randomUUID();
  const claiming = Date.now(); // the lease runs from here: a takeover may wait behind the items in flight of the last holder
  const claimed = await claim(scope, input.caller, input.requestId, hash, input.items.length, token);
  if (claimed.status === "completed") return { replayed: true, batch: await batchResponse(scope, claimed) };

  const done = new Set((await db().settlementBatchItem.findMany({ where: { batchId: claimed.id }, select: { index: true } })).map((r) => r.index));
  const pending = [...input.items.entries()].filter(([index]) => !done.has(index));
  const lease = new Lease(claimed.id, token, claiming);
  try {
    await inWindow(pending, itemsInFlight(), ([, raw]) => itemContractId(raw), async ([index, raw]) => {
      const release = await itemSlot();
      try {
        await lease.keep();
        await applyItem(scope, actor, lease, index, raw, input.describe);
      } finally {
        release();
      }
    });
  } catch (err) {
    if (err instanceof LeaseLost) throw inProgress();
    // Not an item's own refusal (those are recorded) but a failure of the request (the database lost, a bug): give the
    // lease back, so the client's retry continues from this item at once instead of waiting out the lease (409).
    await db()
      .settlementBatch.updateMany({ where: { id: claimed.id, leaseToken: token }, data: { leaseToken: null, leaseExpiresAt: null } })
      .catch(() => undefined); // the database itself may be what failed: then the lease lapses
    throw err;
  }
  const completed = await db().settlementBatch.updateMany({ where: { id: claimed.id, leaseToken: token }, data: { status: "completed", completedAt: new Date(), leaseToken: null, leaseExpiresAt: null } });
  // Taken over after the last item (this request stalled past its lease): the batch is the new holder's to finish.
  if (completed.count !== 1) throw inProgress();
  return { replayed: false, batch: await batchResponse(scope, (await db().settlementBatch.findUnique({ where: { id: claimed.id } }))!) };
}

/** Items applied at once: one item's database round trips overlap the next one's work in node (a batch of 1,000
 *  settlements: 4.15 → 3.1 s in process). At most a third of the pool, shared by every batch the process runs
 *  (itemSlot), so batches leave the rest to other requests. */
const itemsInFlight = () => Math.max(1, Math.min(3, Math.floor(getEnv().DATABASE_POOL_SIZE / 3)));

const slots = { free: undefined as number | undefined, waiting: [] as (() => void)[] };
/** One of the process's itemsInFlight() slots, first come first served; call what it returns to give it back. */
async function itemSlot(): Promise<() => void> {
  slots.free ??= itemsInFlight();
  if (slots.free > 0) slots.free -= 1;
  else await new Promise<void>((resolve) => slots.waiting.push(resolve));
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const next = slots.waiting.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else slots.free! += 1;
  };
}

/** Runs `apply` over the items in request order, at most `limit` at once and never two with the same key (a contract
 *  named twice: the later item starts once the earlier has its result, as one at a time, so the first one wins).
 *  The first failure (not an item's own refusal: those are recorded) starts nothing more and is thrown once the
 *  items already started have settled. */
export async function inWindow<T>(items: T[], limit: number, keyOf: (item: T) => string | null, apply: (item: T) => Promise<void>): Promise<void> {
  const running = new Set<Promise<void>>();
  const busy = new Set<string>();
  let failure: { err: unknown } | undefined;
  for (const item of items) {
    const key = keyOf(item);
    while (!failure && (running.size >= limit || (key !== null && busy.has(key)))) await Promise.race(running);
    if (failure) break;
    if (key !== null) busy.add(key);
    const run: Promise<void> = apply(item)
      .catch((err: unknown) => {
        failure ??= { err };
      })
      .finally(() => {
        running.delete(run);
        if (key !== null) busy.delete(key);
      });
    running.add(run);
  }
  await Promise.all(running);
  if (failure) throw failure.err;
}

/** The contract an item names (as its result records it, trimmed as the schema trims it), whatever else the item holds. */
function itemContractId(raw: unknown): string | null {
  return typeof raw === "object" && raw !== null && typeof (raw as { contract_id?: unknown }).contract_id === "string" ? (raw as { contract_id: string }).contract_id.trim().slice(0, 64) : null;
}

const inProgress = () => new DomainError("idempotency_in_progress", "This batch is being processed by another request; retry later with the same X-Request-Id");

/** The caller's batch of this X-Request-Id (its own, per credential and permission set: another key of the tenant
 *  sending the same id neither replays it nor takes over its lease), claimed for this request. */
async function claim(scope: Scope, caller: string, requestId: string | null, hash: string, itemCount: number, token: string): Promise<SettlementBatch> {
  const leaseExpiresAt = new Date(Date.now() + leaseMs());
  const fresh = { id: newId("settlementBatch"), ...where(scope), caller, requestId, requestHash: hash, itemCount, status: "processing", leaseToken: token, leaseExpiresAt };
  if (requestId === null) return db().settlementBatch.create({ data: fresh });
  const [inserted] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO settlement_batches (id, tenant_id, environment, caller, request_id, request_hash, item_count, status, lease_token, lease_expires_at, updated_at)
    VALUES (${fresh.id}, ${scope.tenantId}, ${scope.environment}::"Environment", ${caller}, ${requestId}, ${hash}, ${itemCount}, 'processing', ${token}, ${leaseExpiresAt}, now())
    ON CONFLICT (tenant_id, environment, caller, request_id) DO NOTHING
    RETURNING id`;
  const row = (await db().settlementBatch.findFirst({ where: { ...where(scope), caller, requestId } }))!;
  if (inserted) return row;
  if (row.requestHash !== hash) throw new DomainError("idempotency_key_reused", "This X-Request-Id was used for a batch with other items");
  if (row.status === "completed") return row;
  // A live lease belongs to a request still at work; a lapsed one to a request that died: take it over.
  const taken = await db().settlementBatch.updateMany({
    where: { id: row.id, status: "processing", OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: new Date() } }] },
    data: { leaseToken: token, leaseExpiresAt },
  });
  if (taken.count !== 1) throw inProgress();
  return { ...row, leaseToken: token, leaseExpiresAt };
}

/** This request's hold on its batch. Renewed every third of its length, before an item starts (not in every item's
 *  transaction: items in flight together would queue on the batch's row). Each item's transaction checks it under a
 *  share lock (fence), so a request taking a lapsed lease over waits for the items in flight, and every item after that
 *  sees the new holder. */
class Lease {
  private renewing: Promise<void> | undefined;
  constructor(
    readonly batchId: string,
    readonly token: string,
    /** When the lease was last set: its claim started then. */
    private renewedAt: number,
  ) {}

  keep(): Promise<void> {
    if (Date.now() - this.renewedAt < leaseMs() / 3) return Promise.resolve();
    this.renewing ??= this.renew().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renew(): Promise<void> {
    const at = Date.now();
    const renewed = await db().settlementBatch.updateMany({ where: { id: this.batchId, leaseToken: this.token }, data: { leaseExpiresAt: new Date(at + leaseMs()) } });
    if (renewed.count !== 1) throw new LeaseLost();
    this.renewedAt = at;
  }
}

/** In the item's transaction: check that this request still holds the lease (held until the transaction ends). */
async function fence(tx: Tx, lease: Lease): Promise<void> {
  const held = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM settlement_batches WHERE id = ${lease.batchId} AND lease_token = ${lease.token} FOR SHARE`;
  if (held.length !== 1) throw new LeaseLost();
}

async function applyItem(scope: Scope, actor: Actor, lease: Lease, index: number, raw: unknown, describe: DescribeError): Promise<void> {
  const batchId = lease.batchId;
  const contractId = itemContractId(raw);
  const record = (tx: Tx, result: { status: "created" | "failed"; settlementId?: string; error?: Record<string, unknown> }) =>
    tx.settlementBatchItem.create({
      data: { batchId, index, contractId, status: result.status, settlementId: result.settlementId ?? null, error: (result.error as Prisma.InputJsonObject | undefined) ?? undefined },
    });
  const failed = async (err: DomainError) => {
    await db().$transaction(async (tx) => {
      await fence(tx, lease);
      await record(tx, { status: "failed", error: describe(itemError(err, index)) });
    }, requestTransactionOptions());
  };
  const parsed = CreateSettlementBody.safeParse(raw);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ param: ["items", index, ...issue.path].join("."), in: "body", message: issue.message }));
    return failed(new DomainError("validation_error", "One or more fields are invalid", { errors }));
  }
  try {
    if (parsed.data.type === "full" && parsed.data.payment_method === "received") {
      // The common case of a batch, in plain SQL (same rules and figures: lib/settlements/settle-received-sql.ts);
      // a contract with open charges to cancel, or on offer in a pending assignment (it leaves the offer), takes the
      // services' path below (the SQL path ends an averbação itself).
      const done = await withSqlTransaction(async () => {
        await settleFullReceivedSql(scope, actor, parsed.data, { batchId, index, contractId, leaseToken: lease.token });
        return true;
      }).catch((err: unknown) => {
        if (err instanceof NeedsServicesPath) return false;
        throw err;
      });
      if (done) return;
    }
    await db().$transaction(async (tx) => {
      await fence(tx, lease);
      const settlement = await createSettlementIn(tx, scope, actor, parsed.data, batchId);
      await record(tx, { status: "created", settlementId: settlement.id });
    }, requestTransactionOptions()); // Prisma's 2 s / 5 s defaults ended the whole batch for an item waiting on a contract's lock
  } catch (err) {
    if (err instanceof DomainError) return failed(err);
    throw err;
  }
}

/** Field errors of an item named as the batch body names them: `items.<index>.<field>`. */
function itemError(err: DomainError, index: number): DomainError {
  const errors = (err.details?.errors as { param: string; in: string; message: string }[] | undefined)?.map((e) => ({
    ...e,
    param: e.param.startsWith("items.") ? e.param : `items.${index}.${e.param}`,
  }));
  return errors ? new DomainError(err.code, err.message, { ...err.details, errors }) : err;
}

async function batchResponse(scope: Scope, row: SettlementBatch): Promise<SettlementBatchResponse> {
  const items = await db().settlementBatchItem.findMany({ where: { batchId: row.id }, orderBy: { index: "asc" } });
  const created = items.filter((i) => i.status === "created").length;
  return {
    id: row.id,
    object: "settlement_batch",
    status: row.status as SettlementBatchResponse["status"],
    request_id: row.requestId,
    item_count: row.itemCount,
    processed: items.length,
    created,
    failed: items.length - created,
    results: items.map((i) => ({
      index: i.index,
      contract_id: i.contractId,
      status: i.status as BatchItemResult["status"],
      settlement_id: i.settlementId,
      error: (i.error as Record<string, unknown> | null) ?? null,
    })),
    environment: scope.environment,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

export async function getSettlementBatch(scope: Scope, id: string): Promise<SettlementBatchResponse> {
  const row = await db().settlementBatch.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Settlement batch");
  return batchResponse(scope, row);
}
