import { providerNotificationOperation } from "@/lib/api/operations/collection";
import { providerRoute } from "@/lib/api/provider-route";
import { handleProviderNotification } from "@/lib/collection/notifications";

// POST /v1/charges/notifications/{provider} — a signed payment notification from the provider (no API key).
export const POST = providerRoute(providerNotificationOperation, async ({ environment, params, body }) => {
  const { payment, replayed } = await handleProviderNotification(environment, params.provider, body);
  return { body: { received: true, replayed, payment } };
});
