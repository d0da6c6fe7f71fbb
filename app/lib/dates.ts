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

/** "09:00" -> "9:00 AM". */
export function formatClock(hhmm: string): string {
  return dayjs(hhmm, "HH:mm").format("h:mm A");
}

/** "America/Chicago" -> "Central Time". */
export function timeZoneLabel(timeZone: string): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longGeneric" })
    .formatToParts(new Date())
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

/** Day of week (0 = Sunday) and "HH:mm" at this instant in the given zone. */
export function localDayAndClock(now: Date, timeZone: string): { dayOfWeek: number; clock: string } {
  const local = dayjs(now).tz(timeZone);
  return { dayOfWeek: local.day(), clock: local.format("HH:mm") };
}
