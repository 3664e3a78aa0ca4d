// TanStack Query keys of Settings → Members: the tenant in every key, so switching tenant never shows the previous one's members.
export const memberKeys = {
  list: (tenantId: string) => ["members", tenantId] as const,
};
