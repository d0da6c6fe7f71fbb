import { describe, expect, it } from "vitest";
import {
  bookingDates,
  CANCELLATION_POLICY,
  cancellationPolicyLine,
  cancellationReminder,
  lateCancellationNote,
  dateStrip,
  filterSlots,
  normalizeBookingDate,
  priceLines,
  slotGroupOf,
  weekLeads,
} from "./booking";
import { LATE_CHANGE_FEE_CENTS, LATE_CHANGE_HOURS } from "./appointments";
import type { Service } from "./catalog";
import { applyDiscounts } from "./discounts";

describe("booking dates", () => {
  it("offers the lookahead window without Sundays", () => {
    const dates = bookingDates("2026-12-05", 9); // a Saturday
    expect(dates).toEqual([
      "2026-12-05",
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
      "2026-12-10",
      "2026-12-11",
      "2026-12-12",
    ]);
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
  const times = [
    "2026-12-07T09:00:00",
    "2026-12-07T11:45:00",
    "2026-12-07T12:00:00",
    "2026-12-07T16:45:00",
    "2026-12-07T17:00:00",
    "2026-12-07T19:15:00",
  ];
  it("groups Morning, Afternoon, Evening and All", () => {
    expect(times.map(slotGroupOf)).toEqual(["morning", "morning", "afternoon", "afternoon", "evening", "evening"]);
    expect(filterSlots(times, "afternoon")).toEqual(["2026-12-07T12:00:00", "2026-12-07T16:45:00"]);
    expect(filterSlots(times, "all")).toHaveLength(6);
  });
});

describe("price lines", () => {
  const service = (id: string, name: string, price: number): Service => ({
    id,
    code: id,
    name,
    displayName: name,
    description: "",
    category: "",
    subCategory: null,
    durationMinutes: 15,
    recoveryMinutes: 0,
    price,
    isAddOn: false,
    addOnIds: [],
    canBook: true,
    imageUrl: null,
  });

  it("lists the treatment, then its add-ons, with their prices in cents and the kind a discount rule matches", () => {
    const lines = priceLines(service("ft", "Signature Laser Facial", 27500), [
      service("led", "LED Enhancement (Addon)", 4999),
      service("fx", "Fixer", 0),
    ]);
    expect(lines).toEqual([
      { serviceId: "ft", kind: "service", name: "Signature Laser Facial", price: 27500 },
      { serviceId: "led", kind: "addon-service", name: "LED Enhancement (Addon)", price: 4999 },
      { serviceId: "fx", kind: "addon-fixer", name: "Fixer", price: 0 },
    ]);
  });

  it("prices a fixer booked alone as a fixer line", () => {
    expect(priceLines(service("fx", "Fixer", 4000), [])).toEqual([
      { serviceId: "fx", kind: "addon-fixer", name: "Fixer", price: 4000 },
    ]);
  });

  it("sums to the cent with a percentage off every line", () => {
    const lines = priceLines(service("ft", "Signature Laser Facial", 19999), [
      service("a", "LED Enhancement (Addon)", 1999),
      service("b", "Eye Enhancement (Addon)", 1999),
    ]);
    const rules = (["service", "addon-service"] as const).map((t) => ({
      discount_type: "percentage" as const,
      discount_value: 10,
      service_id: null,
      service_type: t,
    }));
    expect(applyDiscounts(lines, rules)).toMatchObject({ subtotal: 23997, discount: 2400, total: 21597 });
  });
});

describe("the date strip", () => {
  // Tuesday 24 November 2026: the list runs four weeks, Sundays left out.
  const dates = bookingDates("2026-11-24");

  it("shows seven bookable days from the day shown, whatever its weekday, never cut at the week's end", () => {
    // A Friday: Friday, Saturday and the next week's Monday to Thursday (the Sunday left out).
    expect(dateStrip(dates, "2026-11-27")).toEqual({
      days: ["2026-11-27", "2026-11-28", "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"],
      earlier: "2026-11-24",
      later: "2026-12-05",
    });
    // Every day of the list but the last six starts a strip of its own, seven days long.
    for (const [index, date] of dates.entries()) {
      const strip = dateStrip(dates, date);
      expect(strip.days, date).toHaveLength(7);
      expect(strip.days, date).toEqual(
        dates.slice(Math.min(index, dates.length - 7), Math.min(index, dates.length - 7) + 7),
      );
      expect(strip.days.includes(date), date).toBe(true);
    }
  });

  it("goes seven days back and on, and has no way further at either end of the list", () => {
    const first = dateStrip(dates, dates[0]);
    expect(first.earlier).toBeNull();
    expect(first.later).toBe(dates[7]);
    expect(dateStrip(dates, first.later!).earlier).toBe(dates[0]);
    // Seven days back from a strip that starts on the fourth date: the first, which starts a full strip.
    expect(dateStrip(dates, dates[3]).earlier).toBe(dates[0]);
    const last = dateStrip(dates, dates.at(-1)!);
    expect(last.later).toBeNull();
    expect(last.days).toEqual(dates.slice(-7));
    expect(last.earlier).toBe(dates.at(-14));
    // Pressing "later" until it runs out ends on the list's last seven days.
    let strip = first;
    const seen: string[] = [];
    while (strip.later) {
      seen.push(...strip.days);
      strip = dateStrip(dates, strip.later);
    }
    expect(strip.days).toEqual(dates.slice(-7));
    expect(new Set([...seen, ...strip.days]).size).toBe(dates.length);
  });

  it("starts at the next date for a day not in the list, and at the first for one after it", () => {
    expect(dateStrip(dates, "2026-11-29").days[0]).toBe("2026-11-30");
    expect(dateStrip(dates, "2030-01-01").days[0]).toBe("2026-11-24");
    expect(dateStrip(["2026-11-24", "2026-11-25"], "2026-11-25")).toEqual({
      days: ["2026-11-24", "2026-11-25"],
      earlier: null,
      later: null,
    });
  });

  it("reads one day of each week the strip touches, the first one not skipped", () => {
    const strip = dateStrip(dates, "2026-11-27").days;
    expect(weekLeads(strip)).toEqual(["2026-11-27", "2026-11-30"]);
    expect(weekLeads(strip, (d) => d <= "2026-11-28")).toEqual(["2026-11-30"]);
    expect(weekLeads(strip, (d) => d === "2026-11-27" || d === "2026-11-30")).toEqual(["2026-11-28", "2026-12-01"]);
    expect(weekLeads(strip, () => true)).toEqual([]);
    // Across a year's turn: the week runs Monday 28 December to Saturday 2 January.
    expect(weekLeads(["2026-12-31", "2027-01-01", "2027-01-02", "2027-01-04"])).toEqual(["2026-12-31", "2027-01-04"]);
  });

  it("makes a day's list once, and a new one when the day turns", () => {
    expect(bookingDates("2026-11-24")).toBe(bookingDates("2026-11-24"));
    expect(Object.isFrozen(bookingDates("2026-11-24"))).toBe(true);
    expect(bookingDates("2026-11-25")[0]).toBe("2026-11-25");
    expect(bookingDates("2026-11-25", 3)).toEqual(["2026-11-25", "2026-11-26", "2026-11-27"]);
    expect(bookingDates("2026-11-24")).toEqual(dates);
  });

  it("counts weeks and Sundays across the turn of a year and a leap day", () => {
    const aroundNewYear = bookingDates("2026-12-28", 9);
    expect(aroundNewYear).toEqual([
      "2026-12-28",
      "2026-12-29",
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
      "2027-01-04",
      "2027-01-05",
    ]);
    expect(dateStrip(aroundNewYear, "2027-01-01").days).toEqual([
      "2026-12-29",
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
      "2027-01-04",
      "2027-01-05",
    ]);
    expect(bookingDates("2028-02-27", 4)).toEqual(["2028-02-28", "2028-02-29", "2028-03-01"]);
    expect(normalizeBookingDate("2028-02-27", "2028-02-20")).toBe("2028-02-28");
  });
});

describe("cancellationPolicyLine", () => {
  it("says the window, the lateness and the fee of the policy it is given", () => {
    expect(cancellationPolicyLine({ feeCents: 4050, windowHours: 24, lateMinutes: 10 })).toBe(
      "Free to cancel or reschedule up to 24 hours before. Later, a missed visit or arriving more than 10 minutes late costs $40.50.",
    );
  });

  it("is what the messages remind of and what a late cancellation is told, from the same policy", () => {
    const policy = { feeCents: 4050, windowHours: 24, lateMinutes: 10 };
    expect(cancellationReminder(policy)).toBe(
      "To cancel or reschedule without the $40.50 fee, do so at least 24 hours before",
    );
    expect(lateCancellationNote(policy)).toBe(
      "As it was cancelled less than 24 hours ahead, the $40.50 late-cancellation fee applies.",
    );
  });

  it("states the chain's policy, the one a late cancel or move charges", () => {
    expect(CANCELLATION_POLICY).toEqual({ feeCents: 2500, windowHours: 12, lateMinutes: 5 });
    expect(LATE_CHANGE_FEE_CENTS).toBe(CANCELLATION_POLICY.feeCents);
    expect(LATE_CHANGE_HOURS).toBe(CANCELLATION_POLICY.windowHours);
    expect(cancellationPolicyLine(CANCELLATION_POLICY)).toContain("costs $25.");
  });
});
