import { describe, expect, it } from "vitest";
import { clinicToday, displayedExpiry, formatSlot } from "./dates";

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
  });
});
