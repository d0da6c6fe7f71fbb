import { data, Form, href, Link, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import { useSchemaForm } from "~/components/forms";
import { SlotPicker, slotPickerView } from "~/components/slot-picker";
import { CHOOSE_TIME, HoldSlotSchema } from "~/domain/booking-forms";
import { normalizeBookingDate } from "~/domain/booking";
import { downtimeMessage, FIXER_NEEDS_FACIAL } from "~/domain/downtime";
import { busyHoldMessage, SLOT_TAKEN } from "~/domain/booking";
import { visitLengthLabel, visitMinutes } from "~/domain/visit-length";
import { waitlistDays } from "~/domain/waitlist";
import { clinicToday, formatClock, formatDay } from "~/lib/dates";
import { findService } from "#server/booking/catalog-view.server";
import { linkQuery, requireChosenServiceOrLink } from "#server/booking/booking-link.server";
import { knownGuest, setDraft } from "#server/booking/draft.server";
import { chooseTime, holdSlot } from "#server/booking/hold-slot.server";
import { draftSlotQuery, openTimes } from "#server/booking/holds.server";
import { bookingGuestId, downtimeFor } from "#server/booking/downtime.server";
import { dayStatus, requestedDay, slotPickerDay } from "#server/booking/time-step.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { currentUser } from "#server/request-context.server";
import { guardAction, OUTAGE_MESSAGE } from "#server/unavailable.server";
import type { Route } from "./+types/time";
import { FORMS } from "~/domain/form-contracts";

/** Two guests at one clinic, treatment and day see the same page: it is made once for them (decision 034). */
export const handle = { renderMemo: true };

export const meta: Route.MetaFunction = () => [
  { title: "Choose a date and time | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  // Opened by a booking link, the step shows the link's choices; its POST keeps them (decision 051).
  const { draft, center, catalog, service, link } = await requireChosenServiceOrLink(context, request, false);
  // The visit's length as the back end books it, add-ons included; the times offered fit it (decision 045).
  const addOns = draft.addOnIds.map((id) => findService(catalog, id)).filter((s) => s !== undefined);

  const guestId = bookingGuestId(draft, await currentUser(context));
  const day = await slotPickerDay(requestedDay(request, center.timeZone, draft.date), {
    downtime: () => downtimeFor(services, guestId, service.name),
    read: (date) => openTimes(services, draftSlotQuery(draft, { centerId: center.id, serviceId: service.id, date })),
    step: "time step",
  });
  const { date, group, times } = day;
  // A waitlist's offer opens the step on the time it offers, shown first while it is still open (decision 058).
  const openedAt = new URL(request.url).searchParams.get("opened");
  const openedSlot = openedAt && /^\d{2}:\d{2}:\d{2}$/.test(openedAt) ? `${date}T${openedAt}` : null;
  const opened =
    openedSlot && times.includes(openedSlot)
      ? { slot: openedSlot, time: `${formatClock(openedSlot.slice(11, 16))} on ${formatDay(date, "dddd, MMMM D")}` }
      : null;
  // A GET changes nothing: the day looked at is in the address (the strip's links and the jump
  // form), and the draft takes a day when a time on it is chosen.
  return data(
    {
      clinic: { id: center.id, name: center.name },
      service: service.displayName,
      addOns: addOns.map((a) => a.displayName),
      visitLength: visitLengthLabel(visitMinutes(service, addOns)),
      opened,
      // No time suits: the waitlist's form, for the day and part of day shown, when that day is one a
      // guest may wait for (the next two weeks); not for a booking link's visitor.
      waitlist:
        link || !waitlistDays(clinicToday(center.timeZone)).includes(date)
          ? null
          : `${href("/appointment/waitlist")}?date=${date}&group=${group}`,
      ...slotPickerView(day, {
        held: draft.hold?.slot ?? draft.slot ?? null,
        timeZone: center.timeZone,
        carry: linkQuery(link, ["date"]),
      }),
    },
    { status: dayStatus(day) },
  );
}

/** A 429 from the hold limits keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

/**
 * At the chain's call limit the time is not held yet (decision 036): the answer says when to try
 * again, names the time chosen, and offers it again in a form of its own (it works without JavaScript).
 */
function busyAnswer(submission: Parameters<typeof refuseForm>[0], slot: string, retryAfterSeconds: number) {
  const time = `${formatClock(slot.slice(11, 16))} on ${formatDay(slot.slice(0, 10), "dddd, MMMM D")}`;
  const refused = refuseForm(submission, {
    status: 503,
    formErrors: [busyHoldMessage(retryAfterSeconds, time)],
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
  return data({ result: refused.data.result, busy: { slot, time } }, refused.init ?? undefined);
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { session, draft, center, service, link } = await requireChosenServiceOrLink(context, request, true);
  // The link's choices are kept now, whatever comes of the time (a hold it made stale was let go).
  if (link) setDraft(session, draft);
  const submission = parseSubmission(await formDataOf(request), HoldSlotSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const slot = String(submission.value.slot);
  const date = normalizeBookingDate(slot.slice(0, 10), clinicToday(center.timeZone));
  if (!date || date !== slot.slice(0, 10)) return refuseForm(submission, { formErrors: [CHOOSE_TIME] });
  const user = await currentUser(context);
  if (!user && !knownGuest(draft)) {
    // Not known yet: the time is kept, and held once the visitor's details say whose it is.
    const chosen = await chooseTime(context.services, { draft, centerId: center.id, service, slot, date });
    if (chosen.kind === "busy") {
      setDraft(session, chosen.draft);
      return busyAnswer(submission, slot, chosen.retryAfterSeconds);
    }
    if (chosen.kind === "unavailable") return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
    if (chosen.kind === "taken") return refuseForm(submission, { status: 409, formErrors: [SLOT_TAKEN] });
    setDraft(session, chosen.draft);
    return redirect(href("/appointment/details"));
  }
  const outcome = await holdSlot(context.services, {
    draft,
    centerId: center.id,
    service,
    slot,
    date,
    timeZone: center.timeZone,
    clientIp: context.clientIp,
    user,
  });
  setDraft(session, outcome.draft);
  switch (outcome.kind) {
    case "held":
      return redirect(outcome.draft.details ? href("/appointment/payment") : href("/appointment/details"));
    case "too-many":
      return refuseForm(submission, {
        status: 429,
        formErrors: [outcome.message],
        headers: { "Retry-After": String(outcome.retryAfterSeconds) },
      });
    case "downtime":
      // The strip offers only days the rule leaves; the back end's history may have changed since.
      return refuseForm(submission, { formErrors: [downtimeMessage(outcome.refusal)] });
    case "fixer-alone":
      return refuseForm(submission, { formErrors: [FIXER_NEEDS_FACIAL] });
    case "taken":
      return refuseForm(submission, { status: 409, formErrors: [SLOT_TAKEN] });
    case "unavailable":
      return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
    case "busy":
      return busyAnswer(submission, slot, outcome.retryAfterSeconds);
  }
});

/** After "That time was just taken" (409) the list must be read again to drop the taken time. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

export default function TimeStep({ loaderData, actionData }: Route.ComponentProps) {
  const { clinic, service, addOns, visitLength, opened, waitlist } = loaderData;
  const navigation = useNavigation();
  const reserving = navigation.state === "submitting" ? String(navigation.formData?.get("slot") ?? "") : null;
  const hold = useSchemaForm(FORMS.HoldSlotSchema, { id: "hold-slot", lastResult: actionData?.result });
  const busy = actionData && "busy" in actionData ? actionData.busy : null;
  return (
    <>
      <h1>Choose a date and time</h1>
      <p>
        {service} at {clinic.name}.{" "}
        <Link to={`${href("/appointment/service")}?id=${encodeURIComponent(clinic.id)}`}>Change treatment</Link>
      </p>
      <p>
        {addOns.length > 0 ? `With ${addOns.join(" and ")}, your` : "Your"} visit lasts <strong>{visitLength}</strong>:
        every time shown leaves room for all of it.
      </p>
      {busy ? (
        // The time chosen when the booking system was too busy to hold it, offered again as it was.
        <Form method="post" className="notice">
          <p>Your choice: {busy.time}.</p>
          <button type="submit" name="slot" value={busy.slot} disabled={reserving !== null}>
            Try {busy.time} again
          </button>
        </Form>
      ) : null}
      {opened && !busy ? (
        // The time a waitlist's message offered, still open: one press holds it, as in the list below.
        <Form method="post" className="notice" aria-labelledby="opened-time">
          <p id="opened-time">
            <strong>The time you were told about is still open: {opened.time}.</strong> The first guest to book it gets
            it.
          </p>
          <button type="submit" name="slot" value={opened.slot} disabled={reserving !== null}>
            Book {opened.time}
          </button>
        </Form>
      ) : null}
      <SlotPicker
        view={loaderData}
        hold={hold}
        reserving={reserving}
        waitlist={waitlist ?? undefined}
        startAtFirstTime={!busy && !opened}
      />
    </>
  );
}
