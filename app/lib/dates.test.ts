import { describe, expect, it } from "vitest";
import {
  addDays,
  clinicToday,
  instantOf,
  expiryClock,
  formatClock,
  formatDay,
  formatSlot,
  localDayAndClock,
} from "./dates";
import { dayjs } from "./dayjs";

describe("hold display", () => {
  it("formats the slot as ddd MMM D @ h:mm A", () => {
    expect(formatSlot("2026-12-07T14:30:00")).toBe("Mon Dec 7 @ 2:30 PM");
  });
  it("rounds the expiry up to the next minute when seconds exceed 5", () => {
    expect(expiryClock("2026-12-07T16:10:05Z", "America/Chicago")).toBe("10:10 AM");
    expect(expiryClock("2026-12-07T16:10:06Z", "America/Chicago")).toBe("10:11 AM");
    // Rounding up crosses the hour, and noon.
    expect(expiryClock("2026-12-07T17:59:30Z", "America/Chicago")).toBe("12:00 PM");
  });
  it("knows the clinic's today", () => {
    expect(clinicToday("America/Los_Angeles", new Date("2026-12-08T03:00:00Z"))).toBe("2026-12-07");
    expect(clinicToday("America/New_York", new Date("2026-12-08T05:00:00Z"))).toBe("2026-12-08");
  });
  it("turns the clinic's today at its midnight, asked again and again around it, zone by zone", () => {
    // Chicago's midnight is 06:00 UTC in December; each answer is remembered for its minute only.
    for (let round = 0; round < 2; round++) {
      expect(clinicToday("America/Chicago", new Date("2026-12-08T05:59:00Z"))).toBe("2026-12-07");
      expect(clinicToday("America/Chicago", new Date("2026-12-08T05:59:59.999Z"))).toBe("2026-12-07");
      expect(clinicToday("America/New_York", new Date("2026-12-08T05:59:30Z"))).toBe("2026-12-08");
      expect(clinicToday("America/Chicago", new Date("2026-12-08T06:00:00Z"))).toBe("2026-12-08");
      expect(clinicToday("America/Chicago", new Date("2026-12-08T06:00:59Z"))).toBe("2026-12-08");
    }
    // India is five and a half hours ahead: its midnight is at a half hour of UTC.
    expect(clinicToday("Asia/Kolkata", new Date("2026-12-07T18:29:59Z"))).toBe("2026-12-07");
    expect(clinicToday("Asia/Kolkata", new Date("2026-12-07T18:30:00Z"))).toBe("2026-12-08");
  });
  it("knows the clinic's weekday and clock, midnight as 00:00, across a change of daylight saving", () => {
    expect(localDayAndClock(new Date("2026-12-08T06:00:00Z"), "America/Chicago")).toEqual({
      dayOfWeek: 2,
      clock: "00:00",
    });
    expect(localDayAndClock(new Date("2026-12-06T01:30:00Z"), "America/Chicago")).toEqual({
      dayOfWeek: 6,
      clock: "19:30",
    });
    // 1 November 2026: the clocks go back from 02:00 CDT (07:00 UTC), so 01:30 comes twice.
    expect(localDayAndClock(new Date("2026-11-01T06:30:00Z"), "America/Chicago")).toEqual({
      dayOfWeek: 0,
      clock: "01:30",
    });
    expect(localDayAndClock(new Date("2026-11-01T07:30:00Z"), "America/Chicago")).toEqual({
      dayOfWeek: 0,
      clock: "01:30",
    });
    expect(localDayAndClock(new Date("2026-11-01T08:30:00Z"), "America/Chicago")).toEqual({
      dayOfWeek: 0,
      clock: "02:30",
    });
    expect(clinicToday("America/Chicago", new Date("2026-11-01T04:59:00Z"))).toBe("2026-10-31");
  });
  it("writes days in the pages' patterns", () => {
    expect(formatDay("2026-12-07", "ddd MMM D")).toBe("Mon Dec 7");
    expect(formatDay("2026-12-07", "dddd, MMMM D")).toBe("Monday, December 7");
    expect(formatDay("2026-12-07", "ddd MMM D")).toBe("Mon Dec 7");
  });
  it("writes clocks in 12-hour form", () => {
    expect(formatClock("09:00")).toBe("9:00 AM");
    expect(formatClock("00:30")).toBe("12:30 AM");
    expect(formatClock("19:05")).toBe("7:05 PM");
  });
});

describe("the pages' dates, written without a date library", () => {
  // Every day of 2026 to 2028 (a leap year among them) and every clock of a day, as dayjs writes them.
  const days = Array.from({ length: 3 * 366 }, (_, i) => dayjs("2026-01-01").add(i, "day").format("YYYY-MM-DD"));
  it("writes every day as dayjs did, in each of the pages' patterns", () => {
    for (const day of days)
      for (const pattern of ["ddd MMM D", "dddd, MMMM D", "MMM D, YYYY"] as const)
        expect(formatDay(day, pattern), `${day} ${pattern}`).toBe(dayjs(day).format(pattern));
  });
  it("writes every clock of a day as dayjs did", () => {
    for (let minute = 0; minute < 24 * 60; minute++) {
      const hhmm = `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
      expect(formatClock(hhmm)).toBe(dayjs(hhmm, "HH:mm").format("h:mm A"));
    }
  });
  it("counts days across months, years and February 29", () => {
    for (const day of days) expect(addDays(day, 365)).toBe(dayjs(day).add(365, "day").format("YYYY-MM-DD"));
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(() => addDays("soon", 1)).toThrow();
  });
  it("writes a slot as dayjs did", () => {
    expect(formatSlot("2026-12-07T00:05:00")).toBe("Mon Dec 7 @ 12:05 AM");
    expect(formatSlot("2028-02-29T12:00:00")).toBe(dayjs("2028-02-29T12:00:00").format("ddd MMM D @ h:mm A"));
  });
});

describe("a clinic's wall-clock time as an instant", () => {
  /**
   * Every 30th hour of 2026 (each hour of the day in turn, every month), and every half hour of the
   * two days the clocks change in the US.
   */
  const locals = [
    ...Array.from({ length: (365 * 24) / 30 }, (_, i) => dayjs("2026-01-01T00:00:00").add(i * 30, "hour")),
    ...["2026-03-08", "2026-11-01"].flatMap((day) =>
      Array.from({ length: 48 }, (_, i) => dayjs(`${day}T00:00:00`).add(i * 30, "minute")),
    ),
  ].map((local) => local.format("YYYY-MM-DDTHH:mm:ss"));

  it("is the instant dayjs finds, in four zones, daylight saving's changes included", () => {
    for (const zone of ["America/Chicago", "America/New_York", "America/Phoenix", "America/Los_Angeles"]) {
      for (const local of locals) {
        const expected = dayjs.tz(local, "YYYY-MM-DDTHH:mm:ss", zone).valueOf();
        const found = instantOf(local, zone);
        const shows = (instant: number) => dayjs(instant).tz(zone).format("YYYY-MM-DDTHH:mm:ss");
        if (shows(expected) !== local) {
          // The hour the clocks skip has no such time: an hour either side will do.
          expect(Math.abs(found - expected)).toBeLessThanOrEqual(3_600_000);
        } else if (shows(expected - 3_600_000) === local || shows(expected + 3_600_000) === local) {
          // The hour the clocks repeat has two such times: either is that time.
          expect(shows(found), `${local} ${zone}`).toBe(local);
        } else expect(found, `${local} ${zone}`).toBe(expected);
      }
    }
  });
});
