import { z } from "zod";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { parseCnpj } from "@/lib/customers/document";
import { db } from "@/lib/db/client";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { where, type Scope } from "@/lib/scope";
import { fromRow, ourNumberSequence, SANDBOX_ACCOUNT, type CollectionAccount } from "./account";
import { normalizeText } from "./pix-brcode";

// GET/PUT /v1/collection-account: the tenant's collection account in the credential's environment. Changing
// it redirects where borrowers' money goes, so PUT needs `collections:admin` (granted only by name) and is
// audited with the previous values. Charges already issued keep the account they were issued under.

/** Text the Pix BR Code carries (merchant name, city): what is left once accents and other characters go must not be
 *  empty — fields 59 and 60 of length 0 make a BR Code no PSP reads. */
const brCodeText = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // An empty value is min(1)'s to report (one message per field).
    .refine((text) => text === "" || normalizeText(text, max) !== "", `Must contain a letter (A to Z, accents allowed) or a digit: the Pix BR Code carries the ${what} without other characters`);

export const CollectionAccountBody = z
  .strictObject({
    bank_code: z.enum(["001"]).meta({ description: "FEBRABAN bank code. 1.4.0 issues boletos in Banco do Brasil's layout for 7-digit agreements (`001`)." }),
    agreement: z.string().regex(/^\d{7}$/, "7 digits").meta({ description: "The bank agreement (convênio), 7 digits; one account per agreement in each environment.", example: "2345678" }),
    wallet: z.enum(["17", "18"]).meta({ description: "The wallet (carteira)." }),
    beneficiary_name: brCodeText("name", 100).meta({
      description: "The beneficiary (cedente) printed on the boleto; without accents and other symbols, its first 25 characters are the Pix merchant name, so it must contain a letter (A to Z, accents allowed) or a digit.",
      example: "Crédito Fácil SCD S.A.",
    }),
    beneficiary_document: z.string().trim().min(14).max(18).meta({ description: "The beneficiary's CNPJ, with or without punctuation.", example: "11.222.333/0001-81" }),
    city: brCodeText("city", 60).meta({ description: "The beneficiary's city; without accents and other symbols, its first 15 characters are the Pix merchant city, so it must contain a letter (A to Z, accents allowed) or a digit.", example: "São Paulo" }),
    pix_location_base: z
      .string()
      .max(44)
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+(\/[A-Za-z0-9._~-]+)*$/, "A host and path without scheme, e.g. pix.example-psp.com.br/qr/v2")
      .meta({ description: "Where the receiver's PSP serves dynamic Pix payloads: host and path without scheme, at most 44 characters (the BR Code location adds `/` and a 32-character id).", example: "pix.example-psp.com.br/qr/v2" }),
  })
  .meta({ id: "CollectionAccountBody" });
export type CollectionAccountBody = z.infer<typeof CollectionAccountBody>;

export const CollectionAccountResponse = z
  .object({
    object: z.literal("collection_account"),
    bank_code: z.string(),
    agreement: z.string(),
    wallet: z.string(),
    beneficiary_name: z.string(),
    beneficiary_document: z.string().meta({ description: "CNPJ, 14 characters." }),
    city: z.string(),
    pix_location_base: z.string(),
    shared_default: z.boolean().meta({ description: "true: the sandbox's shared default account (no account of this tenant is set)." }),
    environment: z.enum(["sandbox", "production"]),
    updated_at: z.string().nullable().meta({ description: "When this tenant's account was last set; null for the shared default." }),
  })
  .meta({ id: "CollectionAccount" });
export type CollectionAccountResponse = z.infer<typeof CollectionAccountResponse>;

function toResponse(scope: Scope, account: CollectionAccount, updatedAt: Date | null): CollectionAccountResponse {
  return {
    object: "collection_account",
    bank_code: account.bankCode,
    agreement: account.agreement,
    wallet: account.wallet,
    beneficiary_name: account.beneficiaryName,
    beneficiary_document: account.beneficiaryDocument,
    city: account.city,
    pix_location_base: account.pixLocationBase,
    shared_default: account.shared,
    environment: scope.environment,
    updated_at: updatedAt?.toISOString() ?? null,
  };
}

