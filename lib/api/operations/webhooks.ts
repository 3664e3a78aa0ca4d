import { listEnvelope } from "@/lib/pagination";
import { MAX_ATTEMPTS } from "@/lib/webhooks/retry-schedule";
import {
  CreateWebhookEndpointBody,
  DeletedWebhookEndpoint,
  DeliveryIdParams,
  DeliveryResponse,
  EventIdParams,
  EventResponse,
  ListDeliveriesQuery,
  ListEventsQuery,
  ListWebhookEndpointsQuery,
  MAX_ENDPOINTS_PER_ENVIRONMENT,
  MAX_RECOVERED_DELIVERIES,
  RecoverEndpointBody,
  RecoveryResponse,
  RotateSecretBody,
  UpdateWebhookEndpointBody,
  WebhookEndpointIdParams,
  WebhookEndpointResponse,
  WebhookEndpointWithSecret,
} from "@/lib/webhooks/schemas";
import { defineOperation } from "../operation";
import { EVENT_EXAMPLE, WEBHOOK_DELIVERY_EXAMPLE, WEBHOOK_ENDPOINT_EXAMPLE, WEBHOOK_ENDPOINT_WITH_SECRET_EXAMPLE } from "./examples";

const tags = ["Webhooks"];
const endpointOne = { description: "The endpoint.", schema: WebhookEndpointResponse, example: WEBHOOK_ENDPOINT_EXAMPLE };
const withSecret = (description: string) => ({ description, schema: WebhookEndpointWithSecret, example: WEBHOOK_ENDPOINT_WITH_SECRET_EXAMPLE });
const deliveryOne = { description: "The delivery.", schema: DeliveryResponse, example: WEBHOOK_DELIVERY_EXAMPLE };
const deliveryListExample = Object.fromEntries(Object.entries(WEBHOOK_DELIVERY_EXAMPLE).filter(([key]) => key !== "attempts"));

const ACCESS =
  " Events carry their module's objects, so a credential reads — lists, fetches, sees in a delivery's body, subscribes to — only the event types whose resource it may read (`customer.*` needs `customers:read`, `charge.*` and `contract.credit_applied` (a payment) `collections:read`, …; coarse `read` grants all): others are left out of lists, and asking for one is 403.";

export const createWebhookEndpointOperation = defineOperation({
  operationId: "createWebhookEndpoint",
  sealResponse: true,
  method: "POST",
  path: "/v1/webhook-endpoints",
  summary: "Register a webhook endpoint; its signing secret is in this response only",
  description:
    "Events of the credential's environment are POSTed to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, " +
    "`webhook-signature`) with the `secret` returned here — store it; it is never shown again (rotate to get a new one). Production " +
    "URLs must be https and resolve only to public addresses: loopback, private, link-local (169.254.169.254 included), unique-local, " +
    "multicast and reserved addresses are refused (400 `validation_error` on `url`), here and again before every delivery. Events from " +
    `the endpoint's creation on are delivered. At most ${MAX_ENDPOINTS_PER_ENVIRONMENT} endpoints per environment (409 \`conflict\`). ` +
    "Each event type subscribed to needs its resource's read permission (`[\"*\"]`: all of them; 403 `forbidden` otherwise).",
  tags,
  auth: "bearer",
  permission: "webhooks:write",
  body: CreateWebhookEndpointBody,
  responses: { 201: withSecret("The endpoint, with its signing secret (shown once).") },
  errors: [409],
});

export const listWebhookEndpointsOperation = defineOperation({
  operationId: "listWebhookEndpoints",
  method: "GET",
  path: "/v1/webhook-endpoints",
  summary: "List webhook endpoints, newest first (filter: enabled)",
  tags,
  auth: "bearer",
  permission: "webhooks:read",
  query: ListWebhookEndpointsQuery,
  responses: { 200: { description: "A page of endpoints (never their secrets).", schema: listEnvelope(WebhookEndpointResponse) } },
});

export const getWebhookEndpointOperation = defineOperation({
  operationId: "getWebhookEndpoint",
  method: "GET",
  path: "/v1/webhook-endpoints/{id}",
  summary: "Get a webhook endpoint",
  tags,
  auth: "bearer",
  permission: "webhooks:read",
  params: WebhookEndpointIdParams,
  responses: { 200: endpointOne },
  errors: [404],
});

