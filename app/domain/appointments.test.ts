import { describe, expect, it } from "vitest";
import { dayjs } from "~/lib/dayjs";
import {
  discountName,
  bookedVisit,
  hasUpcomingAppointment,
  insideFeeWindow,
  isUpcoming,
  pageOf,
  parseAppointmentTab,
  statusLabel,
  totalDurationMinutes,
  visitHistory,
  type VisitService,
} from "./appointments";

const zone = "America/Chicago";
const at = (local: string) => dayjs.tz(local, "YYYY-MM-DDTHH:mm:ss", zone).valueOf();
const service = (over: Partial<VisitService> = {}): VisitService => ({
  name: "Signature Laser Facial",
  start: "2026-12-01T10:00:00",
  durationMinutes: 30,
  status: 0,
  isAddOn: false,
  ...over,
});

describe("statusLabel", () => {
  it.each([
    [-2, "No show"],
    [-1, "Cancelled"],
    [0, "Booked"],
    [1, "Completed"],
    [2, "In progress"],
    [4, "In progress"],
  ])("%i reads %s", (code, label) => expect(statusLabel(code)).toBe(label));
});

describe("parseAppointmentTab", () => {
  it.each([
    ["upcoming", "upcoming"],
    ["past", "past"],
    ["0", "upcoming"],
    ["1", "past"],
    [null, "upcoming"],
    ["PAST", "upcoming"],
    ["2", "upcoming"],
  ])("%s is the %s tab", (value, tab) => expect(parseAppointmentTab(value)).toBe(tab));
});

describe("totalDurationMinutes", () => {
  it("is the first service's duration for a visit of plain services", () => {
    expect(
      totalDurationMinutes([service({ durationMinutes: 45 }), service({ name: "Glow Peel", durationMinutes: 30 })]),
    ).toBe(45);
  });
  it("adds every service when one is flagged an add-on", () => {
    expect(
      totalDurationMinutes([
        service({ durationMinutes: 30 }),
        service({ name: "Hydrating Mask", durationMinutes: 15, isAddOn: true }),
      ]),
    ).toBe(45);
  });
  it("adds every service when a name carries the add-on marker", () => {
    expect(
      totalDurationMinutes([service({ durationMinutes: 30 }), service({ name: "LED Add-On", durationMinutes: 10 })]),
    ).toBe(40);
    expect(
      totalDurationMinutes([
        service({ durationMinutes: 30 }),
        service({ name: "Dermaplane (Addon)", durationMinutes: 10 }),
      ]),
    ).toBe(40);
  });
  it("adds every service when a treatment area is booked", () => {
    expect(
      totalDurationMinutes([
        service({ name: "Laser Hair Removal", durationMinutes: 30 }),
        service({ name: "Laser Hair Removal Area - Underarms", durationMinutes: 15 }),
        service({ name: "Laser Hair Removal Area - Back", durationMinutes: 30 }),
      ]),
    ).toBe(75);
  });
  it("is 0 for no services and never negative", () => {
    expect(totalDurationMinutes([])).toBe(0);
    expect(totalDurationMinutes([service({ durationMinutes: -5 })])).toBe(0);
  });
});

describe("isUpcoming", () => {
  it("is upcoming before the start", () => {
    expect(isUpcoming([service()], at("2026-12-01T09:00:00"), zone)).toBe(true);
  });
  it("stays upcoming until the total duration has passed", () => {
    const visit = [
      service({ durationMinutes: 30 }),
      service({ name: "Mask Add-On", durationMinutes: 15, start: "2026-12-01T10:30:00" }),
    ];
    expect(isUpcoming(visit, at("2026-12-01T10:44:59"), zone)).toBe(true);
    expect(isUpcoming(visit, at("2026-12-01T10:45:00"), zone)).toBe(false);
  });
  it("uses only the first service's duration for plain services", () => {
    const visit = [
      service({ durationMinutes: 30 }),
      service({ name: "Glow Peel", durationMinutes: 60, start: "2026-12-01T10:30:00" }),
    ];
    expect(isUpcoming(visit, at("2026-12-01T10:29:00"), zone)).toBe(true);
    expect(isUpcoming(visit, at("2026-12-01T10:30:00"), zone)).toBe(false);
  });
  it.each([-2, -1, 1, 4])("is never upcoming with status %i", (status) => {
    expect(isUpcoming([service({ status })], at("2026-11-01T09:00:00"), zone)).toBe(false);
  });
  it("reads the status of the earliest service, whatever the order", () => {
    const visit = [
      service({ name: "Mask Add-On", start: "2026-12-01T10:30:00", status: -1, isAddOn: true }),
      service({ status: 0 }),
    ];
    expect(isUpcoming(visit, at("2026-11-01T09:00:00"), zone)).toBe(true);
  });
  it("reads the start on the clinic's clock", () => {
    // 10:00 in Chicago is 16:00 UTC; at 15:59 UTC it has not started.
    expect(isUpcoming([service()], Date.parse("2026-12-01T16:29:00Z"), zone)).toBe(true);
    expect(isUpcoming([service()], Date.parse("2026-12-01T16:30:00Z"), zone)).toBe(false);
    expect(isUpcoming([service()], Date.parse("2026-12-01T16:29:00Z"), "America/New_York")).toBe(false);
  });
  it("is false for a visit with no services", () => {
    expect(isUpcoming([], 0, zone)).toBe(false);
  });
});

