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
  const local = dayjs(now).tz(timeZone);
  return { dayOfWeek: local.day(), clock: local.format("HH:mm") };
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

/** Today's date in a clinic's zone, "YYYY-MM-DD". */
export function clinicToday(timeZone: string, now = new Date()): string {
  return dayjs(now).tz(timeZone).format("YYYY-MM-DD");
}
