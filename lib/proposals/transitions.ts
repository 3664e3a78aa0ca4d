import { withClientActions } from "@/lib/state-machine";

// Proposal lifecycle (see docs/state-machines.md):
//   draft ──submit──▶ pending_review ──approve──▶ approved ──sign──▶ signed ──issue_contract──▶ contract_issued
//                        └──reject──▶ rejected
//   cancel from draft, pending_review, approved and signed (a signed one never issued: the borrower gave up, or its
//   disbursement date passed — a payroll one's averbação is ended at the authority); expire (the proposal-expiry
//   job, past expires_at) from the same four — a signed proposal past it can no longer become a contract (in production
//   expires_at is the end of its disbursement day), so it is closed as cancel would, its averbação ended.
// refuse_endorsement (payroll): the authority refused the averbação of a signed proposal (lib/payroll/endorsements.ts).
// issue_contract is not an endpoint of its own: POST /v1/contracts applies it in the contract's transaction.

export const PROPOSAL_STATUSES = ["draft", "pending_review", "approved", "rejected", "signed", "contract_issued", "canceled", "expired"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const PROPOSAL_ACTIONS = ["submit", "approve", "reject", "sign", "cancel", "issue_contract", "expire", "refuse_endorsement"] as const;
export type ProposalAction = (typeof PROPOSAL_ACTIONS)[number];

export const PROPOSAL_TRANSITIONS = withClientActions<ProposalStatus, ProposalAction>(
  {
    draft: { submit: "pending_review", cancel: "canceled", expire: "expired" },
    pending_review: { approve: "approved", reject: "rejected", cancel: "canceled", expire: "expired" },
    approved: { sign: "signed", cancel: "canceled", expire: "expired" },
    signed: { issue_contract: "contract_issued", refuse_endorsement: "rejected", cancel: "canceled", expire: "expired" },
    rejected: {},
    contract_issued: {},
    canceled: {},
    expired: {},
  },
  ["submit", "approve", "reject", "sign", "cancel"], // the rest are the platform's own
);

/** How long a proposal stays open before the expiry job closes it (its simulated terms go stale). */
export const PROPOSAL_VALIDITY_DAYS = 30;

/** The audit-log action of each transition (the outbox event is `proposal.status_changed`, with `previous_status`). */
export const PROPOSAL_AUDIT_ACTIONS: Record<ProposalAction, string> = {
  submit: "proposal.submitted",
  approve: "proposal.approved",
  reject: "proposal.rejected",
  sign: "proposal.signed",
  cancel: "proposal.canceled",
  issue_contract: "proposal.contract_issued",
  expire: "proposal.expired",
  refuse_endorsement: "proposal.rejected",
};