describe("hasUpcomingAppointment", () => {
  it("is any visit whose first service has status 0", () => {
    expect(
      hasUpcomingAppointment([{ services: [service({ status: 1 })] }, { services: [service({ status: 0 })] }]),
    ).toBe(true);
    expect(hasUpcomingAppointment([{ services: [service({ status: -1 })] }])).toBe(false);
    expect(hasUpcomingAppointment([])).toBe(false);
  });

  it("reads the first service by time, whatever order the back end lists them in", () => {
    const visit = {
      services: [
        service({ start: "2026-12-07T10:30:00", status: 0 }),
        service({ start: "2026-12-07T10:00:00", status: 1 }),
      ],
    };
    expect(hasUpcomingAppointment([visit])).toBe(false);
  });
});

describe("bookedVisit", () => {
  const visit = (id: string, start: string, status: number, upcoming: boolean) => ({
    id,
    upcoming,
    services: [service({ start, status })],
  });

  it("is the soonest booked visit still to come", () => {
    const visits = [
      visit("later", "2026-12-20T10:00:00", 0, true),
      visit("closed", "2026-11-01T10:00:00", 1, false),
      visit("soonest", "2026-12-08T09:00:00", 0, true),
      visit("open-past", "2026-11-20T10:00:00", 0, false),
    ];
    expect(bookedVisit(visits)?.id).toBe("soonest");
  });

  it("is the latest booked visit not closed yet when none is still to come", () => {
    const visits = [
      visit("old", "2026-10-01T10:00:00", 0, false),
      visit("recent", "2026-11-20T10:00:00", 0, false),
      visit("done", "2026-11-25T10:00:00", 1, false),
    ];
    expect(bookedVisit(visits)?.id).toBe("recent");
  });

  it("is none when no visit's first service is booked", () => {
    expect(
      bookedVisit([
        visit("cancelled", "2026-12-08T09:00:00", -1, false),
        visit("no-show", "2026-11-08T09:00:00", -2, false),
      ]),
    ).toBeNull();
    expect(bookedVisit([])).toBeNull();
  });
});

describe("visitHistory", () => {
  it("gives the first and latest booked dates and the number of visits, cancelled ones left out", () => {
    const visits = [
      { start: "2026-12-07T10:00:00", status: 0 },
      { start: "2026-03-05T09:30:00", status: 1 },
      { start: "2026-01-15T11:00:00", status: -1 },
      { start: "2026-06-01T16:00:00", status: -2 },
      { start: "2027-01-10T10:00:00", status: -1 },
    ];
    expect(visitHistory(visits)).toEqual({ first: "2026-03-05", latest: "2026-12-07", total: 3 });
  });

  it("is empty for a guest with no visit, or only cancelled ones", () => {
    expect(visitHistory([])).toEqual({ first: null, latest: null, total: 0 });
    expect(visitHistory([{ start: "2026-12-07T10:00:00", status: -1 }])).toEqual({
      first: null,
      latest: null,
      total: 0,
    });
  });
});

describe("discountName", () => {
  it.each([
    ["Discount applied (Glow 20% Off)", "Glow 20% Off"],
    ["(PEEL20)", "PEEL20"],
    ["", null],
    [null, null],
    [undefined, null],
    ["Cancel;Reschedule", null],
    ["()", null],
    ["( )", null],
  ])("%s -> %s", (actions, name) => expect(discountName(actions)).toBe(name));
});

describe("insideFeeWindow", () => {
  it("is inside from 12 hours before the start", () => {
    expect(insideFeeWindow("2026-12-01T10:00:00", at("2026-11-30T22:00:01"), zone)).toBe(true);
    expect(insideFeeWindow("2026-12-01T10:00:00", at("2026-11-30T22:00:00"), zone)).toBe(false);
    expect(insideFeeWindow("2026-12-01T10:00:00", at("2026-12-01T11:00:00"), zone)).toBe(true);
  });
});

describe("pageOf", () => {
  const items = Array.from({ length: 23 }, (_, i) => i);
  it("splits by size", () => {
    expect(pageOf(items, 1, 10)).toEqual({ items: items.slice(0, 10), page: 1, pages: 3 });
    expect(pageOf(items, 3, 10)).toEqual({ items: [20, 21, 22], page: 3, pages: 3 });
  });
  it("keeps a page in range", () => {
    expect(pageOf(items, 9, 10).page).toBe(3);
    expect(pageOf(items, 0, 10).page).toBe(1);
    expect(pageOf(items, Number.NaN, 10).page).toBe(1);
    expect(pageOf([], 2, 10)).toEqual({ items: [], page: 1, pages: 1 });
  });
});
