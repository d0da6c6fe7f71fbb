import { describe, expect, it } from "vitest";
import { firstLastSaid, holdWarningDue, holdWarningText } from "./hold-warnings";

/** The warnings a countdown from `start` says, second by second, skipping the seconds in `skipped` (a busy tab). */
function said(start: number, skipped: number[] = []): number[] {
  const out: number[] = [];
  let last = firstLastSaid(start);
  for (let left = start; left >= 0; left--) {
    if (skipped.includes(left)) continue;
    const due = holdWarningDue(left, last);
    if (due !== null) {
      out.push(due);
      last = due;
    }
  }
  return out;
}

describe("the hold's warnings", () => {
  it("are said two minutes and one minute before the end, once each", () => {
    expect(said(600)).toEqual([120, 60]);
  });

  it("are said once even when the countdown skips the very second", () => {
    expect(said(600, [120, 119, 60])).toEqual([120, 60]);
  });

  it("leave out a threshold the page opened past, and say nothing at or after the end", () => {
    expect(said(90)).toEqual([60]);
    expect(said(45)).toEqual([]);
    expect(holdWarningDue(0, Infinity)).toBeNull();
  });

  it("say the minutes in words", () => {
    expect(holdWarningText(120)).toBe("2 minutes left to finish your booking before the time you chose is released.");
    expect(holdWarningText(60)).toBe("1 minute left to finish your booking before the time you chose is released.");
  });
});
