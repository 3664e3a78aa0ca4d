import { withClientActions } from "@/lib/state-machine";
import type { EventType } from "@/lib/webhooks/event-catalog";

// Contract lifecycle (see docs/state-machines.md). A contract is issued active (disbursed) from a signed
// proposal. settle, assign and buy_back are applied by the settlement and portfolio-assignment modules; pay_off by any payment
// that pays the last open installment (./close-paid-off.ts); cancel (the borrower's 7-day withdrawal right, CDC
// art. 49) and write_off (the lender's, for a contract in default: ./write-off.ts) are endpoints.
export const CONTRACT_STATUSES = ["active", "settled", "written_off", "assigned", "canceled"] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const CONTRACT_ACTIONS = ["settle", "pay_off", "write_off", "assign", "buy_back", "cancel"] as const;
export type ContractAction = (typeof CONTRACT_ACTIONS)[number];

export const CONTRACT_TRANSITIONS = withClientActions<ContractStatus, ContractAction>(
  {
    active: { settle: "settled", pay_off: "settled", write_off: "written_off", assign: "assigned", cancel: "canceled" },
    // Written off, the debt is still the borrower's: recoveries are collected and it closes when paid off or settled.
    written_off: { settle: "settled", pay_off: "settled" },
    // An assigned contract is still collected (for the assignee) and closes when its last installment is paid or it is
    // settled: the borrower's right to pay off early with the discount (CDC art. 52 §2) survives the credit's sale.
    // Bought back by the originator (POST /v1/assignments/{id}/buyback, lib/assignments/buyback.ts) it is active again —
    // the status it had when it was sold (only active contracts are assigned) — and its receipts the originator's.
    assigned: { pay_off: "settled", settle: "settled", buy_back: "active" },
    settled: {},
    canceled: {},
  },
  ["cancel", "write_off"], // the rest are the platform's own
);

/** Contracts whose installments are still collected: active ones, assigned ones (for the assignee) and written-off
 *  ones (recoveries). */
export const COLLECTIBLE: readonly ContractStatus[] = ["active", "assigned", "written_off"];

export const CONTRACT_EVENTS: Record<ContractAction, EventType> = {
  settle: "contract.closed",
  pay_off: "contract.closed",
  write_off: "contract.written_off",
  assign: "contract.assigned",
  buy_back: "contract.bought_back",
  cancel: "contract.canceled",
};

