import { withClientActions } from "@/lib/state-machine";

// Margin reservation (see docs/state-machines.md):
//   requested ──reserve──▶ reserved ──consume (endorsement)──▶ consumed
//       └──refuse──▶ refused    ├──release (cancel; the proposal canceled, rejected or expired)──▶ released
//                               └──expire (past expires_at before an endorsement)──▶ expired ──consume──▶ consumed
//                                                        (an averbação made before it lapsed, its answer learned late)
// `requested` lives only inside the transaction that asks the authority: the row is written, the authority
// answers, and the row leaves `requested` before anyone can read it.
export const RESERVATION_STATUSES = ["requested", "reserved", "consumed", "released", "expired", "refused"] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];
export const RESERVATION_ACTIONS = ["reserve", "refuse", "consume", "release", "expire", "free"] as const;
export type ReservationAction = (typeof RESERVATION_ACTIONS)[number];

export const RESERVATION_TRANSITIONS = withClientActions<ReservationStatus, ReservationAction>(
  {
    requested: { reserve: "reserved", refuse: "refused" },
    reserved: { consume: "consumed", release: "released", expire: "expired" },
    // Consumed after all: an averbação the authority made before the reservation lapsed, whose answer was lost and
    // learned later (the call replayed by a retry or the endorsement worker, lib/payroll/endorsement-recovery.ts).
    expired: { consume: "consumed" },
    // Its endorsement ended at the authority (contract closed or withdrawn): the margin is free again. `free`, not
    // `release`: only the endorsement worker applies it — the cancel endpoint still answers 409 for a consumed one.
    consumed: { free: "released" },
    released: {},
    refused: {},
  },
  [], // the rest are the platform's own
);

/** The audit-log action of each transition (the outbox event is `margin_reservation.status_changed`, with `previous_status`). */
export const RESERVATION_AUDIT_ACTIONS: Record<ReservationAction, string> = {
  reserve: "margin_reservation.reserved",
  refuse: "margin_reservation.refused",
  consume: "margin_reservation.consumed",
  release: "margin_reservation.released",
  expire: "margin_reservation.expired",
  free: "margin_reservation.released",
};

/** Reservations that hold margin: counted against the margin query they were made from. */
export const HOLDING_STATUSES: readonly ReservationStatus[] = ["requested", "reserved", "consumed"];

// Endorsement (averbação): submitted ──endorse──▶ endorsed, or ──refuse──▶ refused (the authority's reason).
// Its contract closed or withdrawn: endorsed ──end──▶ terminating (in that transaction) ──terminate──▶ terminated
// (once the authority confirms; a worker retries until it does).
export const ENDORSEMENT_STATUSES = ["submitted", "endorsed", "refused", "terminating", "terminated"] as const;
export type EndorsementStatus = (typeof ENDORSEMENT_STATUSES)[number];
export const ENDORSEMENT_ACTIONS = ["endorse", "refuse", "end", "terminate"] as const;
export type EndorsementAction = (typeof ENDORSEMENT_ACTIONS)[number];

export const ENDORSEMENT_TRANSITIONS = withClientActions<EndorsementStatus, EndorsementAction>(
  {
    submitted: { endorse: "endorsed", refuse: "refused" },
    endorsed: { end: "terminating" },
    refused: {},
    terminating: { terminate: "terminated" },
    terminated: {},
  },
  [], // the rest are the platform's own
);

/** The audit-log action of each transition (the outbox event is `endorsement.status_changed`, with `previous_status`). */
export const ENDORSEMENT_AUDIT_ACTIONS: Record<EndorsementAction, string> = {
  endorse: "endorsement.endorsed",
  refuse: "endorsement.refused",
  end: "endorsement.termination_requested",
  terminate: "endorsement.terminated",
};
