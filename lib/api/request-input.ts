import type { z } from "zod";
import { newId } from "@/lib/ids";
import { ApiError, type FieldError } from "./errors";
import { textErrors } from "./text-rules";

// Reading and validating what the client sent: request id, body (size, media type, syntax), then the
// operation's strict zod schemas for path, query and body. Every failure is a 4xx with field errors.

export const MAX_BODY_BYTES = 1024 * 1024;
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,255}$/;

/** For answers given before the wrapper runs (the /v1 gate, the edge server): the caller's X-Request-Id when it is
 *  a valid one, else a new id — never an error, since the request is being refused for another reason. */
export function echoedRequestId(given: string | null | undefined): string {
  const value = given?.trim();
  return value && REQUEST_ID.test(value) ? value : newId("request");
}

/** The caller's X-Request-Id (or Idempotency-Key) — used for tracing and, on POST, idempotency. */
export function readRequestId(request: Request): { requestId: string; idempotencyKey: string | null } {
  const xRequestId = request.headers.get("x-request-id")?.trim() || null;
  const idempotencyKey = request.headers.get("idempotency-key")?.trim() || null;
  for (const [name, value] of [["X-Request-Id", xRequestId], ["Idempotency-Key", idempotencyKey]] as const) {
    if (value !== null && !REQUEST_ID.test(value)) {
      const message = `${name} must be 1–255 characters of A–Z, a–z, 0–9, . _ : - (a UUID is recommended)`;
      throw new ApiError("invalid_request_id", message, { errors: [{ param: name, in: "header", message }] });
    }
  }
  if (xRequestId && idempotencyKey && xRequestId !== idempotencyKey) {
    const message = "X-Request-Id and Idempotency-Key differ; send one, or the same value in both";
    throw new ApiError("invalid_request_id", message, { errors: [{ param: "Idempotency-Key", in: "header", message }] });
  }
  const key = xRequestId ?? idempotencyKey;
  return { requestId: key ?? newId("request"), idempotencyKey: key };
}

export type BodyKind = "json" | "form";

/** Reads and decodes the body: 413 over the limit, 415 for another media type, 400 for bad JSON. */
export async function readBody(request: Request, kind: BodyKind): Promise<unknown> {
  return parseBodyText(request, kind, await readBodyText(request));
}

/** The body as text: at most MAX_BODY_BYTES (413 otherwise, declared or not), valid UTF-8 (400 otherwise). */
export async function readBodyText(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError("payload_too_large", `Bodies are limited to ${MAX_BODY_BYTES} bytes`);
  const bytes = await readCapped(request);
  // Bytes that are not UTF-8 are the client's error (400), not silently replaced by U+FFFD.
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("invalid_encoding", "The body is not valid UTF-8");
  }
}

/** A body read by readBodyText, parsed as its Content-Type must say (`kind`), with the text rules applied. */
export function parseBodyText(request: Request, kind: BodyKind, text: string): unknown {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const expected = kind === "json" ? "application/json" : "application/x-www-form-urlencoded";
  if (text.length === 0 && kind === "json") return {};
  if (mediaType !== expected) throw new ApiError("unsupported_media_type", `Send Content-Type: ${expected}`);
  let body: unknown;
  if (kind === "form") body = formObject(text);
  else {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new ApiError("invalid_json", "The body is not valid JSON");
    }
  }
  rejectIllFormedText(body, "body");
  return body;
}

/** A form body as an object. A parameter sent twice is refused, not resolved by "last wins": RFC 6749 §3.2 forbids
 *  repeats, and `grant_type=password&grant_type=client_credentials` must not be read as either. */
function formObject(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(out, name)) repeated.add(name);
    out[name] = value;
  }
  if (repeated.size > 0) {
    throw new ApiError("validation_error", "A parameter must not be sent more than once", {
      errors: [...repeated].map((param) => ({ param, in: "body" as const, message: "Sent more than once" })),
    });
  }
  return out;
}

/** The body's bytes, read no further than the limit: a body sent without Content-Length (chunked) is cut off at
 *  MAX_BODY_BYTES + 1 and answered 413, never buffered whole (before authentication, by anyone). */
async function readCapped(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ApiError("payload_too_large", `Bodies are limited to ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** 400 for NUL characters, ill-formed Unicode or too deep nesting anywhere in what was sent (lib/api/text-rules.ts). */
export function rejectIllFormedText(value: unknown, location: FieldError["in"]): void {
  const errors = textErrors(value, location);
  if (errors.length > 0) throw new ApiError("validation_error", "One or more fields cannot be accepted as sent", { errors });
}

export function queryObject(request: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URL(request.url).searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  rejectIllFormedText(out, "query");
  return out;
}

export function fieldErrors(error: z.ZodError, location: FieldError["in"]): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((k) => ({ param: base ? `${base}.${k}` : k, in: location, message: "Unknown field" }));
    }
    return [{ param: base || "(root)", in: location, message: issue.message }];
  });
}

/** `error`: the messages of zod's own issues in another language (the panel's pt-BR); English by default. */
export function validate<T extends z.ZodType>(schema: T | undefined, value: unknown, location: FieldError["in"], error?: z.core.$ZodErrorMap): z.infer<T> | undefined {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value, error ? { error } : undefined);
  if (parsed.success) return parsed.data;
  throw new ApiError("validation_error", "One or more fields are invalid", { errors: fieldErrors(parsed.error, location) });
}
