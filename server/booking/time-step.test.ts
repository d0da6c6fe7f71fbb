import { describe, expect, it } from "vitest";
import type { SlotList } from "../spa/booking.server";
import { SpaError } from "../spa/errors.server";
import { firstDayWithTimes, slotPickerDay, SLOTS_ERROR, withDowntime } from "./time-step.server";

const dates = ["2026-12-01", "2026-12-02", "2026-12-03"];

/** A back end with these open times per day, naming the next day with times as Zenoti does; it counts the reads. */
function backEnd(open: Record<string, string[]>) {
  const reads: string[] = [];
  const read = async (date: string): Promise<SlotList> => {
    reads.push(date);
    const times = open[date] ?? [];
    const nextAvailableDay = times.length
      ? null
      : (Object.keys(open)
          .sort()
          .find((d) => d > date && open[d].length > 0) ?? null);
    return { times, nextAvailableDay };
  };
  return { read, reads };
}

describe("the day a time step opens on", () => {
  it("is the day asked for when it has times, read once", async () => {
    const { read, reads } = backEnd({ "2026-12-01": ["2026-12-01T09:00:00"] });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, read)).toEqual({
      date: "2026-12-01",
      times: ["2026-12-01T09:00:00"],
      nextAvailableDay: null,
    });
    expect(reads).toEqual(["2026-12-01"]);
  });

  it("moves on to the next day with times when nobody chose an empty day", async () => {
    const { read, reads } = backEnd({ "2026-12-01": [], "2026-12-03": ["2026-12-03T10:00:00"] });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, read)).toEqual({
      date: "2026-12-03",
      times: ["2026-12-03T10:00:00"],
      nextAvailableDay: null,
    });
    expect(reads).toEqual(["2026-12-01", "2026-12-03"]);
  });

  it("keeps a day the visitor chose, with its next available day", async () => {
    const { read, reads } = backEnd({ "2026-12-01": [], "2026-12-03": ["2026-12-03T10:00:00"] });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: true }, read)).toEqual({
      date: "2026-12-01",
      times: [],
      nextAvailableDay: "2026-12-03",
    });
    expect(reads).toEqual(["2026-12-01"]);
  });

  it("stays on the empty day when the next one is outside the bookable dates or has no time either", async () => {
    const outside = backEnd({ "2026-12-01": [], "2026-12-09": ["2026-12-09T10:00:00"] });
    expect((await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, outside.read)).date).toBe(
      "2026-12-01",
    );
    expect(outside.reads).toEqual(["2026-12-01"]);
    const gone = backEnd({ "2026-12-01": [] });
    const read = async (date: string): Promise<SlotList> =>
      date === "2026-12-01" ? { times: [], nextAvailableDay: "2026-12-02" } : gone.read(date);
    expect(await firstDayWithTimes({ date: "2026-12-01", dates, chosen: false }, read)).toEqual({
      date: "2026-12-01",
      times: [],
      nextAvailableDay: "2026-12-02",
    });
  });
});

