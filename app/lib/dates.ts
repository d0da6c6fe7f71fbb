/**
 * Dates and clocks as the pages write them, from Zenoti's wall-clock strings and the clinic's zone,
 * with the platform's own Intl: this module is in the browser's code on every booking step, and
 * carries no date library (decision 057). Date arithmetic in a zone is `~/lib/dayjs`, for the server.
 */

export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** A 24-hour clock as the pages write it: 9, 30 -> "9:30 AM"; 0, 5 -> "12:05 AM". */
function twelveHourClock(hour: number, minute: number): string {
  return `${hour % 12 || 12}:${String(minute).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"}`;
}

/** "09:00" -> "9:00 AM". */
export function formatClock(hhmm: string): string {
  const match = /^(\d{1,2}):(\d{2})/.exec(hhmm);
  return match ? twelveHourClock(Number(match[1]), Number(match[2])) : hhmm;
}

/** A calendar day's parts, and its weekday (0 = Sunday) as the calendar has it, whatever the zone. */
function dayParts(date: string): { year: number; month: number; day: number; weekday: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return { year, month, day, weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay() };
}

/**
 * A calendar day ("2026-12-07") in one of the pages' patterns: "Mon Dec 7", "Monday, December 7" or
 * "Dec 7, 2026".
 */
export function formatDay(date: string, pattern: "ddd MMM D" | "dddd, MMMM D" | "MMM D, YYYY"): string {
  const parts = dayParts(date);
  if (!parts) return date;
  const { year, month, day, weekday } = parts;
  const monthName = MONTHS[month - 1];
  if (pattern === "ddd MMM D") return `${DAY_NAMES[weekday].slice(0, 3)} ${monthName.slice(0, 3)} ${day}`;
  if (pattern === "dddd, MMMM D") return `${DAY_NAMES[weekday]}, ${monthName} ${day}`;
  return `${monthName.slice(0, 3)} ${day}, ${year}`;
}

/** The calendar day `days` after this one: ("2026-12-30", 3) -> "2027-01-02". */
export function addDays(date: string, days: number): string {
  const parts = dayParts(date);
  if (!parts) throw new Error(`not a calendar day: ${date}`);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day + days)).toISOString().slice(0, 10);
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

/**
 * Zenoti's local wall-clock time ("2026-12-07T10:00:00") in a clinic's zone, as an instant (ms). The
 * zone's offset is read from the wall clock it shows near that instant, twice, so that a change of
 * daylight saving between the guess and the answer is found.
 */
export function instantOf(local: string, timeZone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(local);
  if (!match) return Number.NaN;
  const [year, month, day, hour, minute, second = "0"] = match.slice(1);
  const asUtc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  let instant = asUtc;
  for (let round = 0; round < 2; round++) {
    const shown = zoneParts(instant, timeZone);
    const shownAsUtc = Date.UTC(
      Number(shown.year),
      Number(shown.month) - 1,
      Number(shown.day),
      Number(shown.hour),
      Number(shown.minute),
      Number(shown.second),
    );
    instant = asUtc - (shownAsUtc - instant);
  }
  return instant;
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

/** The slot format of the hold banner: "2026-12-07T10:00:00" -> "Mon Dec 7 @ 10:00 AM". */
export function formatSlot(local: string): string {
  return `${formatDay(local, "ddd MMM D")} @ ${formatClock(local.slice(11, 16))}`;
}

/** A hold's expiry as the banner shows it, in the clinic's zone: rounded up to the next minute when its seconds exceed 5. */
export function expiryClock(expiresAt: string, timeZone: string): string {
  const instant = Date.parse(expiresAt);
  const seconds = Number(zoneParts(instant, timeZone).second);
  const shown = zoneParts(seconds > 5 ? instant + 60_000 : instant, timeZone);
  return twelveHourClock(Number(shown.hour), Number(shown.minute));
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
