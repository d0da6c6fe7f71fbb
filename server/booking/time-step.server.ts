import { redirect } from "react-router";
import type { DowntimeRefusal } from "~/domain/downtime";
import { bookingDates, normalizeBookingDate, parseSlotGroup, type SlotGroup } from "~/domain/booking";
import { clinicToday } from "~/lib/dates";
import type { SlotList } from "../spa/booking.server";
import type { DowntimeOf } from "./downtime.server";

export const SLOTS_ERROR = "Error while fetching slots, please click to try again";
const DATE_NOT_BOOKABLE = "That date can't be booked. Please choose one from the list.";

export type RequestedDay = {
  date: string;
  dates: readonly string[];
  dateProblem: string | null;
  group: SlotGroup;
  chosen: boolean;
  /** The day came from the address (a link, a press in the date strip), not from memory or a default. */
  asked: boolean;
};

/**
 * The day a time step shows, from its address: the date asked for (a Sunday in a link moves to the
 * Monday after, by a redirect), else `fallback` (a day the visitor chose before) when bookable, else
 * `start` when bookable, else the first bookable date; and the time-of-day group. A date that can't
 * be booked is said, and the first one shown. `chosen` says the visitor picked the day (the address
 * or the fallback), so it is shown even when it has no open time.
 */
export function requestedDay(
  request: Request,
  timeZone: string,
  fallback: string | null | undefined,
  start?: string | null,
): RequestedDay {
  const url = new URL(request.url);
  const today = clinicToday(timeZone);
  const dates = bookingDates(today);
  const asked = url.searchParams.get("date");
  const normalized = normalizeBookingDate(asked, today);
  if (asked && normalized && normalized !== asked) {
    url.searchParams.set("date", normalized);
    throw redirect(`${url.pathname}${url.search}`);
  }
  const dateProblem = asked && !normalized ? DATE_NOT_BOOKABLE : null;
  const remembered = fallback && dates.includes(fallback) ? fallback : null;
  const date = normalized ?? remembered ?? (start && dates.includes(start) ? start : dates[0]);
  return { date, dates, dateProblem, group: parseSlotGroup(url.searchParams.get("group")), chosen: Boolean(normalized ?? remembered), asked: Boolean(normalized) };
}

/**
 * The open times of the day to show: a day nobody chose that has no time left (an evening, a full
 * day) gives way to the next day with times, which the back end names in the same answer, so the
 * step never opens on an empty day. A chosen day is shown as it is, with its "Next available".
 */
export async function firstDayWithTimes(
  day: { date: string; dates: readonly string[]; chosen: boolean },
  read: (date: string) => Promise<SlotList>,
): Promise<SlotList & { date: string }> {
  const first = await read(day.date);
  const next = first.nextAvailableDay;
  if (day.chosen || first.times.length > 0 || !next || next === day.date || !day.dates.includes(next)) return { date: day.date, ...first };
  const later = await read(next);
  return later.times.length > 0 ? { date: next, ...later } : { date: day.date, ...first };
}

/** The requested day with medical downtime applied: the days it refuses, and why the day shown is refused, if it is. */
export type GuestDay = RequestedDay & {
  /** The refused days among `dates`, with their reasons. */
  refused: ReadonlyMap<string, DowntimeRefusal>;
  /** The days the guest may book, the ones a step may move to by itself. */
  openDates: readonly string[];
  /** Why the day shown cannot be booked: shown refused only when the address asked for it, or the rule leaves no date at all. */
  refusal: DowntimeRefusal | null;
};

/**
 * The day to show once the downtime rule has been asked about every date: a day the address asked
 * for is shown as it is, with its refusal (its reason and first possible date, never times that
 * would all be refused); a remembered or default day the rule refuses gives way to the first day
 * it leaves, so the step opens on a day that can be booked.
 */
export function withDowntime(day: RequestedDay, downtimeOf: DowntimeOf): GuestDay {
  const refused = new Map<string, DowntimeRefusal>();
  for (const date of day.dates) {
    const refusal = downtimeOf(date);
    if (refusal) refused.set(date, refusal);
  }
  const openDates = refused.size === 0 ? day.dates : day.dates.filter((d) => !refused.has(d));
  if (!refused.has(day.date)) return { ...day, refused, openDates, refusal: null };
  if (day.asked || openDates.length === 0) return { ...day, refused, openDates, refusal: refused.get(day.date)! };
  // Not asked for: the first day left; it was not chosen, so a full day there gives way to the next with times.
  return { ...day, date: openDates[0], chosen: false, refused, openDates, refusal: null };
}
