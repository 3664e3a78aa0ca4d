import { withClientActions } from "@/lib/state-machine";
import type { EventType } from "@/lib/webhooks/event-catalog";

// Charge lifecycle (docs/state-machines.md):
//   pending ──pay_full──▶ paid            pending ──cancel──▶ canceled
//      │  └──pay_partial──▶ partially_paid ──pay_full──▶ paid
//      ├──mark_overdue (job, late)──▶ overdue ──pay_full──▶ paid   (pay_partial: stays overdue — once overdue, its
//      │                                                              `charge.overdue` is not sent again)
//      └──expire (job: Pix `cob` past its expiry, paid in part or not)──▶ expired ──pay_full──▶ paid (pay_partial: stays
//           expired) — only the provider's notice of money its PSP took by the expiry, learned after the job ran
//           (pay-charge.ts); it never goes back to an open status, so `charge.expired` is sent once
// Paying a paid, canceled or expired charge is a 409 and changes nothing.
export const CHARGE_STATUSES = ["pending", "paid", "partially_paid", "overdue", "canceled", "expired"] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];
export const CHARGE_ACTIONS = ["pay_full", "pay_partial", "mark_overdue", "cancel", "expire"] as const;
export type ChargeAction = (typeof CHARGE_ACTIONS)[number];

export const CHARGE_TRANSITIONS = withClientActions<ChargeStatus, ChargeAction>(
  {
    pending: { pay_full: "paid", pay_partial: "partially_paid", mark_overdue: "overdue", cancel: "canceled", expire: "expired" },
    partially_paid: { pay_full: "paid", pay_partial: "partially_paid", mark_overdue: "overdue", cancel: "canceled", expire: "expired" },
    overdue: { pay_full: "paid", pay_partial: "overdue", cancel: "canceled" },
    paid: {},
    canceled: {},
    expired: { pay_full: "paid", pay_partial: "expired" },
  },
  ["cancel"], // the rest are the platform's own
);

export const CHARGE_EVENTS: Record<ChargeAction, EventType> = {
  pay_full: "charge.paid",
  pay_partial: "charge.partially_paid",
  mark_overdue: "charge.overdue",
  cancel: "charge.canceled",
  expire: "charge.expired",
};
