import { describe, expect, it } from "vitest";
import type { WorkingDay } from "./catalog";
import { groupHours, isOpenAt } from "./hours";

const week: WorkingDay[] = [
  { dayOfWeek: 0, opens: null, closes: null },
  { dayOfWeek: 1, opens: "09:00", closes: "19:00" },
  { dayOfWeek: 2, opens: "09:00", closes: "19:00" },
  { dayOfWeek: 3, opens: "09:00", closes: "19:00" },
  { dayOfWeek: 4, opens: "09:00", closes: "20:00" },
  { dayOfWeek: 5, opens: "09:00", closes: "18:00" },
  { dayOfWeek: 6, opens: "10:00", closes: "16:00" },
];

describe("groupHours", () => {
  it("groups runs of days with the same hours, Monday first, Sunday closed", () => {
    expect(groupHours(week, (t) => t)).toEqual([
      { days: "Mon–Wed", hours: "09:00 – 19:00" },
      { days: "Thu", hours: "09:00 – 20:00" },
      { days: "Fri", hours: "09:00 – 18:00" },
      { days: "Sat", hours: "10:00 – 16:00" },
      { days: "Sun", hours: null },
    ]);
  });
});

describe("isOpenAt", () => {
  it("is open from opening time up to, not including, closing time", () => {
    expect(isOpenAt(week, 1, "08:59")).toBe(false);
    expect(isOpenAt(week, 1, "09:00")).toBe(true);
    expect(isOpenAt(week, 1, "18:59")).toBe(true);
    expect(isOpenAt(week, 1, "19:00")).toBe(false);
    expect(isOpenAt(week, 0, "12:00")).toBe(false);
  });
});
