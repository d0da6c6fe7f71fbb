import { redirect } from "react-router";
import { bookingDates, normalizeBookingDate, parseSlotGroup, type SlotGroup } from "~/domain/booking";
import { clinicToday } from "~/lib/dates";

export const SLOTS_ERROR = "Error while fetching slots, please click to try again";
const DATE_NOT_BOOKABLE = "That date can't be booked. Please choose one from the list.";

/**
 * The day a time step shows, from its address: the date asked for (a Sunday in a link moves to the
 * Monday after, by a redirect), else `fallback` when bookable, else the first bookable date; and
 * the time-of-day group. A date that can't be booked is said, and the first one shown.
 */
export function requestedDay(request: Request, timeZone: string, fallback: string | null | undefined): { date: string; dates: string[]; dateProblem: string | null; group: SlotGroup } {
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
  const date = normalized ?? (fallback && dates.includes(fallback) ? fallback : dates[0]);
  return { date, dates, dateProblem, group: parseSlotGroup(url.searchParams.get("group")) };
}
