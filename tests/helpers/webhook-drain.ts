import { dispatchEvents, runOnce } from "@/lib/webhooks/worker";

/** Publishes every outbox event (other test files leave thousands) and makes every due delivery attempt. */
export async function drainWebhooks(options: Parameters<typeof runOnce>[0] = {}): Promise<void> {
  while ((await dispatchEvents()) > 0);
  while ((await runOnce(options)).attempted > 0);
}
