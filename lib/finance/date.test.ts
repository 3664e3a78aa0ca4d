import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addDays, addMonths, daysBetween, fromDayNumber, parseIsoDate, toDayNumber, weekday } from "./date";
import { monthsAndDays } from "./rates";

describe("date", () => {
  it("validates YYYY-MM-DD", () => {
    expect(parseIsoDate("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
    for (const bad of ["2025-02-29", "2025-13-01", "2025-1-01", "2025-01-01T00:00:00Z", ""]) {
      expect(() => parseIsoDate(bad)).toThrow(RangeError);
    }
  });

  it("counts days across leap years", () => {
    expect(daysBetween("2024-01-01", "2025-01-01")).toBe(366);
    expect(daysBetween("2025-01-01", "2026-01-01")).toBe(365);
    expect(daysBetween("2026-03-01", "2026-02-01")).toBe(-28);
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(weekday("2026-01-01")).toBe(4); // Thursday
  });

  it("adds months clamping to the end of the month", () => {
    expect(addMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(addMonths("2025-01-31", 1)).toBe("2025-02-28");
    expect(addMonths("2025-03-31", 1)).toBe("2025-04-30");
    expect(addMonths("2025-12-15", 1)).toBe("2026-01-15");
    expect(addMonths("2025-01-15", -2)).toBe("2024-11-15");
    expect(addMonths("2025-01-31", 13)).toBe("2026-02-28");
  });

  it("splits an interval into whole months and days", () => {
    expect(monthsAndDays("2025-01-10", "2025-03-25")).toEqual({ months: 2, days: 15 });
    expect(monthsAndDays("2025-01-31", "2025-02-28")).toEqual({ months: 1, days: 0 });
    expect(monthsAndDays("2025-01-15", "2025-02-10")).toEqual({ months: 0, days: 26 });
    // A month end is a month end either way: after a short month, the due dates of a month-end contract are whole
    // months away (counted back from them), not a month and 1–3 days.
    expect(monthsAndDays("2026-02-28", "2026-03-31")).toEqual({ months: 1, days: 0 });
    expect(monthsAndDays("2026-02-28", "2026-04-30")).toEqual({ months: 2, days: 0 });
    expect(monthsAndDays("2026-02-28", "2026-05-31")).toEqual({ months: 3, days: 0 });
    expect(monthsAndDays("2026-02-28", "2026-03-28")).toEqual({ months: 1, days: 0 });
    expect(monthsAndDays("2026-02-27", "2026-03-31")).toEqual({ months: 1, days: 1 }); // a day to February's end, then month end to month end
    expect(monthsAndDays("2025-01-30", "2025-03-01")).toEqual({ months: 1, days: 1 }); // Jan 30 + 1 month = Feb 28, then a day
    expect(monthsAndDays("2026-03-10", "2026-03-10")).toEqual({ months: 0, days: 0 });
  });

  it("counts whole months from a month-end disbursement's payoff on a due date: the discount periods are 1, 2, 3 … (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2190 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 60 }), (year, month, ahead) => {
        const anchor = `${year}-${String(month).padStart(2, "0")}-31`.replace(/-(02|04|06|09|11)-31$/, (_, m: string) => `-${m}-${m === "02" ? "28" : "30"}`);
        const payoff = addMonths(anchor, 1); // a due date of a contract anchored on the 31st (or the month's end)
        const due = addMonths(anchor, 1 + ahead);
        expect(monthsAndDays(payoff, due).months).toBe(ahead);
      }),
    );
  });

  it("agrees with UTC Date arithmetic (property)", () => {
    const day = fc.integer({ min: -150_000, max: 150_000 });
    fc.assert(
      fc.property(day, (n) => {
        const iso = new Date(n * 86_400_000).toISOString().slice(0, 10);
        expect(fromDayNumber(n)).toBe(iso);
        expect(toDayNumber(iso)).toBe(n);
        expect(weekday(iso)).toBe(new Date(n * 86_400_000).getUTCDay());
      }),
      { numRuns: 200 },
    );
  });
});
