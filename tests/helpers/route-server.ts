import * as customers from "@/app/v1/customers/route";
import * as endorsements from "@/app/v1/payroll/endorsements/route";
import * as reservations from "@/app/v1/payroll/margin-reservations/route";
import * as settlementBatch from "@/app/v1/settlements/batch/route";
import * as repasse from "@/app/v1/sandbox/repasse/route";
import * as simulations from "@/app/v1/simulations/route";
import { createHandlerServer } from "./serve-handlers";

// A server process for fault tests (kill -9 mid-write, then restart): it serves the real /v1 route handlers
// — wrapper, services, database — over node:http, the way Next hands them a Request. Only the routes the
// fault tests write to are mounted. Started with `node --import tsx tests/helpers/route-server.ts`; PORT and
// DATABASE_URL come from the environment; prints "listening" when ready.

const server = createHandlerServer({
  "/v1/customers": { GET: customers.GET, POST: customers.POST },
  "/v1/simulations": { GET: simulations.GET, POST: simulations.POST },
  "/v1/settlements/batch": { POST: settlementBatch.POST },
  "/v1/payroll/endorsements": { GET: endorsements.GET, POST: endorsements.POST },
  "/v1/payroll/margin-reservations": { GET: reservations.GET, POST: reservations.POST },
  "/v1/sandbox/repasse": { POST: repasse.POST },
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
