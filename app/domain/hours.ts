import type { WorkingDay } from "./catalog";

export type HoursRow = { days: string; hours: string | null };

const SHORT_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Whether the clinic is open at this local day and clock ("HH:mm"). */
export function isOpenAt(hours: WorkingDay[], dayOfWeek: number, clock: string): boolean {
  const day = hours.find((d) => d.dayOfWeek === dayOfWeek);
  if (!day?.opens || !day.closes) return false;
  return clock >= day.opens && clock < day.closes;
}

/**
 * Hours grouped into runs of days with the same times, Monday first:
 * "Mon–Wed 9:00 AM – 7:00 PM", "Sun Closed".
 */
export function groupHours(hours: WorkingDay[], formatClock: (hhmm: string) => string): HoursRow[] {
  const mondayFirst = [1, 2, 3, 4, 5, 6, 0].map(
    (d) => hours.find((h) => h.dayOfWeek === d) ?? { dayOfWeek: d, opens: null, closes: null },
  );
  const rows: { from: number; to: number; hours: string | null }[] = [];
  for (const day of mondayFirst) {
    const text = day.opens && day.closes ? `${formatClock(day.opens)} – ${formatClock(day.closes)}` : null;
    const last = rows.at(-1);
    if (last && last.hours === text && (last.to + 1) % 7 === day.dayOfWeek) last.to = day.dayOfWeek;
    else rows.push({ from: day.dayOfWeek, to: day.dayOfWeek, hours: text });
  }
  return rows.map((r) => ({
    days: r.from === r.to ? SHORT_DAYS[r.from] : `${SHORT_DAYS[r.from]}–${SHORT_DAYS[r.to]}`,
    hours: r.hours,
  }));
}
