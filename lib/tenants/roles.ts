import type { Role } from "@prisma/client";

// What each panel role may do. Owners and admins manage credentials; support and viewers cannot.
export const CAN_MANAGE_CREDENTIALS: Record<Role, boolean> = {
  owner: true,
  admin: true,
  support: false,
  viewer: false,
};

export function canManageCredentials(role: Role): boolean {
  return CAN_MANAGE_CREDENTIALS[role];
}

/** Who reviews proposals in the panel (approve / reject): support staff and above; viewers only look. */
export const CAN_REVIEW: Record<Role, boolean> = {
  owner: true,
  admin: true,
  support: true,
  viewer: false,
};

export function canReview(role: Role): boolean {
  return CAN_REVIEW[role];
}

/** Who invites members, changes roles and removes members: owners only (admins see the list). */
export const CAN_MANAGE_MEMBERS: Record<Role, boolean> = {
  owner: true,
  admin: false,
  support: false,
  viewer: false,
};

export function canManageMembers(role: Role): boolean {
  return CAN_MANAGE_MEMBERS[role];
}

/** Who records a refund of a borrower's credit (money sent back outside the platform): owners and admins — a
 *  finance operation that changes the books; support staff and viewers see refunds only. */
export const CAN_RECORD_REFUNDS: Record<Role, boolean> = {
  owner: true,
  admin: true,
  support: false,
  viewer: false,
};

export function canRecordRefunds(role: Role): boolean {
  return CAN_RECORD_REFUNDS[role];
}

/** Who issues a charge from the panel (a new boleto or Pix for what is due — the "2ª via" a borrower asks support for):
 *  support staff and above; viewers only look. */
export const CAN_ISSUE_CHARGES: Record<Role, boolean> = {
  owner: true,
  admin: true,
  support: true,
  viewer: false,
};

export function canIssueCharges(role: Role): boolean {
  return CAN_ISSUE_CHARGES[role];
}

/** Who writes a defaulted contract off (baixa para prejuízo): owners and admins — the lender's decision, which changes
 *  the books like a refund; support staff and viewers see that it was written off. */
export const CAN_WRITE_OFF: Record<Role, boolean> = {
  owner: true,
  admin: true,
  support: false,
  viewer: false,
};

export function canWriteOff(role: Role): boolean {
  return CAN_WRITE_OFF[role];
}

/** Who erases a customer's data at their request (LGPD; the same rules as DELETE /v1/customers/{id}): owners and admins
 *  — it cannot be undone; support staff and viewers see customers only. */
export const CAN_ERASE_CUSTOMERS: Record<Role, boolean> = {
  owner: true,
  admin: true,
  support: false,
  viewer: false,
};

export function canEraseCustomers(role: Role): boolean {
  return CAN_ERASE_CUSTOMERS[role];
}
