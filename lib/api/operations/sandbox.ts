import { RepasseBody, RepasseResponse } from "@/lib/payroll/repasse-schemas";
import { defineOperation } from "../operation";
import { REPASSE_EXAMPLE } from "./examples";

export const repasseOperation = defineOperation({
  operationId: "simulateRepasse",
  method: "POST",
  path: "/v1/sandbox/repasse",
  summary: "Simulate the paying source's monthly transfer (repasse) of payroll installments — sandbox only",
  description:
    "Applies a competence month's transfer from the paying source (INSS, or the employer) to the environment's active payroll " +
    "contracts (or `contract_ids`): `full` pays every installment due in the month, `partial` pays `partial_percent` of each " +
    "(partially_paid), `none` pays nothing (they stay open, overdue after their due date). Each contract in its own transaction: " +
    "payments (source `inss_repasse` or `private_payroll_repasse`), installments, the contract's `amount_paid` and " +
    "`outstanding_balance`, and the events `installment.paid` / `installment.partially_paid` and `repasse.processed` (a contract " +
    "whose last installment it pays closes: `settled`, event `contract.closed` with reason `paid_off`). A month " +
    "already processed for a contract is skipped (`already_processed`): running it twice changes nothing the second time. " +
    "On the production address this operation does not exist (404).",
  tags: ["Sandbox"],
  auth: "bearer",
  permission: "payroll:write",
  sandboxOnly: true,
  body: RepasseBody,
  responses: { 200: { description: "What each contract received.", schema: RepasseResponse, example: REPASSE_EXAMPLE } },
  errors: [404],
});

export const sandboxOperations = [repasseOperation];
