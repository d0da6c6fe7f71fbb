import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  chosenDays,
  contactOf,
  newFits,
  OFFERED_KEPT,
  partsLabel,
  WAITLIST_MESSAGES,
  WaitlistJoinSchema,
  waitlistDays,
} from "./waitlist";

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) data.append(name, v);
  return data;
}

const valid = {
  clinic: "c-1",
  days: ["2026-12-07", "2026-12-08"],
  parts: ["morning"],
  therapist: "",
  contact: "Ana@Example.com",
  consent: "on",
};

describe("the waitlist's form", () => {
  const parse = (fields: Record<string, string | string[]>) =>
    parseWithZod(form(fields), { schema: WaitlistJoinSchema });

  it("takes the days, parts of the day, a nurse or any, a contact and the consent", () => {
    const parsed = parse(valid);
    expect(parsed.status).toBe("success");
    if (parsed.status === "success") {
      expect(parsed.value).toMatchObject({ clinic: "c-1", days: valid.days, parts: ["morning"], consent: "on" });
    }
  });

  it("says at the field what is missing or wrong, in its own words", () => {
    const parsed = parse({ clinic: "c-1", contact: "not a contact" });
    expect(parsed.status).toBe("error");
    const errors = parsed.reply().error ?? {};
    expect(errors.days).toEqual([WAITLIST_MESSAGES.days]);
    expect(errors.parts).toEqual([WAITLIST_MESSAGES.parts]);
    expect(errors.contact).toEqual([WAITLIST_MESSAGES.contact]);
    expect(errors.consent).toEqual([WAITLIST_MESSAGES.consent]);
  });

  it("refuses a day that is not a date, a part of the day it does not know and more days than two weeks", () => {
    const errors = (parse({ ...valid, days: ["tomorrow"], parts: ["night"] }).reply().error ?? {}) as Record<
      string,
      string[]
    >;
    expect(Object.entries(errors).flatMap(([, m]) => m)).toEqual(
      expect.arrayContaining([WAITLIST_MESSAGES.dayOffered, WAITLIST_MESSAGES.parts]),
    );
    const many = Array.from({ length: 15 }, (_, i) => `2026-12-${String(i + 1).padStart(2, "0")}`);
    expect(parse({ ...valid, days: many }).reply().error?.days).toEqual([WAITLIST_MESSAGES.dayOffered]);
  });
});

describe("a waitlist's contact", () => {
  it("is an email in lower case, or a US mobile's ten digits", () => {
    expect(contactOf(" Ana@Example.COM ")).toEqual({ channel: "email", to: "ana@example.com" });
    expect(contactOf("(512) 555-0141")).toEqual({ channel: "sms", to: "5125550141" });
    expect(contactOf("+1 512 555 0141")).toEqual({ channel: "sms", to: "5125550141" });
    expect(contactOf("ana@")).toBeNull();
    expect(contactOf("555-0141")).toBeNull();
    expect(contactOf("")).toBeNull();
  });
});

describe("the days a guest may wait for", () => {
  it("are the first two weeks of the dates offered, Sundays left out", () => {
    // 2026-12-07 is a Monday.
    const days = waitlistDays("2026-12-07");
    expect(days).toHaveLength(12);
    expect(days[0]).toBe("2026-12-07");
    expect(days.at(-1)).toBe("2026-12-19");
    expect(days).not.toContain("2026-12-13");
  });

  it("are taken only from those offered, each once and in order", () => {
    const offered = waitlistDays("2026-12-07");
    expect(chosenDays(["2026-12-09", "2026-12-07", "2026-12-09"], offered)).toEqual(["2026-12-07", "2026-12-09"]);
    expect(chosenDays(["2026-12-13"], offered)).toBeNull();
    expect(chosenDays(["2026-12-21"], offered)).toBeNull();
  });
});

describe("the open times that fit an entry", () => {
  const entry = { days: ["2026-12-07", "2026-12-09"], parts: ["morning", "evening"] as const, offered: [] };

  it("are on its days and in its parts of the day, earliest first", () => {
    const times = [
      "2026-12-09T17:30:00",
      "2026-12-07T13:00:00",
      "2026-12-07T11:45:00",
      "2026-12-08T09:00:00",
      "2026-12-07T09:00:00",
    ];
    expect(newFits({ ...entry, parts: [...entry.parts] }, times)).toEqual([
      "2026-12-07T09:00:00",
      "2026-12-07T11:45:00",
      "2026-12-09T17:30:00",
    ]);
  });

  it("leave out the times the guest was told about", () => {
    const fits = newFits({ ...entry, parts: [...entry.parts], offered: ["2026-12-07T09:00:00"] }, [
      "2026-12-07T09:00:00",
      "2026-12-07T10:00:00",
    ]);
    expect(fits).toEqual(["2026-12-07T10:00:00"]);
  });
});

describe("the parts of the day in words", () => {
  it("names them in the day's order, or says any time", () => {
    expect(partsLabel(["evening", "morning"])).toBe("mornings and evenings");
    expect(partsLabel(["afternoon"])).toBe("afternoons");
    expect(partsLabel(["morning", "afternoon", "evening"])).toBe("any time of day");
  });
});
