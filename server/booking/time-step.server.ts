import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import type { DowntimeRefusal } from "~/domain/downtime";
import {
  bookingDates,
  dateStrip,
  normalizeBookingDate,
  parseSlotGroup,
  weekLeads,
  type SlotGroup,
} from "~/domain/booking";
import { bookingDateProblem, JUMP_DATE_MESSAGES, JumpToDateSchema, type DateRange } from "~/domain/booking-forms";
import { clinicToday } from "~/lib/dates";
import type { SlotList } from "../spa/booking.server";
import { logger } from "../observability/logger.server";
import { isSpaError } from "../spa/errors.server";
import { NO_DOWNTIME, type DowntimeOf } from "./downtime.server";

export const SLOTS_ERROR = "Error while fetching slots, please click to try again";

export type RequestedDay = {
  date: string;
  dates: readonly string[];
  /** Why the date in the address cannot be shown (the jump-to-date form's message), or null. */
  dateProblem: string | null;
  /** The jump-to-date form's answer when the address's date was refused: the date typed, kept, and the message. */
  dateReply: SubmissionResult<string[]> | null;
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
  // The strip's days and the jump-to-date form both send `date`: a refused one is the form's answer.
  const range: DateRange = { first: dates[0], last: dates.at(-1)! };
  const dateProblem =
    asked !== null && !normalized ? (bookingDateProblem(asked, range) ?? JUMP_DATE_MESSAGES.invalid) : null;
  const dateReply = dateProblem ? jumpReply(url.searchParams, dateProblem) : null;
  const remembered = fallback && dates.includes(fallback) ? fallback : null;
  const date = normalized ?? remembered ?? (start && dates.includes(start) ? start : dates[0]);
  return {
    date,
    dates,
    dateProblem,
    dateReply,
    group: parseSlotGroup(url.searchParams.get("group")),
    chosen: Boolean(normalized ?? remembered),
    asked: Boolean(normalized),
  };
}

/** The jump-to-date form's refusal of the address's date: what was sent, kept, and why it is refused. */
function jumpReply(query: URLSearchParams, problem: string): SubmissionResult<string[]> {
  const only = new URLSearchParams();
  for (const value of query.getAll("date")) only.append("date", value);
  const submission = parseWithZod(only, { schema: JumpToDateSchema });
  // A real date the clinic does not offer (past, or past the horizon) is refused at the field.
  return submission.status === "error" ? submission.reply() : submission.reply({ fieldErrors: { date: [problem] } });
}

/** How many more days a step reads, at most, looking past a day the back end named that cannot be booked. */
const MORE_LOOKS = 2;

/**
 * The open times of the day to show: a day nobody chose that has no time left (an evening, a full
 * day) gives way to the next day with times, which the back end names in the same answer, so the
 * step never opens on an empty day. A chosen day is shown as it is, with its "Next available".
 * The back end's next day knows nothing of `dates` (medical downtime may refuse it): then the first
 * date of `dates` after it is read, and so on a few times, so that the day shown or offered is one
 * that can be booked and has times.
 */
export async function firstDayWithTimes(
  day: { date: string; dates: readonly string[]; chosen: boolean },
  read: (date: string) => Promise<SlotList>,
): Promise<SlotList & { date: string }> {
  const first = await read(day.date);
  const next = first.nextAvailableDay;
  if (first.times.length > 0 || !next || next <= day.date) return { date: day.date, ...first };
  // A chosen day stays; only a next day it cannot offer is looked past.
  if (day.chosen && day.dates.includes(next)) return { date: day.date, ...first };
  const later = await nextDayWithTimes(day.date, next, day.dates, read);
  if (day.chosen) return { date: day.date, ...first, nextAvailableDay: later?.date ?? next };
  return later ?? { date: day.date, ...first };
}

