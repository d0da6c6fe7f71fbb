import { describe, expect, it } from "vitest";
import { DEFAULT_DOWNTIME_DAYS, parseDowntimeWindows, violatesDowntime } from "./downtime";

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
