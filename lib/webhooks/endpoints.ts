import type { Prisma, WebhookEndpoint } from "@prisma/client";
import { writeAudit, type Actor } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { getEnv } from "@/lib/env";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { DISABLED, failPendingDeliveries, UNSUBSCRIBED } from "./deliveries";
import { checkSubscribable } from "./event-access";
import { TEST_EVENT_TYPE } from "./event-catalog";
import {
  MAX_ENDPOINTS_PER_ENVIRONMENT,
  ROTATION_GRACE_SECONDS,
  type CreateWebhookEndpointBody,
  type ListWebhookEndpointsQuery,
  type UpdateWebhookEndpointBody,
  type WebhookEndpointResponse,
  type WebhookEndpointWithSecret,
} from "./schemas";
import { openSecret, sealSecret } from "@/lib/security/secret-box";
import { newSigningSecret } from "./signing";
import { checkWebhookUrlWithin } from "./url-safety";

// Webhook endpoints of a tenant's environment (the credential's). The URL is checked for SSRF here and again
// before every delivery; the signing secret is generated here, stored sealed and returned once (creation and
// rotation). Every change is audited. A deleted endpoint is only marked (deleted_at) by the request — its delivery log
// can be 90 days of a busy receiver's, too much for one statement — and is gone for everything from then on: every
// read here goes through `live`, the worker neither claims for it nor fans out to it, and the retention purger removes
// its log in batches and then the row (lib/webhooks/retention.ts).

const ALL = "*";

/** The scope's endpoints that are not deleted: the only ones any API, count or lookup sees. */
const live = (scope: Scope) => ({ ...where(scope), deletedAt: null });

/** `permissions`: a /v1 credential's — it subscribes only to events it may read (lib/webhooks/event-access.ts); the
 *  panel's owners and admins may subscribe to any (undefined). */
export async function createEndpoint(scope: Scope, actor: Actor, body: CreateWebhookEndpointBody, permissions?: readonly string[]): Promise<WebhookEndpointWithSecret> {
  if (permissions) checkSubscribable(permissions, body.event_types);
  const url = await vetUrl(scope, body.url);
  const id = newId("webhookEndpoint");
  const secret = newSigningSecret();
  return db().$transaction(async (tx) => {
    // One count per tenant and environment at a time (the lock), so racing creates cannot pass the cap.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook_endpoints:${scope.tenantId}:${scope.environment}`}))`;
    if ((await tx.webhookEndpoint.count({ where: live(scope) })) >= MAX_ENDPOINTS_PER_ENVIRONMENT) {
      throw new DomainError("conflict", `At most ${MAX_ENDPOINTS_PER_ENVIRONMENT} webhook endpoints per environment; delete one first`);
    }
    const enabled = body.enabled ?? true;
    const row = await tx.webhookEndpoint.create({
      data: {
        id,
        ...where(scope),
        url,
        description: body.description ?? null,
        eventTypes: storedTypes(body.event_types),
        enabled,
        disabledReason: enabled ? null : "manual",
        disabledAt: enabled ? null : new Date(),
        secretCiphertext: sealSecret(secret, id),
      },
    });
    await audit(tx, scope, actor, "webhook_endpoint.created", row, { url, event_types: body.event_types });
    return { ...toEndpointResponse(row), secret };
  });
}

export async function getEndpoint(scope: Scope, id: string): Promise<WebhookEndpointResponse> {
  return toEndpointResponse(await find(db(), scope, id));
}

export async function listEndpoints(scope: Scope, query: ListWebhookEndpointsQuery) {
  const after = decodeCursor(scope, query.cursor, "webhookEndpoint");
  const filters: Prisma.WebhookEndpointWhereInput = { ...live(scope), ...(query.enabled ? { enabled: query.enabled === "true" } : {}) };
  const page = await paginate(query.limit, (args) => db().webhookEndpoint.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toEndpointResponse);
}

