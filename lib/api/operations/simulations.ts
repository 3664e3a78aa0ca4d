import { CreateSimulationBody, ListSimulationsQuery, SimulationIdParams, SimulationResponse, SimulationSummary } from "@/lib/simulations/schemas";
import { listEnvelope } from "@/lib/pagination";
import { defineOperation, deprecationHeader } from "../operation";

/** Answer headers when the request used the deprecated `tax_rate` field (spec 1.3.0). */
export const TAX_RATE_DEPRECATION_HEADERS = {
  deprecation: deprecationHeader("2023-12-01"), // release 1.3.0: "@1701388800"
  link: '</v1/openapi.json>; rel="deprecation"',
  warning: '299 - "tax_rate is deprecated; use monthly_rate"',
};

export const createSimulationOperation = defineOperation({
  operationId: "createSimulation",
  deprecationHeaders: true, // when `tax_rate` is used
  method: "POST",
  path: "/v1/simulations",
  summary: "Simulate a loan: schedule, IOF and CET",
  description:
    "Computes and stores a simulation. Money is integer centavos (BRL); rates are decimal strings compared exactly. " +
    "`principal` = net + financed fees (+ IOF when `iof_financed`, solved as the smallest principal that releases at least the net: " +
    "exactly the net in about 90% of Price and 98% of SAC loans, a few centavos more in the rest); " +
    "`released_amount` = principal − financed fees − financed IOF; `upfront_charges` (fees not financed, IOF when not " +
    "financed) are paid by the borrower on the disbursement date. CET (Res. CMN 4.881/2020) solves " +
    "Σ installmentⱼ/(1+CET)^(daysⱼ/365) = released_amount − upfront_charges. Interest accrues on nominal monthly " +
    "periods; due dates move per `due_date_rule` on the national bank calendar, and IOF and CET use the moved dates. " +
    "The product's term, rate cap and amount range are enforced: 400 `product_rule_violation` with `errors`. " +
    "`tax_rate` (deprecated) still works: the answer then carries `Deprecation: @1701388800` (RFC 9745: since 2023-12-01, release 1.3.0), `Link: </v1/openapi.json>; " +
    "rel=\"deprecation\"` and `Warning: 299 - \"tax_rate is deprecated; use monthly_rate\"`. A simulation changes no " +
    "agreement, so no audit entry is written; a `simulation.created` event (without the schedule) is.",
  tags: ["Simulations"],
  auth: "bearer",
  permission: "simulations:write",
  body: CreateSimulationBody,
  responses: { 201: { description: "The simulation, stored.", schema: SimulationResponse } },
  errors: [404],
});

export const listSimulationsOperation = defineOperation({
  operationId: "listSimulations",
  method: "GET",
  path: "/v1/simulations",
  summary: "List simulations, newest first",
  description: "The standard pagination (`limit`, `cursor`). Items leave out `schedule`: get one by id for it.",
  tags: ["Simulations"],
  auth: "bearer",
  permission: "simulations:read",
  query: ListSimulationsQuery,
  responses: { 200: { description: "A page of simulations.", schema: listEnvelope(SimulationSummary) } },
});

export const getSimulationOperation = defineOperation({
  operationId: "getSimulation",
  method: "GET",
  path: "/v1/simulations/{id}",
  summary: "Get a simulation",
  description: "The same object POST /v1/simulations answered. Another tenant's or environment's id: 404.",
  tags: ["Simulations"],
  auth: "bearer",
  permission: "simulations:read",
  params: SimulationIdParams,
  responses: { 200: { description: "The simulation.", schema: SimulationResponse } },
  errors: [404],
});

export const simulationOperations = [createSimulationOperation, listSimulationsOperation, getSimulationOperation];