/** The first of `dates` from `next` on that has times, following the back end's next days; null when none is found in a few reads. */
async function nextDayWithTimes(
  after: string,
  next: string | null,
  dates: readonly string[],
  read: (date: string) => Promise<SlotList>,
): Promise<(SlotList & { date: string }) | null> {
  for (let looks = 0; next && looks <= MORE_LOOKS; looks += 1) {
    const from = next;
    const candidate = dates.find((d) => d >= from && d > after);
    if (!candidate) return null;
    const list = await read(candidate);
    if (list.times.length > 0) return { date: candidate, ...list };
    after = candidate;
    next = list.nextAvailableDay;
  }
  return null;
}

/** A step's day with its open times, or why there are none to show. */
export type SlotPickerDay = GuestDay & {
  times: string[];
  nextAvailableDay: string | null;
  slotsError: string | null;
  /** The date strip's days the back end says have no open time (a day not known is not among them). */
  fullDays: string[];
};

/** The status of a page showing the day: 503 when its times could not be read, 400 when the address's date was refused. */
export function dayStatus(day: Pick<SlotPickerDay, "slotsError" | "dateProblem">): number {
  return day.slotsError ? 503 : day.dateProblem ? 400 : 200;
}

/**
 * The slot picker's day, for the time step and rescheduling alike: the day asked for with the
 * downtime rule applied (when the step has one: until the guest's history is read no day is
 * refused), then its open times or the next day with times. A refused day has no times to show:
 * every one would be refused. A back end that cannot say is the step's "try again", not an error.
 * Then the strip's days without open times (decision 054).
 */
export async function slotPickerDay(
  asked: RequestedDay,
  input: { downtime?: () => Promise<DowntimeOf>; read: (date: string) => Promise<SlotList>; step: string },
): Promise<SlotPickerDay> {
  let day = withDowntime(asked, NO_DOWNTIME);
  try {
    if (input.downtime) day = withDowntime(asked, await input.downtime());
    if (day.refusal) {
      const fullDays = await stripFullDays(day, null, input.read);
      return { ...day, times: [], nextAvailableDay: null, slotsError: null, fullDays };
    }
    const shown = await firstDayWithTimes({ ...day, dates: day.openDates }, input.read);
    const { date, times, nextAvailableDay } = shown;
    const fullDays = await stripFullDays({ ...day, date }, shown, input.read);
    return { ...day, date, times, nextAvailableDay, slotsError: null, fullDays };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn(`${input.step} slots unavailable`, { kind: error.kind, status: error.status });
    return { ...day, times: [], nextAvailableDay: null, slotsError: SLOTS_ERROR, fullDays: [] };
  }
}

/**
 * The days of the date strip with no open time. One answer of the slots call tells its own day and
 * the later days of its week (Zenoti's `future_days`), so beside the day shown (already read) the
 * strip costs one read for each other week it touches, at its first day not yet told (in practice
 * one: the strip's seven days span two weeks). A day medical downtime refuses is not read; it is
 * marked for that. A read that fails or is held back leaves its days unmarked, never the page broken.
 */
async function stripFullDays(
  day: GuestDay,
  shown: (SlotList & { date: string }) | null,
  read: (date: string) => Promise<SlotList>,
): Promise<string[]> {
  const open = new Map<string, boolean>();
  const learn = (date: string, list: SlotList) => {
    open.set(date, list.times.length > 0);
    for (const other of list.weekDays ?? []) if (!open.has(other.date)) open.set(other.date, other.open);
  };
  if (shown) learn(shown.date, shown);
  const { days } = dateStrip(day.dates, day.date);
  const leads = weekLeads(days, (d) => day.refused.has(d) || open.has(d));
  const answers = await Promise.all(
    leads.map((date) =>
      read(date).then(
        (list) => ({ date, list }),
        (error: unknown) => {
          if (!isSpaError(error)) throw error;
          logger.warn("date strip days unknown", { kind: error.kind, status: error.status });
          return null;
        },
      ),
    ),
  );
  for (const answer of answers) if (answer) learn(answer.date, answer.list);
  return days.filter((d) => !day.refused.has(d) && open.get(d) === false);
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
