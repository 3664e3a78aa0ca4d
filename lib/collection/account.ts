import type { CollectionAccount as AccountRow } from "@prisma/client";
import type { Tx } from "@/lib/db/client";
import { DomainError } from "@/lib/errors";
import { where, type Scope } from "@/lib/scope";

// The collection account charges are issued under: the bank agreement for boletos and the Pix receiver,
// one per tenant and environment (PUT /v1/collection-account, lib/collection/account-settings.ts).
// Sandbox tenants that set none use the shared, documented default below (Banco do Brasil layout,
// agreement 1234567, wallet 17, a sandbox Pix location); its boleto sequence spans tenants so that a nosso
// número names one charge. Production without an account: 409 `collection_not_configured`.

export type CollectionAccount = {
  bankCode: string;
  agreement: string;
  wallet: string;
  beneficiaryName: string;
  /** The beneficiary's CNPJ, 14 characters. */
  beneficiaryDocument: string;
  city: string;
  /** Where the PSP serves dynamic Pix payloads (no scheme, ≤ 44 characters): the BR Code's field 26-25 is
   *  this + "/" + a 32-character id (77 at most). */
  pixLocationBase: string;
  /** The shared sandbox default (not a tenant's own account). */
  shared: boolean;
};

export const SANDBOX_ACCOUNT: CollectionAccount = {
  bankCode: "001",
  agreement: "1234567",
  wallet: "17",
  beneficiaryName: "Credit Platform Sandbox",
  beneficiaryDocument: "11222333000181",
  city: "Sao Paulo",
  pixLocationBase: "pix.sandbox.credit-platform.example/qr/v2",
  shared: true,
};

export function fromRow(row: Pick<AccountRow, "bankCode" | "agreement" | "wallet" | "beneficiaryName" | "beneficiaryDocument" | "city" | "pixLocationBase">): CollectionAccount {
  return {
    bankCode: row.bankCode,
    agreement: row.agreement,
    wallet: row.wallet,
    beneficiaryName: row.beneficiaryName,
    beneficiaryDocument: row.beneficiaryDocument,
    city: row.city,
    pixLocationBase: row.pixLocationBase,
    shared: false,
  };
}

/** The name of an agreement's nosso número sequence (table `sequences`, row of the tenant that issues under it). */
export const ourNumberSequence = (bankCode: string, agreement: string) => `boleto-our-number:${bankCode}:${agreement}`;

/** The account a new charge of this tenant and environment is issued under. */
export async function collectionAccount(tx: Tx, scope: Scope): Promise<CollectionAccount> {
  const row = await tx.collectionAccount.findUnique({ where: { tenantId_environment: where(scope) } });
  return accountOrDefault(scope, row && fromRow(row));
}

/** The tenant's own account when it has one; else the sandbox's shared default, or 409 in production. */
export function accountOrDefault(scope: Scope, own: CollectionAccount | null): CollectionAccount {
  if (own) return own;
  if (scope.environment === "sandbox") return SANDBOX_ACCOUNT;
  throw new DomainError("collection_not_configured", "This tenant has no production collection account: set it with PUT /v1/collection-account");
}
