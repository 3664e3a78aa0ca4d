import type { Operation } from "../operation";
import { assignmentOperations } from "./assignments";
import { collectionOperations } from "./collection";
import { contractOperations } from "./contracts";
import { customerOperations } from "./customers";
import { payrollOperations } from "./payroll";
import { platformOperations } from "./platform";
import { proposalOperations } from "./proposals";
import { riskOperations } from "./risk";
import { sandboxOperations } from "./sandbox";
import { settlementOperations } from "./settlements";
import { simulationOperations } from "./simulations";
import { webhookOperations } from "./webhooks";

// Every /v1 operation, in document order. A test fails when a route under app/v1 is not listed here.
export const OPERATIONS: readonly Operation[] = [...platformOperations, ...customerOperations, ...simulationOperations, ...proposalOperations, ...contractOperations, ...riskOperations, ...payrollOperations, ...collectionOperations, ...settlementOperations, ...assignmentOperations, ...webhookOperations, ...sandboxOperations];