export const updateWebhookEndpointOperation = defineOperation({
  operationId: "updateWebhookEndpoint",
  method: "PATCH",
  path: "/v1/webhook-endpoints/{id}",
  summary: "Change an endpoint's URL, event types or description, or enable / disable it",
  description:
    "A new `url` is checked as at creation. Disabling ends the endpoint's pending deliveries (`failed`); events while disabled are not " +
    "delivered (queue them with POST /v1/webhook-endpoints/{id}/recover once it is enabled again, or read them with GET /v1/events). Enabling an endpoint the platform disabled (410, or failing for 3 days) clears the reason. " +
    "Narrowing `event_types` ends its pending deliveries of the types dropped (`failed`). A new `url` or enabling it again is 403 unless " +
    "the credential may read every event type the endpoint carries now (before this request's `event_types` apply)." +
    ACCESS,
  tags,
  auth: "bearer",
  permission: "webhooks:write",
  params: WebhookEndpointIdParams,
  body: UpdateWebhookEndpointBody,
  responses: { 200: endpointOne },
  errors: [403, 404],
});

export const deleteWebhookEndpointOperation = defineOperation({
  operationId: "deleteWebhookEndpoint",
  method: "DELETE",
  path: "/v1/webhook-endpoints/{id}",
  summary: "Delete a webhook endpoint and its delivery log",
  tags,
  auth: "bearer",
  permission: "webhooks:write",
  params: WebhookEndpointIdParams,
  responses: { 200: { description: "Deleted.", schema: DeletedWebhookEndpoint, example: { id: WEBHOOK_ENDPOINT_EXAMPLE.id, object: "webhook_endpoint", deleted: true } } },
  errors: [404],
});

export const rotateWebhookSecretOperation = defineOperation({
  operationId: "rotateWebhookSecret",
  sealResponse: true,
  method: "POST",
  path: "/v1/webhook-endpoints/{id}/rotate-secret",
  summary: "Rotate an endpoint's signing secret (the old one keeps signing for 24 h)",
  description:
    "The new secret is in this response only. During the grace period (default 24 h, `grace_period_seconds`) every delivery carries two " +
    "signatures in `webhook-signature`, one per secret, so a receiver holding either verifies; then only the new one. 0 drops the old " +
    "secret immediately (for a leaked one). One old secret at a time: while one is still in its grace period, a rotation with a grace period is 409 " +
    "`conflict` (`previous_secret_expires_at` says when it ends) — rotate with 0 to drop both old secrets at once. Whoever holds the secret can sign as the platform to the receiver: 403 unless the credential " +
    "may read every event type the endpoint carries.",
  tags,
  auth: "bearer",
  permission: "webhooks:write",
  params: WebhookEndpointIdParams,
  body: RotateSecretBody,
  responses: { 200: withSecret("The endpoint, with its new signing secret (shown once).") },
  errors: [403, 404, 409],
});

export const testWebhookEndpointOperation = defineOperation({
  operationId: "testWebhookEndpoint",
  method: "POST",
  path: "/v1/webhook-endpoints/{id}/test",
  summary: "Send a `webhook_endpoint.test` event to this endpoint",
  description: "Delivered like any event (signed, retried), to this endpoint only. A disabled endpoint: 409 `conflict`.",
  tags,
  auth: "bearer",
  permission: "webhooks:write",
  params: WebhookEndpointIdParams,
  responses: { 202: { description: "The delivery, pending (its first attempt within a second).", schema: DeliveryResponse, example: { ...deliveryListExample, event_type: "webhook_endpoint.test", status: "pending", attempt_count: 0, next_attempt_at: "2026-12-01T13:12:00.100Z", last_status_code: null, last_duration_ms: null, last_attempt_at: null, completed_at: null } } },
  errors: [404, 409],
});