export async function updateEndpoint(scope: Scope, actor: Actor, id: string, body: UpdateWebhookEndpointBody, permissions?: readonly string[]): Promise<WebhookEndpointResponse> {
  if (permissions) {
    checkSubscribable(permissions, body.event_types);
    checkRedirect(permissions, body, await find(db(), scope, id)); // before the URL is resolved
  }
  const url = body.url === undefined ? undefined : await vetUrl(scope, body.url);
  return db().$transaction(async (tx) => {
    const current = await find(tx, scope, id, { lock: true });
    if (permissions) checkRedirect(permissions, body, current);
    const data: Prisma.WebhookEndpointUpdateInput = {
      ...(url !== undefined ? { url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.event_types !== undefined ? { eventTypes: storedTypes(body.event_types) } : {}),
    };
    if (body.enabled === true && !current.enabled) Object.assign(data, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    if (body.enabled === false && current.enabled) Object.assign(data, { enabled: false, disabledReason: "manual", disabledAt: new Date() });
    const row = await tx.webhookEndpoint.update({ where: { id }, data });
    if (body.enabled === false && current.enabled) await failPendingDeliveries(tx, id, DISABLED);
    // Types it no longer subscribes to are not sent to it any more, those already queued included (they would otherwise
    // follow a later change of its URL by someone who may not read them).
    if (body.event_types !== undefined && row.eventTypes.length > 0) await failPendingDeliveries(tx, id, UNSUBSCRIBED, [...row.eventTypes, TEST_EVENT_TYPE]);
    // Where its events went and which, before and after: redirecting a feed that carries CPFs must leave a trace.
    const types = (r: WebhookEndpoint) => (r.eventTypes.length === 0 ? [ALL] : r.eventTypes);
    await audit(tx, scope, actor, "webhook_endpoint.updated", row, {
      changed: Object.keys(body),
      ...(body.url !== undefined ? { url_before: current.url, url_after: row.url } : {}),
      ...(body.event_types !== undefined ? { event_types_before: types(current), event_types_after: types(row) } : {}),
      ...(body.enabled !== undefined ? { enabled_before: current.enabled, enabled_after: row.enabled } : {}),
    });
    return toEndpointResponse(row);
  });
}

/** Pointing an endpoint elsewhere or turning it back on decides who receives its events from now on — the deliveries
 *  already queued for it included, which carry the types it had: the credential must be able to read every type it
 *  carries now (a `webhooks:write` key redirecting a customer.* endpoint an admin made would otherwise receive CPFs it
 *  may not read), whatever types it asks for along (those are checked as a subscription). */
function checkRedirect(permissions: readonly string[], body: UpdateWebhookEndpointBody, current: WebhookEndpoint): void {
  const redirects = body.url !== undefined || (body.enabled === true && !current.enabled);
  if (redirects) checkCarried(permissions, current);
}

/** The credential may read every event type the endpoint carries (all of them when it subscribes to every type). */
export function checkCarried(permissions: readonly string[], current: WebhookEndpoint): void {
  checkSubscribable(permissions, current.eventTypes.length === 0 ? [ALL] : current.eventTypes);
}

/** Marks the endpoint deleted — one row, whatever the size of its log: from now on it is 404 everywhere, no event
 *  fans out to it and its queued deliveries are never claimed. Disabled too, as it would be by hand: an attempt in
 *  flight meanwhile records what the receiver did and then ends instead of being retried (worker.ts endUnwanted).
 *  Its deliveries and attempts are removed in batches by the retention purger, then the row itself
 *  (lib/webhooks/retention.ts purgeDeletedEndpoints): one statement cascading to all of them outlasted the statement
 *  timeout for a busy, long-failing endpoint, which then could never be deleted. */
export async function deleteEndpoint(scope: Scope, actor: Actor, id: string) {
  return db().$transaction(async (tx) => {
    const row = await find(tx, scope, id, { lock: true });
    const now = new Date();
    await tx.webhookEndpoint.update({ where: { id }, data: { deletedAt: now, enabled: false, disabledReason: row.disabledReason ?? "manual", disabledAt: row.disabledAt ?? now } });
    await audit(tx, scope, actor, "webhook_endpoint.deleted", row, { url: row.url });
    return { id, object: "webhook_endpoint" as const, deleted: true as const };
  });
}

/** A new secret signs from now on; the current one keeps signing beside it for the grace period. Whoever holds the
 *  secret can sign as the platform to the endpoint's receiver: an API credential must be able to read every type the
 *  endpoint carries (`permissions`; the panel's owners and admins pass none).
 *  One previous secret at a time: while one is still in its grace period, another rotation with a grace period would
 *  drop it at once — under a receiver that may not have switched yet — so it is refused (409); a rotation with
 *  `grace_period_seconds: 0` (a leaked secret) is always allowed and drops both. */
export async function rotateSecret(scope: Scope, actor: Actor, id: string, graceSeconds = ROTATION_GRACE_SECONDS, permissions?: readonly string[]): Promise<WebhookEndpointWithSecret> {
  const secret = newSigningSecret();
  return db().$transaction(async (tx) => {
    const current = await find(tx, scope, id, { lock: true });
    if (permissions) checkCarried(permissions, current);
    const keepPrevious = graceSeconds > 0;
    if (keepPrevious && current.previousSecretCiphertext && current.previousSecretExpiresAt && current.previousSecretExpiresAt > new Date()) {
      throw new DomainError("conflict", "The previous secret is still in its grace period: rotate again after it ends, or with grace_period_seconds 0 to drop both old secrets now", {
        previous_secret_expires_at: current.previousSecretExpiresAt.toISOString(),
      });
    }
    const row = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secretCiphertext: sealSecret(secret, id),
        previousSecretCiphertext: keepPrevious ? current.secretCiphertext : null,
        previousSecretExpiresAt: keepPrevious ? new Date(Date.now() + graceSeconds * 1000) : null,
      },
    });
    await audit(tx, scope, actor, "webhook_endpoint.secret_rotated", row, { grace_period_seconds: graceSeconds });
    return { ...toEndpointResponse(row), secret };
  });
}

