import { withClientActions } from "@/lib/state-machine";

// Portfolio assignment (docs/state-machines.md): pending ──settle──▶ settled (its contracts become `assigned`)
//                                                   pending ──cancel──▶ canceled (its contracts are free again; also the platform's
//                                                   own when the last contract left the offer: ./leave-offer.ts)
export const ASSIGNMENT_STATUSES = ["pending", "settled", "canceled"] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
export const ASSIGNMENT_ACTIONS = ["settle", "cancel"] as const;
export type AssignmentAction = (typeof ASSIGNMENT_ACTIONS)[number];

export const ASSIGNMENT_TRANSITIONS = withClientActions<AssignmentStatus, AssignmentAction>(
  {
    pending: { settle: "settled", cancel: "canceled" },
    settled: {},
    canceled: {},
  },
  ["settle", "cancel"], // the rest are the platform's own
);
