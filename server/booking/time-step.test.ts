import { describe, expect, it } from "vitest";
import type { SlotList } from "../spa/booking.server";
import { firstDayWithTimes } from "./time-step.server";

const dates = ["2026-12-01", "2026-12-02", "2026-12-03"];

/** A back end with these open times per day, naming the next day with times as Zenoti does; it counts the reads. */
function backEnd(open: Record<string, string[]>) {
  const reads: string[] = [];
  const read = async (date: string): Promise<SlotList> => {
    reads.push(date);
    const times = open[date] ?? [];
    const nextAvailableDay = times.length ? null : (Object.keys(open).sort().find((d) => d > date && open[d].length > 0) ?? null);
    return { times, nextAvailableDay };
  };
  return { read, reads };
}

describe("the day a time step opens on", () => {
  it("is the day asked for when it has times, read once", async () => {
    const { read, reads } = backEnd({ "2026-12-01": ["2026-12-01T09:00:00"] });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, read)).toEqual({ date: "2026-12-01", times: ["2026-12-01T09:00:00"], nextAvailableDay: null });
    expect(reads).toEqual(["2026-12-01"]);
  });

  it("moves on to the next day with times when nobody chose an empty day", async () => {
    const { read, reads } = backEnd({ "2026-12-01": [], "2026-12-03": ["2026-12-03T10:00:00"] });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, read)).toEqual({ date: "2026-12-03", times: ["2026-12-03T10:00:00"], nextAvailableDay: null });
    expect(reads).toEqual(["2026-12-01", "2026-12-03"]);
  });

  it("keeps a day the visitor chose, with its next available day", async () => {
    const { read, reads } = backEnd({ "2026-12-01": [], "2026-12-03": ["2026-12-03T10:00:00"] });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: true }, read)).toEqual({ date: "2026-12-01", times: [], nextAvailableDay: "2026-12-03" });
    expect(reads).toEqual(["2026-12-01"]);
  });

  it("stays on the empty day when the next one is outside the bookable dates or has no time either", async () => {
    const outside = backEnd({ "2026-12-01": [], "2026-12-09": ["2026-12-09T10:00:00"] });
    expect((await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, outside.read)).date).toBe("2026-12-01");
    expect(outside.reads).toEqual(["2026-12-01"]);
    const gone = backEnd({ "2026-12-01": [] });
    const read = async (date: string): Promise<SlotList> => (date === "2026-12-01" ? { times: [], nextAvailableDay: "2026-12-02" } : gone.read(date));
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, read)).toEqual({ date: "2026-12-01", times: [], nextAvailableDay: "2026-12-02" });
  });
});