/** The environment's account (the sandbox's shared default when it has none), or null: a production one not set yet. */
export async function findCollectionAccount(scope: Scope): Promise<CollectionAccountResponse | null> {
  const row = await db().collectionAccount.findUnique({ where: { tenantId_environment: where(scope) } });
  if (row) return toResponse(scope, fromRow(row), row.updatedAt);
  return scope.environment === "sandbox" ? toResponse(scope, SANDBOX_ACCOUNT, null) : null;
}

export async function getCollectionAccount(scope: Scope): Promise<CollectionAccountResponse> {
  const account = await findCollectionAccount(scope);
  if (!account) throw notFound("Collection account");
  return account;
}

/** `expectedUpdatedAt`: the `updated_at` of the account the person saw (null: none of the tenant's own — not set, or the
 *  sandbox's shared default), from the panel's form: when the account changed since, nothing is saved (409) — a
 *  stale form would silently put back the agreement or Pix receiver another admin had just changed. */
export async function putCollectionAccount(scope: Scope, actor: Actor, body: CollectionAccountBody, expectedUpdatedAt?: string | null): Promise<CollectionAccountResponse> {
  const beneficiaryDocument = parseCnpj(body.beneficiary_document, "beneficiary_document");
  if (body.bank_code === SANDBOX_ACCOUNT.bankCode && body.agreement === SANDBOX_ACCOUNT.agreement) {
    throw invalidField("agreement", "1234567 is the shared sandbox account's agreement");
  }
  const data = {
    bankCode: body.bank_code,
    agreement: body.agreement,
    wallet: body.wallet,
    beneficiaryName: body.beneficiary_name,
    beneficiaryDocument,
    city: body.city,
    pixLocationBase: body.pix_location_base,
  };
  return db().$transaction(async (tx) => {
    // One save of an environment's account at a time (it may not exist yet: no row to lock).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`collection_account:${scope.tenantId}:${scope.environment}`}))`;
    const before = await tx.collectionAccount.findUnique({ where: { tenantId_environment: where(scope) } });
    if (expectedUpdatedAt !== undefined && (before?.updatedAt.toISOString() ?? null) !== expectedUpdatedAt) {
      throw new DomainError("conflict", "The collection account was changed since it was shown: reload it and make your change again", {
        updated_at: before?.updatedAt.toISOString() ?? null,
      });
    }
    // Another tenant's account has it now, or had it when it issued boletos (their nosso números carry
    // the agreement, so a second owner would number charges that a notification could not tell apart). A number taken
    // for a charge that then rolled back counts too (it is committed on its own): that tenant held the agreement then.
    const taken =
      (await tx.collectionAccount.findFirst({
        where: { environment: scope.environment, bankCode: data.bankCode, agreement: data.agreement, NOT: { tenantId: scope.tenantId } },
        select: { tenantId: true },
      })) ??
      (await tx.sequence.findFirst({
        where: { environment: scope.environment, name: ourNumberSequence(data.bankCode, data.agreement), NOT: { tenantId: scope.tenantId } },
        select: { tenantId: true },
      }));
    if (taken) throw invalidField("agreement", "This agreement belongs to another collection account");
    const row = await tx.collectionAccount.upsert({ where: { tenantId_environment: where(scope) }, create: { ...where(scope), ...data }, update: data });
    await writeAudit(tx, {
      ...where(scope),
      actor,
      action: before ? "collection_account.updated" : "collection_account.created",
      target: { type: "collection_account", id: scope.environment },
      metadata: { before: before ? toResponse(scope, fromRow(before), before.updatedAt) : null, after: toResponse(scope, fromRow(row), row.updatedAt) },
    });
    return toResponse(scope, fromRow(row), row.updatedAt);
  });
}
