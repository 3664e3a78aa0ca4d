import type { Environment } from "@prisma/client";
import { getEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";

// The collection account charges are issued under: the bank agreement for boletos and the Pix receiver.
// Sandbox: a documented default (Banco do Brasil layout, agreement 1234567, wallet 17; a sandbox Pix
// location). Production: the deployment's account from COLLECTION_* settings (lib/env.ts); without them,
// charges answer 409 `collection_not_configured`. Per-tenant accounts are set the same way for now.

export type CollectionAccount = {
  bankCode: string;
  agreement: string;
  wallet: string;
  beneficiaryName: string;
  beneficiaryDocument: string;
  pixMerchantName: string;
  pixMerchantCity: string;
  /** Where the PSP serves dynamic Pix payloads (no scheme, ≤ 44 characters): the BR Code's field 26-25 is
   *  this + "/" + a 32-character id (77 at most). */
  pixLocationBase: string;
};

export const SANDBOX_ACCOUNT: CollectionAccount = {
  bankCode: "001",
  agreement: "1234567",
  wallet: "17",
  beneficiaryName: "Credit Platform Sandbox",
  beneficiaryDocument: "11222333000181",
  pixMerchantName: "Credit Platform Sandbox",
  pixMerchantCity: "Sao Paulo",
  pixLocationBase: "pix.sandbox.credit-platform.example/qr/v2",
};

export function collectionAccount(environment: Environment): CollectionAccount {
  if (environment === "sandbox") return SANDBOX_ACCOUNT;
  const env = getEnv();
  if (!env.COLLECTION_AGREEMENT || !env.COLLECTION_BENEFICIARY_NAME || !env.COLLECTION_BENEFICIARY_DOCUMENT || !env.PIX_LOCATION_BASE) {
    throw new DomainError("collection_not_configured", "Production collection needs the COLLECTION_* and PIX_LOCATION_BASE settings of this deployment");
  }
  return {
    bankCode: env.COLLECTION_BANK_CODE,
    agreement: env.COLLECTION_AGREEMENT,
    wallet: env.COLLECTION_WALLET,
    beneficiaryName: env.COLLECTION_BENEFICIARY_NAME,
    beneficiaryDocument: env.COLLECTION_BENEFICIARY_DOCUMENT,
    pixMerchantName: env.COLLECTION_BENEFICIARY_NAME,
    pixMerchantCity: env.COLLECTION_CITY,
    pixLocationBase: env.PIX_LOCATION_BASE,
  };
}
