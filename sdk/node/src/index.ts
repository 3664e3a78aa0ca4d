export { CreditPlatform, SDK_VERSION, type CallArgs, type ClientOptions, type Environment, type OperationMethods, type PaginatedOperationId, type RequestOptions, type ResultOf } from "./client";
export { ApiError, ConnectionError, CreditPlatformError, TimeoutError, type FieldError, type Problem } from "./errors";
export { OPERATIONS, type OperationId } from "./operations";
export type { components, operations, paths } from "./schema";
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from "./webhooks";
