import type { SubmissionResult } from "@conform-to/react";
import { Link } from "react-router";
import { dateStrip, filterSlots, SLOT_GROUPS, slotGroupOf, type SlotGroup } from "~/domain/booking";
import type { DateRange } from "~/domain/booking-forms";
import { FORMS } from "~/domain/form-contracts";
import { downtimeMessage, downtimeReason, downtimeShortReason, type DowntimeRefusal } from "~/domain/downtime";
import { formatClock, formatDay, timeZoneLabel } from "~/lib/dates";
import { ButtonLink } from "./button-link";
import { ErrorSummary, Field, SchemaForm, useSchemaForm } from "./forms";
import { useRovingTabStop } from "./roving-tab-stop";
import { useStartHere } from "./route-focus";

/** The time step's data, as the booking journey and the reschedule page both draw it. */
export type SlotPickerView = {
  date: string;
  dateLabel: string;
  /** The clinic's time zone, named: its times are on its own clock. */
  timeZoneLabel: string;
  /** The jump-to-date form: the dates it accepts, and its answer when the address's date was refused. */
  jump: { range: DateRange; reply: SubmissionResult<string[]> | null };
  /** Seven bookable days from the day shown, and the first days of the seven before and after. */
  week: {
    /**
     * `closed`: the day cannot be booked by this guest (medical downtime), in a word, and `why`, its
     * reason written out; `full`: the back end has no open time that day.
     */
    days: {
      value: string;
      weekday: string;
      month: string;
      day: string;
      closed: string | null;
      why: string | null;
      full: boolean;
    }[];
    /** Why the strip's closed days are closed, written out once per reason. */
    closedReasons: string[];
    /** Some day of the strip is marked full. */
    anyFull: boolean;
    range: string;
    earlier: string | null;
    later: string | null;
  };
  /** The day shown cannot be booked by this guest: why, and the first possible date (a link when it is among the dates offered). */
  refusal: { message: string; firstDate: { value: string; label: string; offered: boolean } } | null;
  group: string;
  groups: { id: string; label: string; count: number }[];
  slots: { value: string; label: string }[];
  anyTimes: boolean;
  nextAvailable: { value: string; label: string } | null;
  slotsError: string | null;
  /** The time held (or chosen) now, marked in the list. */
  held: string | null;
  /** Address parameters every link of the picker keeps (a booking link's choices, until its POST keeps them). */
  carry: string;
};

function weekView(
  dates: readonly string[],
  date: string,
  refused: ReadonlyMap<string, DowntimeRefusal>,
  full: ReadonlySet<string>,
): SlotPickerView["week"] {
  const { days, earlier, later } = dateStrip(dates, date);
  const shown = days.map((d) => {
    // "Wed Nov 25": the button's name, as the date list's used to be.
    const [weekday, month, day] = formatDay(d, "ddd MMM D").split(" ");
    const refusal = refused.get(d);
    return {
      value: d,
      weekday,
      month,
      day,
      closed: refusal ? downtimeShortReason(refusal) : null,
      why: refusal ? downtimeReason(refusal) : null,
      full: !refusal && full.has(d),
    };
  });
  const closedReasons = [...new Set(shown.flatMap((d) => (d.why ? [d.why] : [])))];
  const [first, last] = [shown[0], shown.at(-1)];
  return {
    days: shown,
    closedReasons,
    anyFull: shown.some((d) => d.full),
    range:
      !first || !last
        ? ""
        : first.month === last.month
          ? `${first.month} ${first.day}–${last.day}`
          : `${first.month} ${first.day}–${last.month} ${last.day}`,
    earlier,
    later,
  };
}

const NONE_REFUSED: ReadonlyMap<string, DowntimeRefusal> = new Map();

/** None of the day's times suits: the guest may ask to be told when one opens (decision 058). */
function WaitlistOffer({ to }: { to: string }) {
  return (
    <div className="button-row">
      None that suits you?{" "}
      <ButtonLink className="button button-secondary" to={to}>
        Tell me when a time opens
      </ButtonLink>
    </div>
  );
}

