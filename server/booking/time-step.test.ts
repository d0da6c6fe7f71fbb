import { describe, expect, it } from "vitest";
import type { SlotList } from "../spa/booking.server";
import { firstDayWithTimes, withDowntime } from "./time-step.server";

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

describe("the day a time step opens on, with medical downtime", () => {
  const days = ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"];
  const peelUntil = (last: string) => (date: string) =>
    date <= last ? { treatment: "Glow Peel", treatmentDate: "2026-11-28", before: true, firstDate: addOneDay(last) } : null;
  const asked = (date: string, how: { asked: boolean; chosen: boolean }) => ({ date, dates: days, dateProblem: null, group: "all" as const, ...how });

  it("is the first day the rule leaves when nobody asked for a refused one", () => {
    const day = withDowntime(asked("2026-12-01", { asked: false, chosen: false }), peelUntil("2026-12-02"));
    expect(day).toMatchObject({ date: "2026-12-03", chosen: false, refusal: null, openDates: ["2026-12-03", "2026-12-04"] });
    expect([...day.refused.keys()]).toEqual(["2026-12-01", "2026-12-02"]);
  });

  it("gives way from a remembered refused day too", () => {
    expect(withDowntime(asked("2026-12-02", { asked: false, chosen: true }), peelUntil("2026-12-02"))).toMatchObject({ date: "2026-12-03", refusal: null });
  });

  it("shows a refused day the address asked for, with its refusal and no move", () => {
    const day = withDowntime(asked("2026-12-02", { asked: true, chosen: true }), peelUntil("2026-12-02"));
    expect(day).toMatchObject({ date: "2026-12-02", refusal: { treatment: "Glow Peel", firstDate: "2026-12-03" } });
  });

  it("shows the first date refused when the rule leaves none of the dates", () => {
    expect(withDowntime(asked("2026-12-01", { asked: false, chosen: false }), peelUntil("2026-12-31"))).toMatchObject({ date: "2026-12-01", openDates: [], refusal: { firstDate: "2027-01-01" } });
  });

  it("changes nothing for a guest the rule refuses nothing", () => {
    const day = withDowntime(asked("2026-12-02", { asked: true, chosen: true }), () => null);
    expect(day).toMatchObject({ date: "2026-12-02", refusal: null, openDates: days });
    expect(day.refused.size).toBe(0);
  });
});

function addOneDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
