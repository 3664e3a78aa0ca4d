import { describe, expect, it } from "vitest";
import { addBusinessDays, adjust, businessDaysBetween, isBusinessDay, nextBusinessDay, previousBusinessDay } from "./business-days";
import { generateDueDates, monthlyDueDatesAfter } from "./due-dates";
import { easterSunday } from "./easter";
import { isHoliday, nationalHolidays } from "./holidays";

describe("easter", () => {
  // Known Gregorian Easter dates (e.g. timeanddate.com, USNO tables); 2285 and 2038 are the
  // earliest (Mar 22) and latest (Apr 25) extremes.
  it.each([
    [1961, "1961-04-02"],
    [2000, "2000-04-23"],
    [2019, "2019-04-21"],
    [2024, "2024-03-31"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2038, "2038-04-25"],
    [2285, "2285-03-22"],
  ])("%i → %s", (year, date) => expect(easterSunday(year)).toBe(date));
});

describe("national bank holidays", () => {
  it("lists 2026 with the Easter-based days", () => {
    const dates = nationalHolidays(2026).map((h) => h.date);
    expect(dates).toEqual([
      "2026-01-01",
      "2026-02-16", // Carnival Monday (Easter − 48)
      "2026-02-17", // Carnival Tuesday (Easter − 47)
      "2026-04-03", // Good Friday
      "2026-04-21",
      "2026-05-01",
      "2026-06-04", // Corpus Christi (Easter + 60)
      "2026-09-07",
      "2026-10-12",
      "2026-11-02",
      "2026-11-15",
      "2026-11-20",
      "2026-12-25",
      "2026-12-31", // the year's last business day: banks closed to the public (Res. CMN 2.932/2002)
    ]);
  });

  it("the year's last business day is not one: 31 December, or the Friday before it when that falls on a weekend", () => {
    expect(isBusinessDay("2026-12-31")).toBe(false); // a Thursday
    expect(isBusinessDay("2026-12-30")).toBe(true);
    expect(isBusinessDay("2022-12-30")).toBe(false); // 31 December 2022 was a Saturday
    expect(isBusinessDay("2021-12-31")).toBe(false); // a Friday
    expect(isBusinessDay("2021-12-30")).toBe(true);
  });

  it("treats Nov 20 as national only from 2024 (Lei 14.759/2023)", () => {
    expect(isHoliday("2023-11-20")).toBe(false);
    expect(isHoliday("2024-11-20")).toBe(true);
    expect(isBusinessDay("2023-11-20")).toBe(true); // a Monday
  });

  it("accepts extra local holidays", () => {
    expect(isHoliday("2026-01-25")).toBe(false);
    expect(isHoliday("2026-01-25", { extraHolidays: ["2026-01-25"] })).toBe(true);
  });
});

describe("business days", () => {
  it("skips weekends and holidays", () => {
    expect(isBusinessDay("2026-02-13")).toBe(true); // Friday before Carnival
    expect(isBusinessDay("2026-02-14")).toBe(false); // Saturday
    expect(nextBusinessDay("2026-02-13")).toBe("2026-02-18"); // Ash Wednesday
    expect(previousBusinessDay("2026-04-06")).toBe("2026-04-02"); // over Good Friday + weekend
    expect(addBusinessDays("2026-02-13", 2)).toBe("2026-02-19");
    expect(businessDaysBetween("2026-02-13", "2026-02-20")).toBe(3);
  });

  it("adjusts by rule", () => {
    expect(adjust("2026-02-16", "keep")).toBe("2026-02-16");
    expect(adjust("2026-02-16", "following")).toBe("2026-02-18");
    expect(adjust("2026-02-16", "preceding")).toBe("2026-02-13");
    expect(adjust("2026-02-18", "following")).toBe("2026-02-18");
  });

  it("generates monthly due dates from the first one", () => {
    expect(generateDueDates("2026-01-31", 4)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
    // Jan 31 2026 is a Saturday, Feb 28 a Saturday: following → Feb 2 and Mar 2.
    expect(generateDueDates("2026-01-31", 4, "following")).toEqual(["2026-02-02", "2026-03-02", "2026-03-31", "2026-04-30"]);
    expect(generateDueDates("2026-01-31", 2, "preceding")).toEqual(["2026-01-30", "2026-02-27"]);
    expect(monthlyDueDatesAfter("2025-12-31", 3)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31"]);
  });
});
