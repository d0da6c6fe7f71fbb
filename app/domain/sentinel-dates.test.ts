import { describe, expect, it } from "vitest";
import { endDateLabel, NO_EXPIRY_LABEL, readEndDate, readStartDate, startDateLabel } from "./sentinel-dates";

describe("an end date", () => {
  it("is a day when it is one, with or without a time", () => {
    expect(readEndDate("2027-03-01")).toEqual({ kind: "day", day: "2027-03-01" });
    expect(readEndDate("2027-03-01T00:00:00")).toEqual({ kind: "day", day: "2027-03-01" });
    expect(readEndDate(" 2099-12-31T23:59:59Z ")).toEqual({ kind: "day", day: "2099-12-31" });
    expect(endDateLabel("2027-03-01T00:00:00")).toBe("Mar 1, 2027");
  });

  it("is unlimited at Zenoti's no-end date, after it, or for the keyword in any case", () => {
    for (const raw of [
      "2100-01-01",
      "2100-01-01T00:00:00",
      "2100-01-01 00:00:00",
      "9999-12-31",
      "unlimited",
      "Unlimited",
      " UNLIMITED ",
    ]) {
      expect(readEndDate(raw), raw).toEqual({ kind: "unlimited" });
      expect(endDateLabel(raw), raw).toBe(NO_EXPIRY_LABEL);
    }
  });

  it("is nothing to show when absent, unreadable or Zenoti's no-start date", () => {
    for (const raw of [
      null,
      undefined,
      "",
      "  ",
      "soon",
      "01/01/2100",
      "2000-01-01",
      "2000-01-01T00:00:00",
      "1900-01-01",
    ]) {
      expect(readEndDate(raw), String(raw)).toBeNull();
      expect(endDateLabel(raw), String(raw)).toBeNull();
    }
  });

  it("reads the days next to the stand-ins as days", () => {
    expect(readEndDate("2000-01-02")).toEqual({ kind: "day", day: "2000-01-02" });
    expect(readEndDate("2099-12-31")).toEqual({ kind: "day", day: "2099-12-31" });
  });
});

describe("a start date", () => {
  it("is the day when it is one", () => {
    expect(readStartDate("2026-05-04T10:00:00")).toBe("2026-05-04");
    expect(startDateLabel("2026-05-04")).toBe("May 4, 2026");
    expect(readStartDate("2000-01-02")).toBe("2000-01-02");
  });

  it("is none at Zenoti's no-start date, before it, at the no-end date, or for the keyword", () => {
    for (const raw of [
      null,
      undefined,
      "",
      "2000-01-01",
      "2000-01-01T00:00:00",
      "1999-12-31",
      "2100-01-01",
      "unlimited",
      "nope",
    ]) {
      expect(readStartDate(raw), String(raw)).toBeNull();
      expect(startDateLabel(raw), String(raw)).toBeNull();
    }
  });
});
