import { describe, expect, it } from "vitest";
import { clinicInstant, clinicLocal, clinicLocalAt, parseZenotiTime, wallClockInstant } from "./local-time.server";

const CHICAGO = "America/Chicago";
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("parseZenotiTime", () => {
  it("reads Zenoti's offset-less time, with or without seconds and fractions", () => {
    expect(parseZenotiTime("2026-12-07T10:00:00")).toEqual({ local: "2026-12-07T10:00:00", offsetMinutes: null });
    expect(parseZenotiTime("2026-12-07T10:00")).toEqual({ local: "2026-12-07T10:00:00", offsetMinutes: null });
    expect(parseZenotiTime("2026-12-07T10:00:59.9999999")).toEqual({
      local: "2026-12-07T10:00:59",
      offsetMinutes: null,
    });
  });

  it("reads an offset or Z when one is sent", () => {
    expect(parseZenotiTime("2026-12-07T10:00:00Z")?.offsetMinutes).toBe(0);
    expect(parseZenotiTime("2026-12-07T10:00:00.123-06:00")?.offsetMinutes).toBe(-360);
    expect(parseZenotiTime("2026-12-07T10:00:00+0530")?.offsetMinutes).toBe(330);
  });

  it("refuses what is not a real time", () => {
    for (const bad of [
      "",
      "2026-12-07",
      "2026-02-30T10:00:00",
      "2026-12-07T24:00:00",
      "2026-12-07T10:60:00",
      "2026-12-07 10:00:00",
      "10:00",
      "2026-12-07T10:00:00+6",
    ]) {
      expect(parseZenotiTime(bad), bad).toBeNull();
    }
  });
});

describe("clinicInstant", () => {
  it("reads an offset-less time in the clinic's zone, not the server's", () => {
    expect(iso(clinicInstant("2026-12-07T10:00:00", CHICAGO))).toBe("2026-12-07T16:00:00.000Z");
    expect(iso(clinicInstant("2026-07-07T10:00:00", CHICAGO))).toBe("2026-07-07T15:00:00.000Z");
    expect(iso(clinicInstant("2026-12-07T10:00:00", "America/Los_Angeles"))).toBe("2026-12-07T18:00:00.000Z");
  });

  it("honours an explicit offset or Z whatever the clinic's zone", () => {
    expect(iso(clinicInstant("2026-12-07T10:00:00Z", CHICAGO))).toBe("2026-12-07T10:00:00.000Z");
    expect(iso(clinicInstant("2026-12-07T10:00:00.5-05:00", CHICAGO))).toBe("2026-12-07T15:00:00.000Z");
  });

  it("is null for text that is not a time", () => {
    expect(clinicInstant("soon", CHICAGO)).toBeNull();
  });
});

describe("wallClockInstant across a change of clocks", () => {
  it("spring forward: a time in the gap moves forward by the hour that never happens", () => {
    // Chicago, 8 March 2026: 02:00 CST becomes 03:00 CDT.
    expect(iso(wallClockInstant("2026-03-08T01:59:00", CHICAGO))).toBe("2026-03-08T07:59:00.000Z");
    expect(iso(wallClockInstant("2026-03-08T02:30:00", CHICAGO))).toBe("2026-03-08T08:30:00.000Z");
    expect(clinicLocalAt(wallClockInstant("2026-03-08T02:30:00", CHICAGO), CHICAGO)).toBe("2026-03-08T03:30:00");
    expect(iso(wallClockInstant("2026-03-08T03:00:00", CHICAGO))).toBe("2026-03-08T08:00:00.000Z");
  });

  it("fall back: a time that happens twice is its first occurrence", () => {
    // Chicago, 1 November 2026: 02:00 CDT becomes 01:00 CST.
    expect(iso(wallClockInstant("2026-11-01T01:30:00", CHICAGO))).toBe("2026-11-01T06:30:00.000Z");
    expect(iso(wallClockInstant("2026-11-01T02:00:00", CHICAGO))).toBe("2026-11-01T08:00:00.000Z");
    expect(iso(wallClockInstant("2026-11-01T00:59:59", CHICAGO))).toBe("2026-11-01T05:59:59.000Z");
  });

  it("a zone without daylight saving, and one east of UTC", () => {
    expect(iso(wallClockInstant("2026-07-01T09:00:00", "America/Phoenix"))).toBe("2026-07-01T16:00:00.000Z");
    expect(iso(wallClockInstant("2026-03-29T02:30:00", "Europe/Berlin"))).toBe("2026-03-29T01:30:00.000Z");
  });

  it("round-trips every quarter hour of a day with a change of clocks that exists", () => {
    for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
      const local = `2026-11-01T${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}:00`;
      expect(clinicLocalAt(wallClockInstant(local, CHICAGO), CHICAGO)).toBe(local);
    }
  });
});

describe("clinicLocal", () => {
  it("normalises to the app's YYYY-MM-DDTHH:mm:ss, fractions dropped", () => {
    expect(clinicLocal("2026-12-07T10:00")).toBe("2026-12-07T10:00:00");
    expect(clinicLocal("2026-12-07T10:45:00.0000000")).toBe("2026-12-07T10:45:00");
  });

  it("moves a time with an offset into the clinic's zone when the zone is known", () => {
    expect(clinicLocal("2026-12-07T16:00:00Z", CHICAGO)).toBe("2026-12-07T10:00:00");
    expect(clinicLocal("2026-12-07T10:00:00-06:00", CHICAGO)).toBe("2026-12-07T10:00:00");
    expect(clinicLocal("2026-12-07T10:00:00-06:00")).toBe("2026-12-07T10:00:00");
  });

  it("is null for text that is not a time", () => {
    expect(clinicLocal("2026-12-07")).toBeNull();
  });
});