/** The day a picker shows, as the server read it (`slotPickerDay` in server/booking/time-step.server.ts). */
export type SlotPickerDayInput = {
  date: string;
  dates: readonly string[];
  /** The jump-to-date form's answer when the address's date was refused. */
  dateReply?: SubmissionResult<string[]> | null;
  group: SlotGroup;
  times: string[];
  nextAvailableDay: string | null;
  slotsError: string | null;
  /** Days medical downtime refuses this guest (the booking journey's; rescheduling has none). */
  refused?: ReadonlyMap<string, DowntimeRefusal>;
  /** Why the day shown is refused, when it is. */
  refusal?: DowntimeRefusal | null;
  /** The strip's days with no open time, as the back end told them. */
  fullDays?: readonly string[];
};

/**
 * The view of one day's open times, with the bookable dates and the time-of-day group shown: the
 * time held (or chosen) marked, on the clinic's clock, every link keeping `carry`.
 */
export function slotPickerView(
  input: SlotPickerDayInput,
  options: { held: string | null; timeZone: string; carry?: string },
): SlotPickerView {
  const { date, dates, group, times, nextAvailableDay, refusal } = input;
  const refused = input.refused ?? NONE_REFUSED;
  return {
    date,
    dateLabel: formatDay(date, "dddd, MMMM D"),
    timeZoneLabel: timeZoneLabel(options.timeZone),
    jump: { range: { first: dates[0], last: dates.at(-1) ?? dates[0] }, reply: input.dateReply ?? null },
    week: weekView(dates, date, refused, new Set(input.fullDays ?? [])),
    refusal: refusal
      ? {
          message: downtimeMessage(refusal),
          firstDate: {
            value: refusal.firstDate,
            label: formatDay(refusal.firstDate, "dddd, MMMM D"),
            offered: dates.includes(refusal.firstDate),
          },
        }
      : null,
    group,
    groups: SLOT_GROUPS.map((g) => ({
      ...g,
      count: g.id === "all" ? times.length : times.filter((t) => slotGroupOf(t) === g.id).length,
    })),
    // A time is local "YYYY-MM-DDTHH:mm:ss": its label is its clock's.
    slots: filterSlots(times, group).map((t) => ({ value: t, label: formatClock(t.slice(11, 16)) })),
    anyTimes: times.length > 0,
    nextAvailable:
      nextAvailableDay && dates.includes(nextAvailableDay) && !refused.has(nextAvailableDay)
        ? { value: nextAvailableDay, label: formatDay(nextAvailableDay, "dddd, MMMM D") }
        : null,
    slotsError: input.slotsError,
    held: options.held,
    carry: options.carry ?? "",
  };
}

/**
 * The date strip, the jump to a date, the time-of-day tabs and the open times as buttons of one form
 * (`slot`). GET forms and a POST form: it works without JavaScript. With it, the strip's days and the
 * time-of-day tabs are one Tab stop each, moved along with the arrow keys, so the first time is a few
 * presses from the heading.
 */
