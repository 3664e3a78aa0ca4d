import type { Environment } from "@prisma/client";
import { Prisma } from "@prisma/client";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { queryRows, sql } from "@/lib/db/sql";
import { getEnv } from "@/lib/env";
import { DomainError, notFound } from "@/lib/errors";
import { dateSchema } from "@/lib/date-schema";
import { todayInBrazil } from "@/lib/clock";
import { checkSignature, type SignatureCheck } from "./provider-signature";
import { payCharge } from "./pay-charge";
import type { PaymentResponse } from "./schemas";
import { toPaymentResponse } from "./serialize";

// POST /v1/charges/notifications/{provider}: the payment provider tells us a charge was paid. No API key:
// the request is authenticated by its HMAC signature (lib/collection/provider-signature.ts) with the
// provider's secret (COLLECTION_PROVIDER_SECRETS), and idempotent by the provider's `event_id` — a repeated
// event answers the payment it already made, and nothing is applied twice. The charge is found by the
// Pix txid or the boleto's nosso número, in the environment of the address called. Money for a charge that can
// no longer be paid (paid, canceled, expired) is recorded as the contract's credit, never refused.

export const ProviderNotificationBody = z
  .strictObject({
    event_id: z.string().trim().min(1).max(100).meta({ description: "The provider's unique id of this event." }),
    type: z.literal("payment.confirmed"),
    txid: z.string().regex(/^[a-zA-Z0-9]{26,35}$/).optional().meta({ description: "Pix: the charge's txid." }),
    our_number: z.string().regex(/^\d{17}$/).optional().meta({ description: "Boleto: the charge's nosso número." }),
    amount: z.number().int().min(1).max(100_000_000_00).meta({ description: "Received, integer centavos." }),
    paid_on: dateSchema("The payment date (YYYY-MM-DD)."),
  })
  .superRefine((body, ctx) => {
    if ((body.txid === undefined) === (body.our_number === undefined)) ctx.addIssue({ code: "custom", path: ["txid"], message: "Send exactly one of txid and our_number" });
  })
  .meta({ id: "ProviderNotification" });
export type ProviderNotificationBody = z.infer<typeof ProviderNotificationBody>;

export class SignatureError extends Error {
  constructor(readonly check: Exclude<SignatureCheck, "ok">) {
    super(check === "stale" ? "The signature's timestamp is outside the 5-minute tolerance" : "The signature is missing or does not match");
  }
}

export function verifyProvider(provider: string, environment: Environment, signatureHeader: string | null, rawBody: string, now = new Date()): void {
  const secrets = getEnv().COLLECTION_PROVIDER_SECRETS[environment];
  // Own keys only: "constructor" or "__proto__" are not providers (Object's members would reach createHmac).
  const secret = Object.hasOwn(secrets, provider) ? secrets[provider] : undefined;
  if (typeof secret !== "string" || secret === "") throw notFound("Payment provider");
  const check = checkSignature(secret, signatureHeader, rawBody, Math.floor(now.getTime() / 1000));
  if (check !== "ok") throw new SignatureError(check);
}

export async function handleProviderNotification(environment: Environment, provider: string, body: ProviderNotificationBody): Promise<{ payment: PaymentResponse; replayed: boolean }> {
  // By the identifier's expression index (migration 20261128120000), not a scan of the environment's charges.
  const found = await queryRows<{ id: string; tenantId: string }>(
    body.txid
      ? sql`SELECT id, tenant_id AS "tenantId" FROM charges WHERE environment = ${environment}::"Environment" AND pix IS NOT NULL AND pix ->> 'txid' = ${body.txid} LIMIT 2`
      : sql`SELECT id, tenant_id AS "tenantId" FROM charges WHERE environment = ${environment}::"Environment" AND boleto IS NOT NULL AND boleto ->> 'our_number' = ${body.our_number ?? ""} LIMIT 2`,
  );
  if (found.length === 0) throw notFound("Charge");
  // A nosso número embeds the agreement, unique per bank; the same agreement number at two banks could repeat one:
  // never guess whose money it is.
  if (found.length > 1) throw new DomainError("conflict", "More than one charge has this identifier: send the payment to support to reconcile by hand");
  const charge = found[0]!;
  const scope = { tenantId: charge.tenantId, environment };
  // This provider's event (or one recorded before payments named their provider).
  const previous = async () => db().payment.findFirst({ where: { ...scope, providerEventId: body.event_id, OR: [{ provider }, { provider: null }] } });
  const seen = await previous();
  if (seen) return { payment: toPaymentResponse(seen), replayed: true };
  const actor = { type: "system", label: `provider:${provider}` } as const;
  const paidOn = body.paid_on > todayInBrazil() ? todayInBrazil() : body.paid_on;
  try {
    // Money for a paid, canceled or expired charge arrived anyway: it becomes the contract's credit (pay-charge.ts).
    const { payment } = await payCharge(scope, actor, charge.id, { amount: body.amount, paidOn, provider: { name: provider, eventId: body.event_id }, whenClosed: "credit" });
    return { payment, replayed: false };
  } catch (err) {
    // The same event delivered twice at once: the other delivery made the payment.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const made = await previous();
      if (made) return { payment: toPaymentResponse(made), replayed: true };
    }
    throw err;
  }
}
