// TanStack Query keys of Settings → Webhooks: tenant and environment in every key, so switching either never
// shows the previous one's data.
type Environment = "sandbox" | "production";

export const webhookKeys = {
  endpoints: (tenantId: string, environment: Environment) => ["webhooks", tenantId, environment, "endpoints"] as const,
  deliveries: (tenantId: string, environment: Environment, endpointId: string) => ["webhooks", tenantId, environment, "deliveries", endpointId] as const,
  delivery: (tenantId: string, environment: Environment, id: string, version: string) => ["webhooks", tenantId, environment, "delivery", id, version] as const,
};
