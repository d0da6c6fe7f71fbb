import { describe, expect, it } from "vitest";
import { bookingDates, filterSlots, normalizeBookingDate, slotGroupOf } from "./booking";

describe("booking dates", () => {
  it("offers the lookahead window without Sundays", () => {
    const dates = bookingDates("2026-12-05", 9); // a Saturday
    expect(dates).toEqual(["2026-12-05", "2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10", "2026-12-11", "2026-12-12"]);
  });

  it("moves a Sunday to the next day and refuses past, far or malformed dates", () => {
    expect(normalizeBookingDate("2026-12-06", "2026-12-01")).toBe("2026-12-07");
    expect(normalizeBookingDate("2026-11-30", "2026-12-01")).toBeNull();
    expect(normalizeBookingDate("2027-06-01", "2026-12-01")).toBeNull();
    expect(normalizeBookingDate("2026-02-30", "2026-01-01")).toBeNull();
    expect(normalizeBookingDate("2026-12-32", "2026-12-01")).toBeNull();
    expect(normalizeBookingDate("2026-13-01", "2026-12-01")).toBeNull();
    expect(normalizeBookingDate("2026-00-10", "2026-12-01")).toBeNull();
    expect(normalizeBookingDate("2026-12-00", "2026-12-01")).toBeNull();
    expect(normalizeBookingDate("tomorrow", "2026-12-01")).toBeNull();
    expect(normalizeBookingDate(null, "2026-12-01")).toBeNull();
  });
});

describe("slot groups", () => {
  const times = ["2026-12-07T09:00:00", "2026-12-07T11:45:00", "2026-12-07T12:00:00", "2026-12-07T16:45:00", "2026-12-07T17:00:00", "2026-12-07T19:15:00"];
  it("groups Morning, Afternoon, Evening and All", () => {
    expect(times.map(slotGroupOf)).toEqual(["morning", "morning", "afternoon", "afternoon", "evening", "evening"]);
    expect(filterSlots(times, "afternoon")).toEqual(["2026-12-07T12:00:00", "2026-12-07T16:45:00"]);
    expect(filterSlots(times, "all")).toHaveLength(6);
  });
});
