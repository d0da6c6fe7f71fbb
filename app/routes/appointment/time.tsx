import { data, Form, href, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import { FormError, FieldError } from "~/components/field";
import { bookingDates, filterSlots, normalizeBookingDate, parseSlotGroup, SLOT_GROUPS, slotGroupOf } from "~/domain/booking";
import { DOWNTIME_MESSAGE, violatesDowntime } from "~/domain/downtime";
import { SLOT_TAKEN } from "~/domain/booking";
import { dayjs, clinicToday } from "~/lib/dates";
import { requireChosenService } from "#server/booking/catalog-view.server";
import { commit, setDraft } from "#server/booking/draft.server";
import { dropHoldClaim, keepHoldClaim, mayCreateGuest, startHoldAttempt, tooManyHoldsMessage, type HoldGate } from "#server/booking/hold-limits.server";
import { forgetOpenTimes, openTimes, releaseDraftHold, type SlotQuery } from "#server/booking/holds.server";
import { adoptSignedInGuest } from "#server/booking/signed-in.server";
import { logger } from "#server/observability/logger.server";
import { isSpaError } from "#server/spa/errors.server";
import { formDataOf } from "#server/forms.server";
import type { Route } from "./+types/time";

export const SLOTS_ERROR = "Error while fetching slots, please click to try again";
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

export const meta: Route.MetaFunction = () => [{ title: "Choose a date and time | Glow Clinic" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const { session, draft, center, service } = await requireChosenService(request, services);

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
  const headers = draft.date !== date ? await commit(services, session) : undefined;
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
      held: draft.hold?.slot ?? null,
    },
    { status, headers },
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
  const { services } = context;
  const chosen = await requireChosenService(request, services);
  const { session, center, service } = chosen;
  // The id names this booking in progress for its own attempt limit; it is kept on every answer.
  const draft = { ...chosen.draft, id: chosen.draft.id ?? crypto.randomUUID() };
  const form = await formDataOf(request);
  const slot = String(form.get("slot") ?? "");
  const date = normalizeBookingDate(slot.slice(0, 10), clinicToday(center.timeZone));
  if (!LOCAL_TIME.test(slot) || !date || date !== slot.slice(0, 10)) {
    return data({ formError: "Please choose a time from the list." }, { status: 400 });
  }
  const query: SlotQuery = { centerId: center.id, serviceId: service.id, addOnIds: draft.addOnIds, therapistId: draft.therapistId, date };
  const tooMany = async (refusal: Extract<HoldGate, { ok: false }>) => {
    setDraft(session, draft);
    return data(
      { formError: tooManyHoldsMessage(refusal) },
      { status: 429, headers: { "Retry-After": String(refusal.retryAfterSeconds), ...(await commit(services, session)) } },
    );
  };

  // The limits come before anything is made in the back end: a refused attempt leaves nothing behind.
  const gate = startHoldAttempt(services.rateLimiter, context.clientIp, draft.id, draft.hold?.claim);
  if (!gate.ok) return tooMany(gate);
  const { claim } = gate;
  let guestId = draft.guestId;
  let held = false;
  try {
    const user = await services.accounts.currentUser(session.get("userSessionId"));
    if (user && draft.guestId !== user.guestId) {
      // Signed in: book under the account's own guest, with its details.
      const adopted = await adoptSignedInGuest(services, { ...draft, hold: undefined }, user);
      if (adopted !== "taken") Object.assign(draft, { guestId: adopted.guestId, details: adopted.details });
      guestId = draft.guestId;
    }
    if (draft.guestId && draft.details) {
      // A known guest (texted link): medical downtime after their other treatments applies.
      const history = await services.spa.listGuestAppointments(draft.guestId, { size: 100 });
      const visits = history.flatMap((a) => a.services.map((s) => ({ name: s.name, start: s.start, status: s.status })));
      if (violatesDowntime(service.name, date, visits, services.env.MEDICAL_DOWNTIME_DAYS)) {
        setDraft(session, draft);
        return data({ formError: DOWNTIME_MESSAGE }, { status: 400, headers: await commit(services, session) });
      }
    }
    if (!guestId) {
      const allowed = mayCreateGuest(services.rateLimiter, context.clientIp);
      if (!allowed.ok) return tooMany(allowed);
      // The visitor's own guest record, filled in at the details step. From here on every answer
      // keeps it in the draft, so the next attempt uses it again instead of making another.
      const guest = await services.spa.createGuest({
        center_id: center.id,
        personal_info: { first_name: "Online", last_name: "Guest", user_name: "", email: "", date_of_birth: "1900-01-01", mobile_phone: { country_code: 225, number: "" } },
        preferences: { receive_marketing_email: false, receive_marketing_sms: false, receive_transactional_email: true, receive_transactional_sms: true },
        tags: ["Booking Lead", "NBF"],
      });
      guestId = guest.id;
    }
    const bookingId = await services.spa.createBooking({ ...query, guestId });
    const hold = await services.spa.reserveSlot(bookingId, slot);
    if (!hold) {
      forgetOpenTimes(query);
      setDraft(session, { ...draft, guestId, date });
      return data({ formError: SLOT_TAKEN }, { status: 409, headers: await commit(services, session) });
    }
    held = true;
    keepHoldClaim(services.rateLimiter, claim, hold.expiresAt);
    // Choosing another slot releases the old hold.
    if (draft.hold && draft.hold.bookingId !== bookingId) await releaseDraftHold(services, draft);
    forgetOpenTimes(query);
    setDraft(session, { ...draft, guestId, date, hold: { bookingId, slot, reservationId: hold.reservationId, expiresAt: hold.expiresAt, claim }, payKey: undefined });
    return redirect(draft.details ? href("/appointment/payment") : href("/appointment/details"), { headers: await commit(services, session) });
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("reserve failed", { kind: error.kind, status: error.status });
    setDraft(session, { ...draft, guestId });
    return data({ formError: "Something went wrong, please try again" }, { status: 503, headers: await commit(services, session) });
  } finally {
    if (!held) dropHoldClaim(services.rateLimiter, claim);
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
  const formError = actionData?.formError ?? null;
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
        <FieldError id="date-error" message={dateProblem} />
      </Form>

      <nav aria-label="Time of day" className="view-toggle">
        {groups.map((g) => (
          <Link key={g.id} to={`?date=${date}&group=${g.id}`} aria-current={g.id === group ? "page" : undefined} preventScrollReset>
            {g.label} <span className="muted">({g.count})</span>
          </Link>
        ))}
      </nav>

      <h2>{dateLabel}</h2>
      <FormError message={formError} />
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
        <Form method="post" className="slots" aria-label="Open times">
          {slots.map((s) => (
            <button key={s.value} type="submit" name="slot" value={s.value} className={held === s.value ? "slot held" : "slot"} disabled={reserving !== null}>
              {reserving === s.value ? "Holding…" : s.label}
            </button>
          ))}
        </Form>
      )}
    </>
  );
}