describe("the day a time step opens on, with medical downtime", () => {
  const days = ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"];
  const peelUntil = (last: string) => (date: string) =>
    date <= last
      ? { treatment: "Glow Peel", treatmentDate: "2026-11-28", before: true, firstDate: addOneDay(last) }
      : null;
  const asked = (date: string, how: { asked: boolean; chosen: boolean }) => ({
    date,
    dates: days,
    dateProblem: null,
    dateReply: null,
    group: "all" as const,
    ...how,
  });

  it("is the first day the rule leaves when nobody asked for a refused one", () => {
    const day = withDowntime(asked("2026-12-01", { asked: false, chosen: false }), peelUntil("2026-12-02"));
    expect(day).toMatchObject({
      date: "2026-12-03",
      chosen: false,
      refusal: null,
      openDates: ["2026-12-03", "2026-12-04"],
    });
    expect([...day.refused.keys()]).toEqual(["2026-12-01", "2026-12-02"]);
  });

  it("gives way from a remembered refused day too", () => {
    expect(withDowntime(asked("2026-12-02", { asked: false, chosen: true }), peelUntil("2026-12-02"))).toMatchObject({
      date: "2026-12-03",
      refusal: null,
    });
  });

  it("shows a refused day the address asked for, with its refusal and no move", () => {
    const day = withDowntime(asked("2026-12-02", { asked: true, chosen: true }), peelUntil("2026-12-02"));
    expect(day).toMatchObject({ date: "2026-12-02", refusal: { treatment: "Glow Peel", firstDate: "2026-12-03" } });
  });

  it("shows the first date refused when the rule leaves none of the dates", () => {
    expect(withDowntime(asked("2026-12-01", { asked: false, chosen: false }), peelUntil("2026-12-31"))).toMatchObject({
      date: "2026-12-01",
      openDates: [],
      refusal: { firstDate: "2027-01-01" },
    });
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

describe("the day a time step opens on, when the back end's next day cannot be booked", () => {
  // The days a guest may book: medical downtime leaves out 12-02 and 12-03 (the back end knows nothing of it).
  const open = ["2026-12-01", "2026-12-04", "2026-12-05"];

  it("looks past it to the first day that can be booked and has times", async () => {
    const { read, reads } = backEnd({
      "2026-12-01": [],
      "2026-12-02": ["2026-12-02T09:00:00"],
      "2026-12-04": [],
      "2026-12-05": ["2026-12-05T11:00:00"],
    });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates: open, chosen: false }, read)).toEqual({
      date: "2026-12-05",
      times: ["2026-12-05T11:00:00"],
      nextAvailableDay: null,
    });
    // Never the refused day itself: the first open day after it, then the back end's next from there.
    expect(reads).toEqual(["2026-12-01", "2026-12-04", "2026-12-05"]);
  });

  it("offers that day as the next available one on a chosen empty day", async () => {
    const { read } = backEnd({
      "2026-12-01": [],
      "2026-12-02": ["2026-12-02T09:00:00"],
      "2026-12-04": ["2026-12-04T10:00:00"],
    });
    expect(await firstDayWithTimes({ date: "2026-12-01", dates: open, chosen: true }, read)).toEqual({
      date: "2026-12-01",
      times: [],
      nextAvailableDay: "2026-12-04",
    });
  });

  it("gives up after a few reads, staying on the empty day", async () => {
    const days = ["2026-12-01", "2026-12-03", "2026-12-05", "2026-12-07", "2026-12-09", "2026-12-11"];
    const { read, reads } = backEnd({
      "2026-12-01": [],
      "2026-12-02": ["x"],
      "2026-12-04": ["x"],
      "2026-12-06": ["x"],
      "2026-12-08": ["x"],
      "2026-12-10": ["x"],
      "2026-12-11": [],
    });
    // Each open day is empty; the back end names the day after it, which downtime refuses.
    const stepped = async (date: string): Promise<SlotList> =>
      (await read(date)).times.length
        ? { times: [], nextAvailableDay: null }
        : { times: [], nextAvailableDay: addOneDay(date) };
    expect((await firstDayWithTimes({ date: "2026-12-01", dates: days, chosen: false }, stepped)).date).toBe(
      "2026-12-01",
    );
    expect(reads.length).toBeLessThanOrEqual(4);
  });
});

describe("the slot picker's day", () => {
  const asked = {
    date: "2026-12-01",
    dates: ["2026-12-01", "2026-12-02", "2026-12-03"],
    dateProblem: null,
    dateReply: null,
    group: "all" as const,
    chosen: false,
    asked: false,
  };

  it("opens on the first day downtime leaves that has times", async () => {
    const { read } = backEnd({ "2026-12-01": ["2026-12-01T09:00:00"], "2026-12-03": ["2026-12-03T09:00:00"] });
    const downtime = async () => (date: string) =>
      date < "2026-12-03"
        ? { treatment: "Glow Peel", treatmentDate: "2026-11-28", before: false, firstDate: "2026-12-03" }
        : null;
    expect(await slotPickerDay(asked, { downtime, read, step: "test" })).toMatchObject({
      date: "2026-12-03",
      times: ["2026-12-03T09:00:00"],
      slotsError: null,
      refusal: null,
    });
  });

  it("shows no times for a refused day the address asked for, reading none", async () => {
    const { read, reads } = backEnd({ "2026-12-01": ["2026-12-01T09:00:00"] });
    const downtime = async () => () => ({
      treatment: "Glow Peel",
      treatmentDate: "2026-11-28",
      before: false,
      firstDate: "2026-12-09",
    });
    expect(
      await slotPickerDay({ ...asked, asked: true, chosen: true }, { downtime, read, step: "test" }),
    ).toMatchObject({ date: "2026-12-01", times: [], refusal: { firstDate: "2026-12-09" } });
    expect(reads).toEqual([]);
  });

  it("says to try again when the back end cannot say, on the day asked for", async () => {
    const read = async () =>
      Promise.reject(new SpaError({ kind: "server", status: 503, message: "down", path: "/bookings" }));
    expect(await slotPickerDay(asked, { read, step: "test" })).toMatchObject({
      date: "2026-12-01",
      times: [],
      nextAvailableDay: null,
      slotsError: SLOTS_ERROR,
    });
  });
});

describe("the date strip's days without open times", () => {
  // Mon 2026-12-07 to Sat 12-12, then Mon 12-14 to Sat 12-19 (Sundays are never offered).
  const twoWeeks = [
    "2026-12-07",
    "2026-12-08",
    "2026-12-09",
    "2026-12-10",
    "2026-12-11",
    "2026-12-12",
    "2026-12-14",
    "2026-12-15",
    "2026-12-16",
    "2026-12-17",
    "2026-12-18",
    "2026-12-19",
  ];
  const asked = (date: string) => ({
    date,
    dates: twoWeeks,
    dateProblem: null,
    dateReply: null,
    group: "all" as const,
    chosen: true,
    asked: true,
  });

  /** Zenoti's answer: the day's times, and which later days of its week (to Saturday) have any. */
  function weekBackEnd(open: Record<string, boolean>, fails: (date: string) => boolean = () => false) {
    const reads: string[] = [];
    const read = async (date: string): Promise<SlotList> => {
      reads.push(date);
      if (fails(date)) throw new SpaError({ kind: "rate-limited", status: 429, message: "busy", path: "/slots" });
      const saturday = twoWeeks.find((d) => d >= date && new Date(`${d}T12:00:00Z`).getUTCDay() === 6)!;
      return {
        times: open[date] ? [`${date}T09:00:00`] : [],
        nextAvailableDay: null,
        weekDays: twoWeeks.filter((d) => d > date && d <= saturday).map((d) => ({ date: d, open: open[d] ?? false })),
      };
    };
    return { read, reads };
  }
  const allOpenBut = (...full: string[]) => Object.fromEntries(twoWeeks.map((d) => [d, !full.includes(d)]));

  it("reads the day shown and one day of the next week, and marks the seven days from both answers", async () => {
    const { read, reads } = weekBackEnd(allOpenBut("2026-12-11", "2026-12-15"));
    const day = await slotPickerDay(asked("2026-12-10"), { read, step: "test" });
    // Thu 12-10 to Sat 12-12, then Mon 12-14 to Thu 12-17: seven days over two weeks.
    expect(day.fullDays).toEqual(["2026-12-11", "2026-12-15"]);
    expect(reads).toEqual(["2026-12-10", "2026-12-14"]);
  });

  it("marks the day shown when it has no time", async () => {
    const { read } = weekBackEnd(allOpenBut("2026-12-08"));
    const day = await slotPickerDay(asked("2026-12-08"), { read, step: "test" });
    expect(day).toMatchObject({ date: "2026-12-08", times: [] });
    expect(day.fullDays).toEqual(["2026-12-08"]);
  });

  it("reads the first days of both weeks at the end of the dates, where the strip starts before the day shown", async () => {
    const { read, reads } = weekBackEnd(allOpenBut("2026-12-12", "2026-12-18"));
    const day = await slotPickerDay(asked("2026-12-18"), { read, step: "test" });
    // The last seven dates: Sat 12-12, then Mon 12-14 to Sat 12-19.
    expect(reads).toEqual(["2026-12-18", "2026-12-12", "2026-12-14"]);
    expect(day.fullDays).toEqual(["2026-12-12", "2026-12-18"]);
  });

  it("leaves a day unmarked when its week could not be read, and the page as it is", async () => {
    const { read } = weekBackEnd(allOpenBut("2026-12-11", "2026-12-15"), (date) => date === "2026-12-14");
    const day = await slotPickerDay(asked("2026-12-10"), { read, step: "test" });
    expect(day).toMatchObject({ slotsError: null, times: ["2026-12-10T09:00:00"] });
    expect(day.fullDays).toEqual(["2026-12-11"]);
  });

  it("reads no day medical downtime refuses, and marks none of them full", async () => {
    const { read, reads } = weekBackEnd(allOpenBut("2026-12-14", "2026-12-15", "2026-12-16"));
    // Downtime refuses the next week's Monday and Tuesday: its first day left is read instead.
    const downtime = async () => (date: string) =>
      date === "2026-12-14" || date === "2026-12-15"
        ? { treatment: "Glow Peel", treatmentDate: "2026-12-10", before: true, firstDate: "2026-12-16" }
        : null;
    const day = await slotPickerDay(asked("2026-12-10"), { downtime, read, step: "test" });
    expect(reads).toEqual(["2026-12-10", "2026-12-16"]);
    expect(day.fullDays).toEqual(["2026-12-16"]);
  });

  it("reads nothing more when the back end could not list the day shown", async () => {
    const { read, reads } = weekBackEnd({}, () => true);
    const day = await slotPickerDay(asked("2026-12-10"), { read, step: "test" });
    expect(day).toMatchObject({ slotsError: SLOTS_ERROR, fullDays: [] });
    expect(reads).toEqual(["2026-12-10"]);
  });
});
