import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { cancelEachLapsed, type Lapsable } from "./cancel-lapsed";

// The collection job's lapse step: every candidate is tried once, in pages by id; one still clearing is kept; one
// that changed meanwhile is skipped; one that fails otherwise is left for the next run without stopping the others;
// a database outage fails the run.

const rows = (ids: string[]): Lapsable[] => ids.map((id) => ({ id, tenantId: "ten_1", environment: "sandbox" }));
const pages = (all: Lapsable[], size = 2) => async (after: string) => all.filter((r) => r.id > after).slice(0, size);

describe("cancelEachLapsed", () => {
  it("cancels what lapsed across pages, keeps what is still clearing, goes on past a failure and a change", async () => {
    const tried: string[] = [];
    const result = await cancelEachLapsed("thing", pages(rows(["a", "b", "c", "d", "e"])), (r) => r.id === "b", async (r) => {
      tried.push(r.id);
      if (r.id === "c") throw new Error("a bug in one of them");
      if (r.id === "d") throw new DomainError("invalid_transition", "completed meanwhile");
    });
    expect(tried).toEqual(["a", "c", "d", "e"]);
    expect(result).toEqual({ canceled: 2 });
  });

  it("fails the run when the database is down", async () => {
    const down = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    await expect(cancelEachLapsed("thing", pages(rows(["a", "b"])), () => false, async () => Promise.reject(down))).rejects.toBe(down);
  });
});
