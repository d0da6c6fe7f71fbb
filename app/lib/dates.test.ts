import { describe, expect, it } from "vitest";
import { clinicToday, displayedExpiry, formatClock, formatDay, formatSlot, localDayAndClock } from "./dates";

describe("hold display", () => {
  it("formats the slot as ddd MMM D @ h:mm A", () => {
    expect(formatSlot("2026-12-07T14:30:00")).toBe("Mon Dec 7 @ 2:30 PM");
  });
  it("rounds the expiry up to the next minute when seconds exceed 5", () => {
    expect(displayedExpiry("2026-12-07T16:10:05Z", "America/Chicago").format("h:mm A")).toBe("10:10 AM");
    expect(displayedExpiry("2026-12-07T16:10:06Z", "America/Chicago").format("h:mm A")).toBe("10:11 AM");
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
