import { openApiDocument } from "@/lib/api/openapi/document";
import { openapiOperation } from "@/lib/api/operations/platform";
import { publicRoute } from "@/lib/api/route";

// GET /v1/openapi.json — the OpenAPI 3.1 document, public.
export const GET = publicRoute(openapiOperation, async () => ({ body: openApiDocument() }));
