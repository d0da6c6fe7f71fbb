import { data, Form, href, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import { ErrorSummary, SchemaForm, useSchemaForm } from "~/components/forms";
import { CHOOSE_TIME, HoldSlotSchema } from "~/domain/booking-forms";
import { bookingDates, filterSlots, normalizeBookingDate, parseSlotGroup, SLOT_GROUPS, slotGroupOf } from "~/domain/booking";
import { DOWNTIME_MESSAGE } from "~/domain/downtime";
import { SLOT_TAKEN } from "~/domain/booking";
import { dayjs, clinicToday } from "~/lib/dates";
import { requireChosenService } from "#server/booking/catalog-view.server";
import { knownGuest, setDraft } from "#server/booking/draft.server";
import { chooseTime, holdSlot } from "#server/booking/hold-slot.server";
import { openTimes, type SlotQuery } from "#server/booking/holds.server";
import { logger } from "#server/observability/logger.server";
import { isSpaError } from "#server/spa/errors.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { currentUser } from "#server/request-context.server";
import { OUTAGE_MESSAGE } from "#server/unavailable.server";
import type { Route } from "./+types/time";

export const SLOTS_ERROR = "Error while fetching slots, please click to try again";

export const meta: Route.MetaFunction = () => [{ title: "Choose a date and time | Glow Clinic" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const { session, draft, center, service } = await requireChosenService(context);

  const url = new URL(request.url);
  const today = clinicToday(center.timeZone);
  const dates = bookingDates(today);
  const asked = url.searchParams.get("date");
  const normalized = normalizeBookingDate(asked, today);
  if (asked && normalized && normalized !== asked) {
    // A Sunday in a link moves to the Monday after.
    url.searchParams.set("date", normalized);
    throw redirect(`${url.pathname}${url.search}`);
  }
  const dateProblem = asked && !normalized ? "That date can't be booked. Please choose one from the list." : null;
  const date = normalized ?? (draft.date && dates.includes(draft.date) ? draft.date : dates[0]);
  const group = parseSlotGroup(url.searchParams.get("group"));

  let times: string[] = [];
  let nextAvailableDay: string | null = null;
  let slotsError: string | null = null;
  try {
    const query: SlotQuery = { centerId: center.id, serviceId: service.id, addOnIds: draft.addOnIds, therapistId: draft.therapistId, date };
    ({ times, nextAvailableDay } = await openTimes(services, query));
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("slots unavailable", { kind: error.kind, status: error.status });
    slotsError = SLOTS_ERROR;
  }
  if (draft.date !== date) setDraft(session, { ...draft, date });
  const shown = filterSlots(times, group);
  const status = slotsError ? 503 : dateProblem ? 400 : 200;
  return data(
    {
      clinic: { id: center.id, name: center.name },
      service: service.displayName,
      date,
      dateLabel: dayjs(date).format("dddd, MMMM D"),
      dateProblem,
      dates: dates.map((d) => ({ value: d, label: dayjs(d).format("ddd MMM D") })),
      group,
      groups: SLOT_GROUPS.map((g) => ({ ...g, count: g.id === "all" ? times.length : times.filter((t) => slotGroupOf(t) === g.id).length })),
      slots: shown.map((t) => ({ value: t, label: dayjs(t).format("h:mm A") })),
      anyTimes: times.length > 0,
      nextAvailable: nextAvailableDay && dates.includes(nextAvailableDay) ? { value: nextAvailableDay, label: dayjs(nextAvailableDay).format("dddd, MMMM D") } : null,
      slotsError,
      held: draft.hold?.slot ?? draft.slot ?? null,
    },
    { status },
  );
}

/** A 429 from the hold limits keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function action({ request, context }: Route.ActionArgs) {
  const { session, draft, center, service } = await requireChosenService(context);
  const submission = parseSubmission(await formDataOf(request), HoldSlotSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const slot = String(submission.value.slot);
  const date = normalizeBookingDate(slot.slice(0, 10), clinicToday(center.timeZone));
  if (!date || date !== slot.slice(0, 10)) return refuseForm(submission, { formErrors: [CHOOSE_TIME] });
  const user = await currentUser(context);
  if (!user && !knownGuest(draft)) {
    // Not known yet: the time is kept, and held once the visitor's details say whose it is.
    const chosen = await chooseTime(context.services, { draft, centerId: center.id, service, slot, date });
    if (chosen.kind === "unavailable") return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
    if (chosen.kind === "taken") return refuseForm(submission, { status: 409, formErrors: [SLOT_TAKEN] });
    setDraft(session, chosen.draft);
    return redirect(href("/appointment/details"));
  }
  const outcome = await holdSlot(context.services, { draft, centerId: center.id, service, slot, date, timeZone: center.timeZone, clientIp: context.clientIp, user });
  setDraft(session, outcome.draft);
  switch (outcome.kind) {
    case "held":
      return redirect(outcome.draft.details ? href("/appointment/payment") : href("/appointment/details"));
    case "too-many":
      return refuseForm(submission, { status: 429, formErrors: [outcome.message], headers: { "Retry-After": String(outcome.retryAfterSeconds) } });
    case "downtime":
      return refuseForm(submission, { formErrors: [DOWNTIME_MESSAGE] });
    case "taken":
      return refuseForm(submission, { status: 409, formErrors: [SLOT_TAKEN] });
    case "unavailable":
      return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
  }
}

/** After "That time was just taken" (409) the list must be read again to drop the taken time. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

export default function TimeStep({ loaderData, actionData }: Route.ComponentProps) {
  const { clinic, service, date, dateLabel, dateProblem, dates, group, groups, slots, anyTimes, nextAvailable, slotsError, held } = loaderData;
  const navigation = useNavigation();
  const reserving = navigation.state === "submitting" ? String(navigation.formData?.get("slot") ?? "") : null;
  const hold = useSchemaForm(HoldSlotSchema, { id: "hold-slot", lastResult: actionData?.result });
  return (
    <>
      <h1>Choose a date and time</h1>
      <p>
        {service} at {clinic.name}. <Link to={`${href("/appointment/service")}?id=${encodeURIComponent(clinic.id)}`}>Change treatment</Link>
      </p>
      <Form method="get" className="date-picker">
        <input type="hidden" name="group" value={group} />
        <label htmlFor="date">Date</label>
        <div className="inline-field">
          <select id="date" name="date" defaultValue={date} aria-invalid={dateProblem ? true : undefined} aria-describedby={dateProblem ? "date-error" : undefined}>
            {dates.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
          <button type="submit" className="button-secondary">
            Show times
          </button>
        </div>
        {dateProblem ? (
          // The one message of a page opened from a bad link: said when the page loads.
          <p className="field-error" id="date-error" role="alert">
            {dateProblem}
          </p>
        ) : null}
      </Form>

      <nav aria-label="Time of day" className="view-toggle">
        {groups.map((g) => (
          <Link key={g.id} to={`?date=${date}&group=${g.id}`} aria-current={g.id === group ? "page" : undefined} preventScrollReset>
            {g.label} <span className="muted">({g.count})</span>
          </Link>
        ))}
      </nav>

      <h2>{dateLabel}</h2>
      {/* Outside the list of times: after "just taken" the list is read again and may be empty. */}
      <ErrorSummary key={hold.attempt} form={hold.form} />
      {slotsError ? (
        <div role="alert" className="notice">
          <p>{slotsError}</p>
          {/* A link to the same address: a retry that works without JavaScript. */}
          <a className="button" href={`?date=${date}&group=${group}`}>
            Try again
          </a>
        </div>
      ) : !anyTimes ? (
        <div className="notice">
          <p>No times are open on this day.</p>
          {nextAvailable ? (
            <p>
              Next available:{" "}
              <Link className="button" to={`?date=${nextAvailable.value}&group=all`}>
                {nextAvailable.label}
              </Link>
            </p>
          ) : null}
        </div>
      ) : slots.length === 0 ? (
        <p className="notice">No {group} times on this day. Try another time of day.</p>
      ) : (
        <SchemaForm schemaForm={hold} summary={false} className="slots" aria-label="Open times">
          {slots.map((s) => (
            <button key={s.value} type="submit" name="slot" value={s.value} className={held === s.value ? "slot held" : "slot"} disabled={reserving !== null}>
              {reserving === s.value ? "Holding…" : s.label}
            </button>
          ))}
        </SchemaForm>
      )}
    </>
  );
}
