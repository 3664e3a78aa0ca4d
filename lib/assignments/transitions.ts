import { withClientActions } from "@/lib/state-machine";

// Portfolio assignment (docs/state-machines.md): pending ──settle──▶ settled (its contracts become `assigned`)
//                                                   pending ──cancel──▶ canceled (its contracts are free again; also the platform's
//                                                   own when the last contract left the offer: ./leave-offer.ts)
//                                                   pending ──decline──▶ declined (the assignee declined the offer; its contracts are free again)
//                                                   settled ──buyback──▶ settled (the originator bought some of its contracts back: ./buyback.ts)
//                                                   settled ──buyback_last──▶ bought_back (that buyback left none of its contracts not bought back)
export const ASSIGNMENT_STATUSES = ["pending", "settled", "canceled", "declined", "bought_back"] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
export const ASSIGNMENT_ACTIONS = ["settle", "cancel", "decline", "buyback", "buyback_last"] as const;
export type AssignmentAction = (typeof ASSIGNMENT_ACTIONS)[number];

export const ASSIGNMENT_TRANSITIONS = withClientActions<AssignmentStatus, AssignmentAction>(
  {
    pending: { settle: "settled", cancel: "canceled", decline: "declined" },
    // A buyback of some of its contracts leaves it settled; the one after which every contract of it has been bought
    // back (`buyback_last`, applied by the same request) ends it.
    settled: { buyback: "settled", buyback_last: "bought_back" },
    canceled: {},
    declined: {},
    bought_back: {},
  },
  ["settle", "cancel", "decline", "buyback"], // the rest are the platform's own
);