/** The secrets that sign a delivery now: the current one, and the previous one during its grace period. */
export function signingSecrets(row: Pick<WebhookEndpoint, "id" | "secretCiphertext" | "previousSecretCiphertext" | "previousSecretExpiresAt">, now = new Date()): string[] {
  const secrets = [openSecret(row.secretCiphertext, row.id)];
  if (row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) secrets.push(openSecret(row.previousSecretCiphertext, row.id));
  return secrets;
}

/** The scope's endpoint, 404 when there is none or it was deleted; `lock` takes its row lock first (a deletion holds it
 *  too, so a change waiting on it then finds the endpoint deleted). */
export async function find(client: Tx, scope: Scope, id: string, options: { lock?: boolean } = {}): Promise<WebhookEndpoint> {
  if (options.lock) await client.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${id} AND tenant_id = ${scope.tenantId} FOR UPDATE`;
  const row = await client.webhookEndpoint.findFirst({ where: { id, ...live(scope) } });
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

async function vetUrl(scope: Scope, raw: string): Promise<string> {
  const env = getEnv();
  // The attempt's deadline here too: a receiver's stalled name server must not hold the request (and its connection).
  const check = await checkWebhookUrlWithin(raw, { environment: scope.environment, allowLoopback: env.WEBHOOKS_SANDBOX_ALLOW_LOOPBACK, timeoutMs: env.WEBHOOK_TIMEOUT_MS });
  if (!check.ok) throw invalidField("url", check.reason);
  return check.url.toString();
}

const storedTypes = (types: string[]): string[] => (types.includes(ALL) ? [] : [...types].sort());

function audit(tx: Tx, scope: Scope, actor: Actor, action: string, row: WebhookEndpoint, metadata: Prisma.InputJsonObject) {
  return writeAudit(tx, { ...where(scope), actor, action, target: { type: "webhook_endpoint", id: row.id }, metadata });
}

export function toEndpointResponse(row: WebhookEndpoint): WebhookEndpointResponse {
  return {
    id: row.id,
    object: "webhook_endpoint",
    url: row.url,
    description: row.description,
    event_types: row.eventTypes.length === 0 ? [ALL] : row.eventTypes,
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : ((row.disabledReason ?? "manual") as "manual" | "gone" | "failing"),
    disabled_at: row.disabledAt?.toISOString() ?? null,
    failing_since: row.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt.toISOString() : null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
