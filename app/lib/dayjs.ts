import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat.js";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";

// The one place dayjs is extended, for the server's arithmetic in a clinic's zone. Store and send ISO
// UTC; render in the clinic's time zone. The pages' own formatting is `~/lib/dates`, without dayjs,
// so that the browser's code carries no date library (decision 057).
dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

export { dayjs };

/** Zenoti's local wall-clock time ("2026-12-07T10:00:00") in a clinic's zone, as an instant. */
export function clinicTime(local: string, timeZone: string) {
  return dayjs.tz(local, "YYYY-MM-DDTHH:mm:ss", timeZone);
}
