import { describe, expect, it } from "vitest";
import { DEFAULT_DOWNTIME_DAYS, fixerAllowedAlone, parseDowntimeWindows, violatesDowntime } from "./downtime";

describe("medical downtime", () => {
  const history = [{ name: "Glow Peel", start: "2026-12-01T10:00:00", status: 0 }];
  it("refuses a date inside the longer window of the two treatments", () => {
    expect(violatesDowntime("Signature Laser Facial", "2026-12-10", history, DEFAULT_DOWNTIME_DAYS)).toBe(true);
    expect(violatesDowntime("Signature Laser Facial", "2026-12-15", history, DEFAULT_DOWNTIME_DAYS)).toBe(false);
    expect(violatesDowntime("Consultation", "2026-12-02", [{ name: "Consultation", start: "2026-12-01T10:00:00", status: 0 }], DEFAULT_DOWNTIME_DAYS)).toBe(false);
  });
  it("ignores cancelled and no-show visits", () => {
    expect(violatesDowntime("Glow Peel", "2026-12-02", [{ ...history[0], status: -1 }], DEFAULT_DOWNTIME_DAYS)).toBe(false);
  });
  it("reads windows from configuration", () => {
    expect(parseDowntimeWindows("peel=10, lhr=21")).toEqual({ peel: 10, lhr: 21 });
    expect(parseDowntimeWindows("peel=ten")).toBeNull();
    expect(parseDowntimeWindows("nails=3")).toBeNull();
  });
});

describe("the fixer on its own", () => {
  const facial = { name: "Signature Laser Facial", start: "2026-12-01T10:00:00", status: 1 };
  it("is allowed on the facial's day and up to 30 days after it", () => {
    expect(fixerAllowedAlone("2026-12-01", [facial])).toBe(true);
    expect(fixerAllowedAlone("2026-12-31", [facial])).toBe(true);
    expect(fixerAllowedAlone("2027-01-01", [facial])).toBe(false);
  });
  it("is not allowed before the facial, without one, or after a cancelled or missed one", () => {
    expect(fixerAllowedAlone("2026-11-30", [facial])).toBe(false);
    expect(fixerAllowedAlone("2026-12-05", [])).toBe(false);
    expect(fixerAllowedAlone("2026-12-05", [{ ...facial, status: -1 }])).toBe(false);
    expect(fixerAllowedAlone("2026-12-05", [{ ...facial, status: -2 }])).toBe(false);
    expect(fixerAllowedAlone("2026-12-05", [{ ...facial, name: "Glow Peel" }])).toBe(false);
  });
  it("counts a booked facial the new-client version as well", () => {
    expect(fixerAllowedAlone("2026-12-10", [{ ...facial, name: "Signature Laser Facial - New Client", status: 0 }])).toBe(true);
  });
});