export function SlotPicker({
  view,
  hold,
  reserving,
  waitlist,
  startAtFirstTime = false,
}: {
  view: SlotPickerView;
  hold: ReturnType<typeof useSchemaForm>;
  reserving: string | null;
  /** Where "Tell me when a time opens" leads when no time suits (the booking's time step; decision 058). */
  waitlist?: string;
  /**
   * The page starts at the day's first open time (the booking's time step, decision 062): the day
   * shown is the first with open times, or the one asked for, and its times are the step's decision.
   */
  startAtFirstTime?: boolean;
}) {
  const {
    date,
    dateLabel,
    timeZoneLabel: zone,
    week,
    group,
    groups,
    slots,
    anyTimes,
    nextAvailable,
    slotsError,
    held,
    refusal,
    carry,
  } = view;
  const dayStops = useRovingTabStop(
    week.days.filter((d) => !d.closed).map((d) => d.value),
    date,
  );
  const startHere = useStartHere(startAtFirstTime && Object.keys(hold.form.allErrors).length === 0 && slots.length > 0);
  const groupStops = useRovingTabStop(
    groups.map((g) => g.id),
    group,
  );
  return (
    <>
      {/*
        Seven bookable days from the day shown, each a button that shows its times (a GET form of its
        own: it works without JavaScript), and the seven before and after. One press picks a day.
      */}
      <nav aria-label="Dates" className="date-strip">
        <div className="date-strip-weeks">
          {week.earlier ? (
            <ButtonLink
              to={`?date=${week.earlier}&group=${group}${carry}`}
              className="button-secondary"
              preventScrollReset
            >
              <span aria-hidden="true">‹</span> Earlier<span className="visually-hidden"> days</span>
            </ButtonLink>
          ) : (
            <span />
          )}
          <span className="date-strip-range">{week.range}</span>
          {week.later ? (
            <ButtonLink
              to={`?date=${week.later}&group=${group}${carry}`}
              className="button-secondary"
              preventScrollReset
            >
              Later<span className="visually-hidden"> days</span> <span aria-hidden="true">›</span>
            </ButtonLink>
          ) : (
            <span />
          )}
        </div>
        <ul className="date-strip-days" onKeyDown={dayStops.onKeyDown}>
          {week.days.map((d) => (
            <li key={d.value}>
              {d.closed ? (
                // Not a control: the guest cannot book this day; its word says why, and its reason is read with it.
                <span
                  className="date-strip-closed"
                  aria-current={d.value === date ? "date" : undefined}
                  data-date={d.value}
                >
                  <span className="date-strip-weekday">{d.weekday}</span>{" "}
                  <span className="visually-hidden">{d.month} </span>
                  <span className="date-strip-day">{d.day}</span>{" "}
                  <span className="date-strip-why" aria-hidden="true">
                    {d.closed}
                  </span>
                  <span className="visually-hidden">, cannot be booked: {d.why}</span>
                </span>
              ) : (
                <ButtonLink
                  to={`?date=${d.value}&group=${group}${carry}`}
                  aria-current={d.value === date ? "date" : undefined}
                  data-date={d.value}
                  data-roving={d.value}
                  tabIndex={dayStops.tabIndexOf(d.value)}
                  className={d.full ? "date-strip-full" : undefined}
                  preventScrollReset
                >
                  <span className="date-strip-weekday">{d.weekday}</span>{" "}
                  <span className="visually-hidden">{d.month} </span>
                  <span className="date-strip-day">{d.day}</span>
                  {d.full ? (
                    <>
                      {" "}
                      <span className="date-strip-why" aria-hidden="true">
                        Full
                      </span>
                      <span className="visually-hidden">, fully booked</span>
                    </>
                  ) : null}
                </ButtonLink>
              )}
            </li>
          ))}
        </ul>
        {week.closedReasons.length > 0 || week.anyFull ? (
          <ul className="date-strip-reasons">
            {week.anyFull ? <li>Full: fully booked, no open times left</li> : null}
            {week.closedReasons.map((reason) => (
              <li key={reason}>Not bookable: {reason}</li>
            ))}
          </ul>
        ) : null}
        <JumpToDate key={`${date}|${view.jump.reply ? "refused" : ""}`} view={view} />
      </nav>

      {refusal ? (
        // A day the address asked for that this guest cannot book: why, and where to go instead; no times that would all be refused.
        <>
          <h2>{dateLabel}</h2>
          <div className="notice" id="day-refused">
            <p>{refusal.message}</p>
            <p>
              {refusal.firstDate.offered ? (
                <Link to={`?date=${refusal.firstDate.value}&group=${group}${carry}`}>
                  See times on {refusal.firstDate.label}
                </Link>
              ) : (
                <>Times for {refusal.firstDate.label} are not open for booking yet.</>
              )}
            </p>
          </div>
        </>
      ) : (
        <>
          <nav aria-label="Time of day" className="view-toggle" onKeyDown={groupStops.onKeyDown}>
            {groups.map((g) => (
              <ButtonLink
                key={g.id}
                to={`?date=${date}&group=${g.id}${carry}`}
                aria-current={g.id === group ? "page" : undefined}
                data-roving={g.id}
                tabIndex={groupStops.tabIndexOf(g.id)}
                preventScrollReset
              >
                {g.label} <span className="muted">({g.count})</span>
              </ButtonLink>
            ))}
          </nav>

          <h2>{dateLabel}</h2>
          <p className="muted">Times are the clinic's own: {zone}.</p>
          {/* Outside the list of times: after "just taken" the list is read again and may be empty. */}
          <ErrorSummary key={hold.attempt} form={hold.form} />
          {slotsError ? (
            <div role="alert" className="notice">
              <p>{slotsError}</p>
              {/* The same address again: a retry that works without JavaScript. */}
              <ButtonLink className="button" to={`?date=${date}&group=${group}${carry}`}>
                Try again
              </ButtonLink>
            </div>
          ) : !anyTimes ? (
            <div className="notice">
              <p>No times are open on this day.</p>
              {nextAvailable ? (
                <div className="button-row">
                  Next available:{" "}
                  <ButtonLink className="button" to={`?date=${nextAvailable.value}&group=all${carry}`}>
                    {nextAvailable.label}
                  </ButtonLink>
                </div>
              ) : null}
              {waitlist ? <WaitlistOffer to={waitlist} /> : null}
            </div>
          ) : slots.length === 0 ? (
            <div className="notice">
              <p>No {group} times on this day. Try another time of day.</p>
              {waitlist ? <WaitlistOffer to={waitlist} /> : null}
            </div>
          ) : (
            <SchemaForm schemaForm={hold} summary={false} className="slots" aria-label={`Open times on ${dateLabel}`}>
              {slots.map((s, index) => (
                <button
                  {...(index === 0 ? startHere : {})}
                  key={s.value}
                  type="submit"
                  name="slot"
                  value={s.value}
                  className={held === s.value ? "slot held" : "slot"}
                  disabled={reserving !== null}
                >
                  {reserving === s.value ? "Holding…" : s.label}
                </button>
              ))}
            </SchemaForm>
          )}
        </>
      )}
    </>
  );
}

