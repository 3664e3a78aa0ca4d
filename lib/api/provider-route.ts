import type { Environment } from "@prisma/client";
import type { z } from "zod";
import { SignatureError, verifyProvider } from "@/lib/collection/notifications";
import { environmentOf } from "./environment";
import { errorResponse } from "./error-response";
import { ApiError } from "./errors";
import type { Operation } from "./operation";
import { parseBodyText, readBodyText, readRequestId, validate } from "./request-input";
import type { ApiResult, RouteHandler } from "./route";

// The wrapper of inbound provider notifications: no API key — the HMAC signature over the raw body is the
// credential, checked before the body is even parsed (an unsigned caller learns nothing about the schema).
// Same request id, host → environment, body limits and one error shape as every /v1 route.

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** The challenge of a 401 `invalid_signature` (RFC 9110 §11.6.1: every 401 names how to authenticate): an HMAC-SHA256
 *  signature in X-Provider-Signature (`t=<unix seconds>,v1=<hex>`, lib/collection/notifications.ts). */
export const PROVIDER_SIGNATURE_CHALLENGE = 'HMAC-SHA256 realm="credit-platform", header="X-Provider-Signature"';

export function providerRoute<P extends z.ZodType, B extends z.ZodType>(
  op: Operation<P, undefined, B>,
  handler: (input: { environment: Environment; params: z.infer<P>; body: z.infer<B>; requestId: string }) => Promise<ApiResult>,
): RouteHandler {
  const run = async (request: Request, context: RouteContext): Promise<Response> => {
    const headers = new Headers({ "cache-control": "no-store" });
    let requestId = "";
    try {
      requestId = readRequestId(request).requestId;
      headers.set("x-request-id", requestId);
      const environment = environmentOf(request);
      const params = validate(op.params, await context?.params, "path") as z.infer<P> & { provider: string };
      // The signature is checked over the raw body before parsing; the body is read no further than the limit
      // (declared or not: a chunked upload is cut off at MAX_BODY_BYTES + 1 and answered 413).
      const raw = await readBodyText(request);
      try {
        verifyProvider(params.provider, environment, request.headers.get("x-provider-signature"), raw);
      } catch (err) {
        if (err instanceof SignatureError) throw new ApiError("invalid_signature", err.message, { headers: { "www-authenticate": PROVIDER_SIGNATURE_CHALLENGE } });
        throw err;
      }
      const body = validate(op.body, parseBodyText(request, "json", raw), "body") as z.infer<B>;
      const result = await handler({ environment, params, body, requestId });
      for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, value);
      headers.set("content-type", "application/json");
      return new Response(JSON.stringify(result.body), { status: result.status ?? 200, headers });
    } catch (err) {
      return errorResponse(err, requestId || "unknown", headers, false);
    }
  };
  return Object.assign(run, { operation: op as unknown as Operation });
}
