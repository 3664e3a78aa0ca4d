import { z } from "zod";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from "./event-catalog";

// Webhook endpoints, events and deliveries under /v1 (issue 11).

export const MAX_ENDPOINTS_PER_ENVIRONMENT = 20;
export const ROTATION_GRACE_SECONDS = 24 * 3600;
const environment = z.enum(["sandbox", "production"]);

const url = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .meta({
    description:
      "Where events are POSTed. Production: https, resolving only to public addresses (checked now and before every delivery). " +
      "Sandbox: also http://localhost, 127.0.0.1 or [::1] where the deployment allows it (local development).",
    example: "https://hooks.example.com.br/credit-platform",
  });
const eventTypes = z
  .array(z.union([z.literal("*"), z.enum(SUBSCRIBABLE_EVENT_TYPES)]))
  .min(1)
  .max(SUBSCRIBABLE_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, "Must not repeat an event type")
  .refine((types) => !types.includes("*") || types.length === 1, '"*" (every event) stands alone')
  .meta({ description: 'The event types this endpoint receives, or `["*"]` for every event (also those added later).', example: ["contract.issued", "charge.paid"] });
const description = z.string().trim().min(1).max(500).meta({ description: "For your people: what receives these events." });

export const CreateWebhookEndpointBody = z
  .strictObject({ url, event_types: eventTypes, description: description.optional(), enabled: z.boolean().optional().meta({ description: "Default true." }) })
  .meta({ id: "CreateWebhookEndpointBody" });
export type CreateWebhookEndpointBody = z.infer<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = z
  .strictObject({
    url: url.optional(),
    event_types: eventTypes.optional(),
    description: description.nullable().optional().meta({ description: "null clears it." }),
    enabled: z.boolean().optional().meta({ description: "Enabling an endpoint the platform disabled (410 or days of failures) clears the reason." }),
  })
  .refine((body) => Object.keys(body).length > 0, "Send at least one field")
  .meta({ id: "UpdateWebhookEndpointBody" });
export type UpdateWebhookEndpointBody = z.infer<typeof UpdateWebhookEndpointBody>;

export const RotateSecretBody = z
  .strictObject({
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(ROTATION_GRACE_SECONDS)
      .optional()
      .meta({ description: `How long the previous secret keeps signing beside the new one (two signatures), 0–${ROTATION_GRACE_SECONDS}. Default ${ROTATION_GRACE_SECONDS} (24 h); 0 drops it immediately, for a leaked secret.` }),
  })
  .meta({ id: "RotateWebhookSecretBody" });
export type RotateSecretBody = z.infer<typeof RotateSecretBody>;

/** At most this many deliveries are queued by one recovery; `has_more` says to call again with the same window. */
export const MAX_RECOVERED_DELIVERIES = 10_000;
const instant = (description: string) => z.iso.datetime({ offset: true }).meta({ description, example: "2026-12-01T00:00:00Z" });

export const RecoverEndpointBody = z
  .strictObject({
    since: instant("Events created at or after this instant (ISO 8601 with `Z` or an offset). At most WEBHOOK_RETENTION_DAYS (90 by default) ago; an earlier one is 400. Before the endpoint's creation counts from its creation."),
    until: instant("Events created before this instant. Default now; not in the future.").optional(),
  })
  .refine((body) => body.until === undefined || Date.parse(body.until) > Date.parse(body.since), { message: "Must be after since", path: ["until"] })
  .meta({ id: "RecoverWebhookEndpointBody" });
export type RecoverEndpointBody = z.infer<typeof RecoverEndpointBody>;

export const RecoveryResponse = z
  .object({
    object: z.literal("webhook_recovery"),
    endpoint_id: z.string(),
    since: z.string().meta({ description: "The window's start as applied (the endpoint's creation when that is later than the one asked for)." }),
    until: z.string(),
    deliveries_created: z.number().int().meta({ description: "Events in the window the endpoint never had a delivery of (it was disabled, or did not subscribe then): queued now." }),
    deliveries_resent: z.number().int().meta({ description: "Failed deliveries of events in the window: pending again, their next attempt due now (as a resend)." }),
    has_more: z.boolean().meta({ description: `More than ${MAX_RECOVERED_DELIVERIES.toLocaleString("en")} deliveries to queue: the oldest were; call again for the rest — with \`since\` = \`next_since\` (or the same window, which reads again the events this call went through).` }),
    next_since: z.string().nullable().meta({ description: "With `has_more`: the instant of the last event queued, where the next call's `since` may start (nothing is missed: that event and any of the same instant already have a delivery and are skipped). Null otherwise." }),
  })
  .meta({ id: "WebhookRecovery", description: "What a recovery queued for one endpoint." });