export const recoverWebhookEndpointOperation = defineOperation({
  operationId: "recoverWebhookEndpoint",
  method: "POST",
  path: "/v1/webhook-endpoints/{id}/recover",
  summary: "Queue again the events an endpoint missed in a window (after it was disabled or its receiver was down)",
  description:
    "For each event of the endpoint's types created in [`since`, `until`) — published, from the endpoint's creation on, at most " +
    "WEBHOOK_RETENTION_DAYS (90 by default) back — that the endpoint never had a delivery of (it was disabled then) a delivery is " +
    "created, and each `failed` delivery (retries exhausted, 410, disabled) becomes `pending` again as by a resend; its next attempt due " +
    "now. Delivered and pending ones are left alone, so repeating a recovery over the same window queues nothing twice. The endpoint " +
    `receives them oldest first, under the same \`webhook-id\` for an event already attempted. At most ${MAX_RECOVERED_DELIVERIES.toLocaleString("en")} deliveries per ` +
    "call: `has_more` says to call again, with `since` = `next_since` (the same body works too, reading again what this call went through). Enable the endpoint first (409 `conflict` while disabled). 403 unless the " +
    "credential may read every event type the endpoint carries." +
    ACCESS,
  tags,
  auth: "bearer",
  permission: "webhooks:write",
  params: WebhookEndpointIdParams,
  body: RecoverEndpointBody,
  responses: {
    202: {
      description: "What was queued.",
      schema: RecoveryResponse,
      example: { object: "webhook_recovery", endpoint_id: WEBHOOK_ENDPOINT_EXAMPLE.id, since: "2026-11-28T00:00:00.000Z", until: "2026-12-01T12:00:00.000Z", deliveries_created: 42, deliveries_resent: 3, has_more: false, next_since: null },
    },
  },
  errors: [403, 404, 409],
});

export const listEventsOperation = defineOperation({
  operationId: "listEvents",
  method: "GET",
  path: "/v1/events",
  summary: "List events, newest first (filter: type)",
  description: "Every event of the credential's environment, as webhooks deliver it: for reconciling after downtime, or polling without webhooks." + ACCESS,
  tags,
  auth: "bearer",
  permission: "webhooks:read",
  query: ListEventsQuery,
  responses: { 200: { description: "A page of events.", schema: listEnvelope(EventResponse) } },
});

export const getEventOperation = defineOperation({
  operationId: "getEvent",
  method: "GET",
  path: "/v1/events/{id}",
  summary: "Get an event",
  description: "403 `forbidden` for an event whose resource the credential may not read." + ACCESS,
  tags,
  auth: "bearer",
  permission: "webhooks:read",
  params: EventIdParams,
  responses: { 200: { description: "The event.", schema: EventResponse, example: EVENT_EXAMPLE } },
  errors: [404],
});

export const listWebhookDeliveriesOperation = defineOperation({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/v1/webhook-deliveries",
  summary: "List webhook deliveries, newest first (filters: endpoint, event, status)",
  description: "Deliveries of events the credential may not read are left out." + ACCESS,
  tags,
  auth: "bearer",
  permission: "webhooks:read",
  query: ListDeliveriesQuery,
  responses: { 200: { description: "A page of deliveries (without their attempts).", schema: listEnvelope(DeliveryResponse) } },
});

export const getWebhookDeliveryOperation = defineOperation({
  operationId: "getWebhookDelivery",
  method: "GET",
  path: "/v1/webhook-deliveries/{id}",
  summary: "Get a delivery with every attempt (status code, duration, request and response bodies)",
  description: "403 `forbidden` for a delivery of an event the credential may not read (its request body is the event)." + ACCESS,
  tags,
  auth: "bearer",
  permission: "webhooks:read",
  params: DeliveryIdParams,
  responses: { 200: deliveryOne },
  errors: [404],
});

export const resendWebhookDeliveryOperation = defineOperation({
  operationId: "resendWebhookDelivery",
  method: "POST",
  path: "/v1/webhook-deliveries/{id}/resend",
  summary: "Send a delivery again now",
  description:
    `A failed or succeeded delivery becomes \`pending\`, its next attempt due now (its attempts so far stay in the log; if this one fails, ` +
    `retries go on from where the schedule stood, ${MAX_ATTEMPTS} attempts in all). 409 \`conflict\` while an attempt is in flight or the endpoint is disabled.`,
  tags,
  auth: "bearer",
  permission: "webhooks:write",
  params: DeliveryIdParams,
  responses: { 202: { description: "The delivery, pending.", schema: DeliveryResponse, example: { ...deliveryListExample, status: "pending", next_attempt_at: "2026-12-01T14:00:00.000Z", completed_at: null } } },
  errors: [404, 409],
});

export const webhookOperations = [
  createWebhookEndpointOperation,
  listWebhookEndpointsOperation,
  getWebhookEndpointOperation,
  updateWebhookEndpointOperation,
  deleteWebhookEndpointOperation,
  rotateWebhookSecretOperation,
  testWebhookEndpointOperation,
  recoverWebhookEndpointOperation,
  listEventsOperation,
  getEventOperation,
  listWebhookDeliveriesOperation,
  getWebhookDeliveryOperation,
  resendWebhookDeliveryOperation,
];
