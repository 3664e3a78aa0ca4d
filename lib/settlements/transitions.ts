import { withClientActions } from "@/lib/state-machine";
import type { EventType } from "@/lib/webhooks/event-catalog";

// Settlement lifecycle (docs/state-machines.md):
//   pending ──complete (funds received, or its charge paid)──▶ completed
//      └──cancel (endpoint; the collection job once its date has passed)──▶ canceled
// "received" settlements are created and completed in one transaction.
export const SETTLEMENT_STATUSES = ["pending", "completed", "canceled"] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];
export const SETTLEMENT_ACTIONS = ["complete", "cancel"] as const;
export type SettlementAction = (typeof SETTLEMENT_ACTIONS)[number];

export const SETTLEMENT_TRANSITIONS = withClientActions<SettlementStatus, SettlementAction>(
  {
    pending: { complete: "completed", cancel: "canceled" },
    completed: {},
    canceled: {},
  },
  ["cancel"], // the rest are the platform's own
);

export const SETTLEMENT_EVENTS: Record<SettlementAction, EventType> = {
  complete: "settlement.completed",
  cancel: "settlement.canceled",
};
