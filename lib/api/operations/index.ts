import type { Operation } from "../operation";
import { platformOperations } from "./platform";

// Every /v1 operation, in document order. A test fails when a route under app/v1 is not listed here.
export const OPERATIONS: readonly Operation[] = [...platformOperations];