/**
 * "Jump to a date": a GET form of its own (it works without JavaScript) behind a disclosure, one Tab
 * stop while closed. It sends `date` as the strip's days do, with the time-of-day group and the
 * link's choices; a date refused by the address comes back as its answer, open, with the date kept.
 */
function JumpToDate({ view }: { view: SlotPickerView }) {
  const { jump, date, group, carry } = view;
  const form = useSchemaForm(FORMS.JumpToDateSchema, {
    id: "jump-to-date",
    lastResult: jump.reply,
    defaultValue: { date },
  });
  return (
    <details className="date-jump" open={jump.reply ? true : undefined}>
      <summary>Jump to a date</summary>
      <SchemaForm schemaForm={form} method="get" preventScrollReset className="date-jump-form">
        <input type="hidden" name="group" value={group} />
        {[...new URLSearchParams(carry)].map(([name, value], index) => (
          <input key={`${index}-${name}`} type="hidden" name={name} value={value} />
        ))}
        <div className="inline-field">
          <Field
            meta={form.fields.date}
            label="Date"
            type="date"
            min={jump.range.first}
            max={jump.range.last}
            hint={`Any day from ${formatDay(jump.range.first, "MMM D, YYYY")} to ${formatDay(jump.range.last, "MMM D, YYYY")}.`}
          />
          <button type="submit">Show times</button>
        </div>
      </SchemaForm>
    </details>
  );
}
