// TanStack Query keys of the credentials screens (never inline string keys): the tenant in every key, so switching
// tenant never shows the previous tenant's keys or clients.
export const credentialKeys = {
  all: ["credentials"] as const,
  list: (tenantId: string, kind: "api-keys" | "oauth-clients") => [...credentialKeys.all, tenantId, kind] as const,
};
