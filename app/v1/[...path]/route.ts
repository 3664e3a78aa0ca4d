import { notFoundRoute } from "@/lib/api/not-found";

// Any other /v1 path: a problem+json 404 instead of the framework's HTML page (nothing undocumented answers).
export const GET = notFoundRoute;
export const POST = notFoundRoute;
export const PUT = notFoundRoute;
export const PATCH = notFoundRoute;
export const DELETE = notFoundRoute;
