import { z } from "zod";
import type { Scope } from "@/lib/scope";
import type { PanelUser } from "./session";

// Panel screens work on one environment at a time, chosen on screen and sent as `?environment=`; the tenant is
// always the signed-in user's active one. Anything else than "production" is the sandbox.
const Environment = z.enum(["sandbox", "production"]);

/** The `?environment=` of a panel address or request: "production", else the sandbox. */
export function environmentParam(value: string | null | undefined): Scope["environment"] {
  return Environment.catch("sandbox").parse(value);
}

export function panelScope(user: PanelUser, request: Request): Scope {
  return { tenantId: user.tenantId, environment: environmentParam(new URL(request.url).searchParams.get("environment")) };
}
