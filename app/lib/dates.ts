import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat.js";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";

// The one place dayjs is extended. Store and send ISO UTC; render in the clinic's time zone.
dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

export { dayjs };

export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const clocks = new Map<string, string>();

/** "09:00" -> "9:00 AM". */
export function formatClock(hhmm: string): string {
  // Parsed once per distinct clock (a day has at most 1,440): pages list the same hours over and over.
  let clock = clocks.get(hhmm);
  if (clock === undefined) {
    clock = dayjs(hhmm, "HH:mm").format("h:mm A");
    if (clocks.size < 2_000) clocks.set(hhmm, clock);
  }
  return clock;
}

const dayLabels = new Map<string, string>();

/**
 * A calendar day ("2026-12-07") in one of the pages' patterns: "Mon Dec 7", "Monday, December 7" or
 * "Dec 7, 2026".
 * Written once per day and pattern; the time step lists the same four weeks on every view.
 */
export function formatDay(date: string, pattern: "ddd MMM D" | "dddd, MMMM D" | "MMM D, YYYY"): string {
  const key = `${pattern}|${date}`;
  let label = dayLabels.get(key);
  if (label === undefined) {
    label = dayjs(date).format(pattern);
    if (dayLabels.size >= 2_000) dayLabels.clear();
    dayLabels.set(key, label);
  }
  return label;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

export type ZoneParts = {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  weekday: string;
};

/**
 * An instant's wall clock in a zone, part by part ("2026", "12", "07", "09", "30", "00", "Mon"). One
 * formatter per zone, made once and shared by every page and the spa client: dayjs's `tz` makes a new
 * one on every call, which was a tenth of a booking step's CPU.
 */
export function zoneParts(instant: Date | number, timeZone: string): ZoneParts {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(timeZone, format);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(instant)) part[type] = value;
  // Some engines write midnight as 24 even in the 23-hour cycle.
  return {
    year: part.year,
    month: part.month,
    day: part.day,
    hour: part.hour === "24" ? "00" : part.hour,
    minute: part.minute,
    second: part.second,
    weekday: part.weekday,
  };
}

/** The wall-clock date, clock and weekday at an instant in a zone. */
function wallClock(now: Date, timeZone: string): { date: string; clock: string; dayOfWeek: number } {
  const part = zoneParts(now, timeZone);
  return {
    date: `${part.year}-${part.month}-${part.day}`,
    clock: `${part.hour}:${part.minute}`,
    dayOfWeek: WEEKDAYS.indexOf(part.weekday as (typeof WEEKDAYS)[number]),
  };
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

const timeZoneLabels = new Map<string, string>();

/** "America/Chicago" -> "Central Time". */
export function timeZoneLabel(timeZone: string): string {
  // A generic name does not change with the date: made once per zone, not per page.
  let label = timeZoneLabels.get(timeZone);
  if (label === undefined) {
    const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longGeneric" })
      .formatToParts(new Date())
      .find((p) => p.type === "timeZoneName");
    label = part?.value ?? timeZone;
    timeZoneLabels.set(timeZone, label);
  }
  return label;
}

/** Day of week (0 = Sunday) and "HH:mm" at this instant in the given zone. */
export function localDayAndClock(now: Date, timeZone: string): { dayOfWeek: number; clock: string } {
  const { dayOfWeek, clock } = wallClock(now, timeZone);
  return { dayOfWeek, clock };
}

/** Zenoti's local wall-clock time ("2026-12-07T10:00:00") in a clinic's zone, as an instant. */
export function clinicTime(local: string, timeZone: string) {
  return dayjs.tz(local, "YYYY-MM-DDTHH:mm:ss", timeZone);
}

/** The slot format of the hold banner: "Mon Dec 7 @ 10:00 AM". */
export function formatSlot(local: string): string {
  return dayjs(local, "YYYY-MM-DDTHH:mm:ss").format("ddd MMM D @ h:mm A");
}

/** The expiry as displayed: rounded up to the next minute when its seconds exceed 5. */
export function displayedExpiry(expiresAt: string, timeZone: string) {
  const at = dayjs(expiresAt).tz(timeZone);
  return at.second() > 5 ? at.add(1, "minute").startOf("minute") : at.startOf("minute");
}

const todays = new Map<string, { minute: number; date: string }>();

/** Today's date in a clinic's zone, "YYYY-MM-DD". */
export function clinicToday(timeZone: string, now = new Date()): string {
  // A zone's date turns at a whole minute, so within one minute of the epoch it is the same date.
  const minute = Math.floor(now.getTime() / 60_000);
  const known = todays.get(timeZone);
  if (known?.minute === minute) return known.date;
  const date = wallClock(now, timeZone).date;
  todays.set(timeZone, { minute, date });
  return date;
}