export type RecoveryResponse = z.infer<typeof RecoveryResponse>;

export const WebhookEndpointIdParams = z.strictObject({ id: idSchema("webhookEndpoint", "webhook endpoint") });
export const ListWebhookEndpointsQuery = ListQuery.extend({ enabled: z.enum(["true", "false"]).optional().meta({ description: "Only enabled (or disabled) endpoints." }) });
export type ListWebhookEndpointsQuery = z.infer<typeof ListWebhookEndpointsQuery>;

export const WebhookEndpointResponse = z
  .object({
    id: z.string().meta({ example: "whe_01JDQ9F1G2H3J4K5M6N7P8Q9R0" }),
    object: z.literal("webhook_endpoint"),
    url: z.string(),
    description: z.string().nullable(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(["manual", "gone", "failing"])
      .nullable()
      .meta({ description: "Why it is disabled: `manual` (by you), `gone` (it answered 410), `failing` (no success for 3 days). null when enabled." }),
    disabled_at: z.string().nullable(),
    failing_since: z.string().nullable().meta({ description: "The first failed attempt since the last success; null when the last attempt succeeded." }),
    previous_secret_expires_at: z.string().nullable().meta({ description: "During a rotation's grace period: until when the previous secret still signs." }),
    environment,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WebhookEndpoint", description: "Where a tenant receives events. The signing secret is never returned after creation or rotation." });
export type WebhookEndpointResponse = z.infer<typeof WebhookEndpointResponse>;

export const WebhookEndpointWithSecret = WebhookEndpointResponse.extend({
  secret: z.string().meta({ description: "The signing secret (`whsec_…`, Standard Webhooks). Shown only now: store it.", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
}).meta({ id: "WebhookEndpointWithSecret" });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const DeletedWebhookEndpoint = z
  .object({ id: z.string(), object: z.literal("webhook_endpoint"), deleted: z.literal(true) })
  .meta({ id: "DeletedWebhookEndpoint" });

export const EventIdParams = z.strictObject({ id: idSchema("event", "event") });
export const ListEventsQuery = ListQuery.extend({ type: z.enum(EVENT_TYPES).optional().meta({ description: "Only events of this type." }) });
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

export const EventResponse = z
  .object({
    id: z.string().meta({ example: "evt_01JDQ9F1G2H3J4K5M6N7P8Q9R0" }),
    object: z.literal("event"),
    type: z.string(),
    created_at: z.string(),
    tenant_id: z.string(),
    environment,
    data: z.record(z.string(), z.unknown()).meta({ description: "The event's object, as in its webhook (see the OpenAPI document's `webhooks`)." }),
  })
  .meta({ id: "Event", description: "Something that happened, as webhooks deliver it (the same id, type and data)." });
export type EventResponse = z.infer<typeof EventResponse>;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DeliveryIdParams = z.strictObject({ id: idSchema("webhookDelivery", "webhook delivery") });
export const ListDeliveriesQuery = ListQuery.extend({
  endpoint_id: idSchema("webhookEndpoint", "webhook endpoint").optional().meta({ description: "Only deliveries to this endpoint." }),
  event_id: idSchema("event", "event").optional().meta({ description: "Only deliveries of this event." }),
  status: z.enum(DELIVERY_STATUSES).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export const AttemptResponse = z
  .object({
    number: z.number().int().meta({ description: "1 for the first attempt." }),
    url: z.string(),
    started_at: z.string(),
    duration_ms: z.number().int(),
    status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none came (timeout, refused connection, address not allowed)." }),
    error: z.string().nullable(),
    request_body: z.string().meta({ description: "What was sent (first 4 KiB)." }),
    response_body: z.string().nullable().meta({ description: "What came back (first 4 KiB)." }),
  })
  .meta({ id: "WebhookAttempt" });

export const DeliveryResponse = z
  .object({
    id: z.string().meta({ example: "whd_01JDQ9F1G2H3J4K5M6N7P8Q9R0" }),
    object: z.literal("webhook_delivery"),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES).meta({ description: "`pending` (first attempt due, or retrying), `succeeded` (a 2xx), `failed` (retries exhausted, 410, or the endpoint disabled)." }),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_status_code: z.number().int().nullable(),
    last_duration_ms: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    environment,
    created_at: z.string(),
    attempts: z.array(AttemptResponse).optional().meta({ description: "Every attempt, oldest first (GET of one delivery only)." }),
  })
  .meta({ id: "WebhookDelivery", description: "One event to one endpoint, with its attempts." });
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;
