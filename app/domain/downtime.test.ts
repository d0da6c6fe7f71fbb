import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_DOWNTIME_DAYS,
  DOWNTIME_MESSAGE,
  downtimeMessage,
  downtimeReason,
  downtimeRefusal,
  downtimeShortReason,
  fixerAllowedAlone,
  parseDowntimeWindows,
} from "./downtime";

const LASER_FACIAL = "Signature Laser Facial";
const refusal = (treatment: string, date: string, history: { name: string; start: string; status: number }[]) =>
  downtimeRefusal(treatment, date, history, DEFAULT_DOWNTIME_DAYS);

describe("medical downtime", () => {
  const peel = { name: "Glow Peel", start: "2026-12-01T10:00:00", status: 0 };
  it("refuses a day inside the longer window of the two treatments, naming the treatment and the first day after it", () => {
    // A peel's 14 days apply to a facial (7) after it.
    expect(refusal(LASER_FACIAL, "2026-12-10", [peel])).toEqual({
      treatment: "Glow Peel",
      treatmentDate: "2026-12-01",
      before: true,
      firstDate: "2026-12-15",
    });
    expect(refusal(LASER_FACIAL, "2026-12-14", [peel])?.firstDate).toBe("2026-12-15");
    expect(refusal(LASER_FACIAL, "2026-12-15", [peel])).toBeNull();
    expect(
      refusal("Consultation", "2026-12-02", [{ name: "Consultation", start: "2026-12-01T10:00:00", status: 0 }]),
    ).toBeNull();
  });
  it("refuses the days before a booked treatment too, and the day of it", () => {
    const booked = { name: LASER_FACIAL, start: "2026-12-21T09:00:00", status: 0 };
    expect(refusal(LASER_FACIAL, "2026-12-17", [booked])).toEqual({
      treatment: LASER_FACIAL,
      treatmentDate: "2026-12-21",
      before: false,
      firstDate: "2026-12-28",
    });
    expect(refusal(LASER_FACIAL, "2026-12-21", [booked])?.before).toBe(false);
    expect(refusal(LASER_FACIAL, "2026-12-14", [booked])).toBeNull();
  });
  it("gives as first possible date a day no other treatment refuses either", () => {
    // After the peel's window, a facial booked for Dec 18 keeps Dec 12 to Dec 24.
    const facial = { name: LASER_FACIAL, start: "2026-12-18T11:00:00", status: 0 };
    expect(refusal(LASER_FACIAL, "2026-12-10", [peel, facial])).toEqual({
      treatment: "Glow Peel",
      treatmentDate: "2026-12-01",
      before: true,
      firstDate: "2026-12-25",
    });
  });
  it("never gives a Sunday as the first possible date", () => {
    // Sculpting's 3 days after Thursday Dec 3 end on Sunday Dec 6, when no clinic books.
    const sculpting = { name: "Body Sculpting", start: "2026-12-03T10:00:00", status: 1 };
    expect(refusal("Body Sculpting", "2026-12-04", [sculpting])?.firstDate).toBe("2026-12-07");
  });
  it("counts across the end of a month and of a year", () => {
    expect(
      refusal(LASER_FACIAL, "2026-12-31", [{ name: LASER_FACIAL, start: "2026-12-25T10:00:00", status: 1 }])?.firstDate,
    ).toBe("2027-01-01");
    // February 2027 has 28 days: 14 days after Feb 15 is Monday Mar 1.
    const febPeel = { name: "Glow Peel", start: "2027-02-15T10:00:00", status: 0 };
    expect(refusal("Glow Peel", "2027-02-27", [febPeel])?.firstDate).toBe("2027-03-01");
    expect(refusal("Glow Peel", "2027-03-01", [febPeel])).toBeNull();
  });
  it("reads a visit's day on its clinic's own clock, late in the evening or just after midnight", () => {
    // The back end's times are the clinic's wall clock: 11:30 PM on Dec 1 is Dec 1 (in UTC it is Dec 2 in the US).
    expect(
      refusal(LASER_FACIAL, "2026-12-08", [{ name: LASER_FACIAL, start: "2026-12-01T23:30:00", status: 1 }]),
    ).toBeNull();
    expect(
      refusal(LASER_FACIAL, "2026-12-07", [{ name: LASER_FACIAL, start: "2026-12-01T23:30:00", status: 1 }])?.firstDate,
    ).toBe("2026-12-08");
    expect(
      refusal(LASER_FACIAL, "2026-12-08", [{ name: LASER_FACIAL, start: "2026-12-02T00:15:00", status: 1 }])?.firstDate,
    ).toBe("2026-12-09");
  });
  describe("across a change of clocks, whatever the server's own zone", () => {
    const zone = process.env.TZ;
    beforeEach(() => {
      process.env.TZ = "America/New_York";
    });
    afterEach(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    it("counts calendar days over a 23-hour and a 25-hour day", () => {
      // Clocks go forward on Mar 14, 2027 and back on Nov 1, 2026 in the US.
      const spring = { name: LASER_FACIAL, start: "2027-03-10T09:00:00", status: 0 };
      expect(refusal(LASER_FACIAL, "2027-03-16", [spring])?.firstDate).toBe("2027-03-17");
      expect(refusal(LASER_FACIAL, "2027-03-17", [spring])).toBeNull();
      const autumn = { name: LASER_FACIAL, start: "2026-10-28T21:00:00", status: 1 };
      expect(refusal(LASER_FACIAL, "2026-11-03", [autumn])?.firstDate).toBe("2026-11-04");
      expect(refusal(LASER_FACIAL, "2026-11-04", [autumn])).toBeNull();
    });
  });
  it("ignores cancelled and no-show visits", () => {
    expect(refusal("Glow Peel", "2026-12-02", [{ ...peel, status: -1 }])).toBeNull();
    expect(refusal("Glow Peel", "2026-12-02", [{ ...peel, status: -2 }])).toBeNull();
  });
  it("says why in words: the treatment, its day and the first possible date", () => {
    const after = refusal(LASER_FACIAL, "2026-12-10", [peel])!;
    expect(downtimeReason(after)).toBe("Too soon after your Glow Peel on Tue Dec 1: from Tue Dec 15");
    expect(downtimeShortReason(after)).toBe("Too soon");
    expect(downtimeMessage(after)).toBe(
      `${DOWNTIME_MESSAGE} It is too soon after your Glow Peel on Tuesday, December 1; the first possible date is Tuesday, December 15.`,
    );
    const before = refusal(LASER_FACIAL, "2026-12-17", [
      { name: LASER_FACIAL, start: "2026-12-21T09:00:00", status: 0 },
    ])!;
    expect(downtimeReason(before)).toBe(`Too close to your ${LASER_FACIAL} on Mon Dec 21: from Mon Dec 28`);
    expect(downtimeShortReason(before)).toBe("Too close");
  });
  it("reads windows from configuration", () => {
    expect(parseDowntimeWindows("peel=10, lhr=21")).toEqual({ peel: 10, lhr: 21 });
    expect(parseDowntimeWindows("peel=ten")).toBeNull();
    expect(parseDowntimeWindows("nails=3")).toBeNull();
    expect(downtimeRefusal("Glow Peel", "2026-12-10", [peel], { peel: 10 })?.firstDate).toBe("2026-12-11");
    expect(downtimeRefusal("Glow Peel", "2026-12-11", [peel], { peel: 10 })).toBeNull();
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
    expect(
      fixerAllowedAlone("2026-12-10", [{ ...facial, name: "Signature Laser Facial - New Client", status: 0 }]),
    ).toBe(true);
  });
});
