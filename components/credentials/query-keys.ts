// TanStack Query key factories for the credentials screens (never inline string keys).
export const credentialKeys = {
  all: ["credentials"] as const,
  list: (kind: "api-keys" | "oauth-clients") => [...credentialKeys.all, kind] as const,
};
