import type { Environment } from "@prisma/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "./errors";

// The base address picks the environment (spec §4 rule 1): one deployment answers for both hosts, and a
// credential is accepted only on its own environment's host. Only the host[:port] of each base URL counts.

let hosts: Map<string, Environment> | undefined;

function hostTable(): Map<string, Environment> {
  if (hosts) return hosts;
  const env = getEnv();
  hosts = new Map<string, Environment>([
    [new URL(env.SANDBOX_BASE_URL).host.toLowerCase(), "sandbox"],
    [new URL(env.PRODUCTION_BASE_URL).host.toLowerCase(), "production"],
  ]);
  return hosts;
}

export function requestHost(request: Request): string {
  return hostOf(request.headers) || new URL(request.url).host.toLowerCase();
}

/** The host a request was addressed to (X-Forwarded-Host only behind a trusted proxy); "" when absent. */
export function hostOf(headers: Headers): string {
  const forwarded = getEnv().TRUST_PROXY ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return (forwarded || headers.get("host") || "").toLowerCase();
}

/** The environment a host serves, or null for any other host. */
export function environmentOfHost(host: string): Environment | null {
  return hostTable().get(host) ?? null;
}

export function environmentOf(request: Request): Environment {
  const environment = hostTable().get(requestHost(request));
  if (!environment) {
    throw new ApiError(
      "misdirected_request",
      "Call the API on the sandbox or production base address configured for this deployment",
    );
  }
  return environment;
}

export function baseUrlOf(environment: Environment): string {
  const env = getEnv();
  return environment === "sandbox" ? env.SANDBOX_BASE_URL : env.PRODUCTION_BASE_URL;
}

