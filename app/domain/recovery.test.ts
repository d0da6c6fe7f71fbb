import { describe, expect, it } from "vitest";
import { dayjs } from "~/lib/dayjs";
import {
  afterNight,
  DEFAULT_NIGHT_HOURS,
  isNightTime,
  parseNightHours,
  recoveryDueAt,
  recoveryVerdict,
  type RecoveryFacts,
} from "./recovery";

const ZONE = "America/Chicago";
const HOUR = 3_600_000;
/** An instant on Austin's clock. */
const at = (local: string, zone = ZONE) => dayjs.tz(local, "YYYY-MM-DDTHH:mm:ss", zone).valueOf();

describe("night hours", () => {
  it("reads a clock range, or off, and refuses anything else", () => {
    expect(parseNightHours("21:00-08:00")).toEqual(DEFAULT_NIGHT_HOURS);
    expect(parseNightHours(" 00:30-06:15 ")).toEqual({ start: 30, end: 375 });
    expect(parseNightHours("off")).toBeNull();
    expect(parseNightHours("None")).toBeNull();
    for (const bad of ["", "21-8", "24:00-08:00", "21:00-21:00", "21:00 - 08:00", "9pm-8am"])
      expect(parseNightHours(bad), bad).toBeUndefined();
  });

  it("runs over midnight on the clinic's own clock, not the server's", () => {
    expect(isNightTime(at("2026-12-01T20:59:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(false);
    expect(isNightTime(at("2026-12-01T21:00:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(true);
    expect(isNightTime(at("2026-12-02T03:00:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(true);
    expect(isNightTime(at("2026-12-02T07:59:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(true);
    expect(isNightTime(at("2026-12-02T08:00:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(false);
    // Noon in Austin is 10:00 in Los Angeles and 13:00 in New York: the same instant, three answers for 12:30-13:30.
    const lunch = { start: 12 * 60 + 30, end: 13 * 60 + 30 };
    const noon = at("2026-12-01T13:00:00");
    expect(isNightTime(noon, ZONE, lunch)).toBe(true);
    expect(isNightTime(noon, "America/Los_Angeles", lunch)).toBe(false);
    expect(isNightTime(noon, "America/New_York", lunch)).toBe(false);
    expect(isNightTime(at("2026-12-02T03:00:00"), ZONE, null)).toBe(false);
  });

  it("moves an instant in the night to the morning it ends, the same day or the next", () => {
    expect(afterNight(at("2026-12-01T22:15:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(at("2026-12-02T08:00:00"));
    expect(afterNight(at("2026-12-02T02:00:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(at("2026-12-02T08:00:00"));
    expect(afterNight(at("2026-12-02T10:00:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(at("2026-12-02T10:00:00"));
    // A night within one day (00:30-06:15).
    const early = { start: 30, end: 375 };
    expect(afterNight(at("2026-12-02T01:00:00"), ZONE, early)).toBe(at("2026-12-02T06:15:00"));
    expect(afterNight(at("2026-12-02T00:10:00"), ZONE, early)).toBe(at("2026-12-02T00:10:00"));
    // Over the clocks going back: 08:00 on the first day of winter time, one hour later than usual in UTC.
    expect(afterNight(at("2026-11-01T01:30:00"), ZONE, DEFAULT_NIGHT_HOURS)).toBe(at("2026-11-01T08:00:00"));
    expect(at("2026-11-01T08:00:00") - at("2026-10-31T08:00:00")).toBe(25 * HOUR);
  });
});

describe("when the message is due", () => {
  it("after the delay, by day", () => {
    expect(recoveryDueAt(at("2026-12-01T10:20:00"), HOUR, ZONE, DEFAULT_NIGHT_HOURS)).toBe(at("2026-12-01T11:20:00"));
    // Stopped at 20:30: the hour ends at night, so the morning.
    expect(recoveryDueAt(at("2026-12-01T20:30:00"), HOUR, ZONE, DEFAULT_NIGHT_HOURS)).toBe(at("2026-12-02T08:00:00"));
    expect(recoveryDueAt(at("2026-12-01T20:30:00"), HOUR, ZONE, null)).toBe(at("2026-12-01T21:30:00"));
    expect(recoveryDueAt(at("2026-12-01T10:20:00"), 0, ZONE, DEFAULT_NIGHT_HOURS)).toBe(at("2026-12-01T10:20:00"));
  });
});

describe("what to do with a record", () => {
  const due = at("2026-12-01T11:20:00");
  const record: RecoveryFacts = {
    state: "pending",
    consentAt: at("2026-12-01T10:20:00"),
    hasContact: true,
    dueAt: due,
    timeZone: ZONE,
  };

  it("sends once the delay is over, by day", () => {
    expect(recoveryVerdict(record, due - 1, DEFAULT_NIGHT_HOURS)).toBe("wait");
    expect(recoveryVerdict(record, due, DEFAULT_NIGHT_HOURS)).toBe("send");
    expect(recoveryVerdict(record, due + 5 * HOUR, DEFAULT_NIGHT_HOURS)).toBe("send");
  });

  it("waits through a night it comes late into (a pass that did not run, a restart)", () => {
    expect(recoveryVerdict(record, at("2026-12-01T23:00:00"), DEFAULT_NIGHT_HOURS)).toBe("wait");
    expect(recoveryVerdict(record, at("2026-12-02T08:00:00"), DEFAULT_NIGHT_HOURS)).toBe("send");
    expect(recoveryVerdict(record, at("2026-12-01T23:00:00"), null)).toBe("send");
  });

  it("never sends without consent or a contact", () => {
    expect(recoveryVerdict({ ...record, consentAt: null }, due, DEFAULT_NIGHT_HOURS)).toBe("done");
    expect(recoveryVerdict({ ...record, hasContact: false }, due, DEFAULT_NIGHT_HOURS)).toBe("done");
  });

  it("never twice: sent, being sent (even by an instance that died) or followed is done", () => {
    for (const state of ["sending", "sent", "followed"] as const)
      expect(recoveryVerdict({ ...record, state }, due + HOUR, DEFAULT_NIGHT_HOURS), state).toBe("done");
  });
});
