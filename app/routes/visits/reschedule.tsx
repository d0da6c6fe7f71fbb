import { data, Form, Link, redirect, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import { SchemaForm, useSchemaForm } from "~/components/forms";
import { HoldBanner, holdViewOf } from "~/components/hold-banner";
import { SlotPicker, slotPickerView } from "~/components/slot-picker";
import { VisitUnchangeable } from "~/components/visit-actions";
import { VisitError } from "~/components/visit-error";
import { VisitSummary } from "~/components/visit-summary";
import { APPOINTMENT_STATUS, LATE_CHANGE_FEE_CENTS, LATE_CHANGE_HOURS } from "~/domain/appointments";
import { HoldSlotSchema, PAGE_OUT_OF_DATE } from "~/domain/booking-forms";
import { SLOT_TAKEN } from "~/domain/booking";
import { ConfirmNewTimeSchema } from "~/domain/reschedule-forms";
import { formatSlot } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { requireVisitAccess } from "#server/appointments/access.server";
import { LINK_PAGE_HEADERS } from "#server/link-pages.server";
import {
  confirmNewTime,
  getRescheduleHold,
  holdNewTime,
  reschedulePolicyOf,
  rescheduleTimes,
  setRescheduleHold,
} from "#server/appointments/reschedule.server";
import { toVisitView } from "#server/appointments/visits.server";
import { dayStatus, requestedDay, slotPickerDay, type SlotPickerDay } from "#server/booking/time-step.server";
import { formDataOf, formText, parseSubmission, refuseForm } from "#server/forms.server";
import { requestSession } from "#server/request-context.server";
import { siteOrigin } from "#server/site.server";
import { flashToast, redirectWithToast } from "#server/toast.server";
import { guardAction, OUTAGE_MESSAGE, unlessUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/reschedule";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Reschedule your appointment | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => LINK_PAGE_HEADERS;

/** The back end refused a reschedule booking for the visit: it can't be moved (any more). */
class NotMovable extends Error {}

const NOT_MOVABLE = {
  cancelled: "This appointment is cancelled, so it can't be moved. You can book a new one.",
  over: "This appointment has already started or is over, so it can't be moved.",
} as const;

/** What a window is told when another one changed the visit first. */
function changedElsewhere(visit: { start: string; status: number }): string {
  if (visit.status === APPOINTMENT_STATUS.CANCELLED)
    return "This appointment was cancelled in another window, so it was not moved.";
  return `This appointment was changed in another window: it is now on ${formatSlot(visit.start)}. It was not moved again; choose a new time below if you still want to change it.`;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { services } = context;
  const access = await requireVisitAccess(request, context, params);
  const { visit } = access;
  const view = toVisitView(visit);
  const policy = reschedulePolicyOf(visit);
  if (policy.kind === "not-movable") {
    return data({ visit: view, home: access.paths.home, policy, picker: null, hold: null }, { status: 409 });
  }
  const session = requestSession(context);
  let hold = getRescheduleHold(session, visit.id);
  if (hold && Date.parse(hold.expiresAt) <= Date.now()) {
    setRescheduleHold(session, null);
    flashToast(context, { type: "error", title: "Reserved slot has expired. Please select the slot again." });
    hold = null;
  }
  const timeZone = visit.center!.timeZone;
  // The visit's own day first, unless it has no other time left.
  const read = async (d: string) => {
    const listed = await rescheduleTimes(services, access, d);
    if (listed === "not-movable") throw new NotMovable();
    return listed;
  };
  let day: SlotPickerDay;
  try {
    day = await slotPickerDay(requestedDay(request, timeZone, hold?.slot.slice(0, 10), visit.start.slice(0, 10)), {
      read,
      step: "reschedule",
    });
  } catch (error) {
    if (!(error instanceof NotMovable)) throw error;
    return data(
      {
        visit: view,
        home: access.paths.home,
        policy: { kind: "not-movable", why: "over" } as const,
        picker: null,
        hold: null,
      },
      { status: 409 },
    );
  }
  return data(
    {
      visit: view,
      home: access.paths.home,
      policy,
      picker: slotPickerView(day, { held: hold?.slot ?? null, timeZone }),
      hold: hold
        ? { ...holdViewOf(hold.slot, hold.expiresAt, timeZone), slot: hold.slot, label: formatSlot(hold.slot) }
        : null,
    },
    { status: dayStatus(day) },
  );
}

export const action = guardAction(async ({ request, params, context }: Route.ActionArgs) => {
  const access = await requireVisitAccess(request, context, params);
  const session = requestSession(context);
  const formData = await formDataOf(request);
  const intent = formText(formData, "intent");
  const here = new URL(request.url).pathname;

  if (intent === "keep") {
    setRescheduleHold(session, null);
    return redirectWithToast(context, access.paths.home, { type: "info", title: "Your appointment is unchanged." });
  }

  if (intent === "confirm") {
    const submission = parseSubmission(formData, ConfirmNewTimeSchema);
    if (submission.status !== "success") return refuseForm(submission, { intent });
    const hold = getRescheduleHold(session, access.visit.id);
    if (hold && hold.slot !== submission.value.heldSlot)
      return refuseForm(submission, { intent, status: 409, formErrors: [PAGE_OUT_OF_DATE] });
    const outcome = await unlessUnavailable(
      () => confirmNewTime(context.services, access, hold, siteOrigin(request, context)),
      () => null,
    );
    if (!outcome) return refuseForm(submission, { intent, status: 503, formErrors: [OUTAGE_MESSAGE] });
    switch (outcome.kind) {
      case "moved":
        setRescheduleHold(session, null);
        return redirectWithToast(context, access.paths.home, {
          type: "success",
          title: `Your appointment is moved to ${formatSlot(outcome.start)}.`,
          description: "We've sent you the new time.",
        });
      case "changed-elsewhere":
        // Told the truth: the page is drawn again from the visit as it is now, with why.
        setRescheduleHold(session, null);
        return data({ intent: "changed-elsewhere" as const, notice: changedElsewhere(outcome.visit) }, { status: 409 });
      case "expired":
        setRescheduleHold(session, null);
        return redirectWithToast(context, `${here}?date=${submission.value.heldSlot.slice(0, 10)}`, {
          type: "error",
          title: outcome.message,
        });
      case "no-hold":
        // Confirmed already by an earlier submit, or never held: the visit is as the page now shows.
        return redirect(here);
    }
  }

  const submission = parseSubmission(formData, HoldSlotSchema);
  if (submission.status !== "success") return refuseForm(submission, { intent: "hold" });
  const slot = String(submission.value.slot);
  const outcome = await unlessUnavailable(
    () => holdNewTime(context.services, access, slot),
    () => null,
  );
  if (!outcome) return refuseForm(submission, { intent: "hold", status: 503, formErrors: [OUTAGE_MESSAGE] });
  switch (outcome.kind) {
    case "held":
      setRescheduleHold(session, outcome.hold);
      return redirect(`${here}?date=${slot.slice(0, 10)}`);
    case "taken":
      return refuseForm(submission, { intent: "hold", status: 409, formErrors: [SLOT_TAKEN] });
    case "not-movable":
      return refuseForm(submission, { intent: "hold", status: 409, formErrors: [NOT_MOVABLE.over] });
  }
});

/** After "That time was just taken" (409) the list must be read again to drop the taken time. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

export default function Reschedule({ loaderData, actionData }: Route.ComponentProps) {
  const { visit, home, policy, picker, hold } = loaderData;
  const navigation = useNavigation();
  const reserving =
    navigation.state === "submitting" && navigation.formData?.get("slot")
      ? String(navigation.formData.get("slot"))
      : null;
  const holdForm = useSchemaForm(FORMS.HoldSlotSchema, {
    id: "reschedule-slot",
    lastResult: actionData?.intent === "hold" ? actionData.result : null,
  });
  const confirmForm = useSchemaForm(FORMS.ConfirmNewTimeSchema, {
    id: "reschedule-confirm",
    lastResult: actionData?.intent === "confirm" ? actionData.result : null,
  });
  return (
    <section className="page narrow">
      <h1>Reschedule your appointment</h1>
      {actionData?.intent === "changed-elsewhere" ? (
        <p className="notice" role="alert">
          {actionData.notice}
        </p>
      ) : null}
      <div className="visit-card">
        <p className="muted">Your appointment now:</p>
        <VisitSummary visit={visit} />
      </div>
      {policy.kind === "not-movable" ? (
        <VisitUnchangeable message={NOT_MOVABLE[policy.why]} home={home} />
      ) : (
        <>
          <p className={policy.lateFee ? "notice fee-notice" : undefined} role={policy.lateFee ? "alert" : undefined}>
            {policy.lateFee
              ? `Your appointment is less than ${LATE_CHANGE_HOURS} hours away: moving it now costs the ${formatMoney(LATE_CHANGE_FEE_CENTS)} late-change fee.`
              : `Moving it is free until ${LATE_CHANGE_HOURS} hours before your appointment; after that it costs ${formatMoney(LATE_CHANGE_FEE_CENTS)}.`}{" "}
            Your current time stays booked until you confirm the new one.
          </p>
          {hold ? (
            <section aria-labelledby="new-time" className="visit-card">
              <HoldBanner hold={hold} />
              <h2 id="new-time">New time: {hold.label}</h2>
              <SchemaForm schemaForm={confirmForm} method="post" className="actions">
                <input type="hidden" name="heldSlot" value={hold.slot} />
                <button type="submit" name="intent" value="confirm" disabled={navigation.state === "submitting"}>
                  {policy.lateFee
                    ? `Confirm new time and pay the ${formatMoney(LATE_CHANGE_FEE_CENTS)} fee`
                    : "Confirm new time"}
                </button>
              </SchemaForm>
              <Form method="post">
                <button type="submit" name="intent" value="keep" className="link-button">
                  Keep my current time
                </button>
              </Form>
            </section>
          ) : null}
          {picker ? (
            <>
              <h2>{hold ? "Or choose another time" : "Choose a new date and time"}</h2>
              <SlotPicker view={picker} hold={holdForm} reserving={reserving} />
            </>
          ) : null}
          {!hold ? (
            <p>
              <Link to={home}>Keep my current time</Link>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <VisitError error={error} />;
}
