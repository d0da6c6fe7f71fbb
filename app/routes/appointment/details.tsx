import { href, Link, redirect, useNavigation } from "react-router";
import { busyHoldMessage, SLOT_TAKEN } from "~/domain/booking";
import { GuestDetailsSchema, RECOVERY_CONSENT_LABEL } from "~/domain/guest";
import { formatSlot } from "~/lib/dates";
import { enforceLimit } from "#server/limits/policy.server";
import { admitBooking, bookingCallPriority } from "#server/booking/call-priority.server";
import { requireChosenService } from "#server/booking/catalog-view.server";
import { holdSlot } from "#server/booking/hold-slot.server";
import { afterNotHeld, notHeldMessage } from "#server/booking/not-held.server";
import { CheckboxField, Field, SchemaForm, useSchemaForm } from "~/components/forms";
import { PhoneInput } from "~/components/phone-input";
import { useStartHere } from "~/components/route-focus";
import { formatPhone } from "~/lib/phone";
import { requireDraft, setDraft } from "#server/booking/draft.server";
import { submitBookingDetails } from "#server/booking/guest-details.server";
import { noteRecoveryConsent, recoveryConsentGiven } from "#server/booking/recovery.server";
import { siteOrigin } from "#server/site.server";
import { adoptSignedInGuest } from "#server/booking/signed-in.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { currentUser, visitAttribution } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction, OUTAGE_MESSAGE } from "#server/unavailable.server";
import type { Route } from "./+types/details";
import { FORMS } from "~/domain/form-contracts";

/** The step's calls are the booking's: its guest searches and hold, or a held booking's update (decision 036). */
export const middleware: Route.MiddlewareFunction[] = [bookingCallPriority];

export const meta: Route.MetaFunction = () => [
  { title: "Your details | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const { session, draft } = await requireDraft(context, "time");
  const user = await currentUser(context);
  if (user && !draft.hold) {
    // Signed in after choosing a time: it is held now, under the account's own guest.
    const { service, center } = await requireChosenService(context);
    const slot = draft.slot!;
    const outcome = await holdSlot(context.services, {
      draft,
      centerId: center.id,
      service,
      slot,
      date: slot.slice(0, 10),
      timeZone: center.timeZone,
      clientIp: context.clientIp,
      user,
    });
    setDraft(session, { ...outcome.draft, ...(outcome.kind === "held" ? {} : { slot: undefined }) });
    if (outcome.kind === "held") throw redirect(href("/appointment/payment"));
    throw redirectWithToast(context, `${href("/appointment/time")}?date=${draft.date ?? ""}`, {
      type: "error",
      title: notHeldMessage(outcome),
    });
  }
  if (user) {
    // Signed in: no guest form; the booking goes on under the account's own guest.
    const adopted = await adoptSignedInGuest(context.services, draft, user);
    if (adopted === "taken") {
      setDraft(session, { ...draft, hold: undefined });
      throw redirectWithToast(context, `${href("/appointment/time")}?date=${draft.date ?? ""}`, {
        type: "error",
        title: SLOT_TAKEN,
      });
    }
    setDraft(session, adopted);
    throw redirect(href("/appointment/payment"));
  }
  const time = draft.hold?.slot ?? draft.slot!;
  const details = draft.details;
  // The box is ticked again only when this booking's message is still to be sent (decision 059).
  const recoveryAsked = await recoveryConsentGiven(context.services, draft);
  return {
    chosen: formatSlot(time),
    held: Boolean(draft.hold),
    details: details
      ? {
          ...details,
          phone: formatPhone(details.phone),
          recoveryConsent: recoveryAsked ? "on" : undefined,
        }
      : null,
  };
}

/** A 429 from the hold limits keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  await requireDraft(context, "time");
  const { session, draft, service, center } = await requireChosenService(context);
  const submission = parseSubmission(await formDataOf(request), GuestDetailsSchema);
  if (submission.status !== "success") return refuseForm(submission);
  // Each submission looks the visitor up in the back end (and may send a code): a generous cap per address.
  await enforceLimit(context.services, "bookingDetails", { ip: context.clientIp });
  if (!draft.hold && draft.id) {
    // Let in again if its turn lapsed while the details were typed: told to wait before any search or hold, what was typed kept.
    const admission = await admitBooking(context.services, draft.id);
    const wait = admission.ok ? 0 : admission.retryAfterSeconds;
    if (wait)
      return refuseForm(submission, {
        status: 503,
        formErrors: [busyHoldMessage(wait)],
        headers: { "Retry-After": String(wait) },
      });
  }
  const { recoveryConsent, ...details } = submission.value;
  const outcome = await submitBookingDetails(context.services, {
    draft,
    details,
    service,
    timeZone: center.timeZone,
    clientIp: context.clientIp,
    attribution: visitAttribution(context),
  });
  if (outcome.kind === "saved" || outcome.kind === "verify") {
    // The box, ticked or not, is the guest's answer for this booking (decision 059).
    await noteRecoveryConsent(context.services, {
      draft: outcome.draft,
      consent: recoveryConsent,
      email: details.email,
      timeZone: center.timeZone,
      origin: siteOrigin(request, context),
    });
    context.services.analytics.record({
      name: "details_entered",
      properties: {
        centerId: center.id,
        kind: outcome.kind === "verify" ? "existing_client" : "guest",
        email: submission.value.email,
        phone: submission.value.phone,
      },
    });
  }
  switch (outcome.kind) {
    case "refused":
      return redirect(outcome.errorPage);
    case "unavailable":
      return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
    case "verify":
      setDraft(session, outcome.draft);
      return redirect(href("/appointment/verify"));
    case "saved":
      setDraft(session, outcome.draft);
      if (outcome.notice)
        return redirectWithToast(context, href("/appointment/payment"), { type: "info", title: outcome.notice });
      return redirect(href("/appointment/payment"));
    case "not-held":
      return afterNotHeld(context, session, submission, outcome.outcome);
  }
});

export default function DetailsStep({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const details = useSchemaForm(FORMS.GuestDetailsSchema, {
    id: "guest-details",
    lastResult: actionData?.result,
    defaultValue: loaderData.details ?? undefined,
  });
  const { fields } = details;
  // The step starts at its first field; after a refused submit, at the first message instead.
  const startHere = useStartHere(Object.keys(details.form.allErrors).length === 0);
  return (
    <>
      <h1>Your details</h1>
      {/* The fields come first, so the keyboard reaches them from the heading; the other ways
          (another time, signing in) follow the form, still on the first screen (decision 062). */}
      <p className="chosen-time">
        Your time: <strong>{loaderData.chosen}</strong>.
        {loaderData.held ? null : " We hold it for you when you continue."}
      </p>
      <p>Book as a guest: we'll send your confirmation here; you can set a password later.</p>
      <SchemaForm schemaForm={details} className="form">
        <Field meta={fields.firstName} label="First name" autoComplete="given-name" {...startHere} />
        <Field meta={fields.lastName} label="Last name" autoComplete="family-name" />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
        <Field meta={fields.phone} label="Mobile phone (123-456-7890)" type="tel" as={PhoneInput} />
        <CheckboxField meta={fields.recoveryConsent}>{RECOVERY_CONSENT_LABEL}</CheckboxField>
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Continue to payment
          </button>
        </p>
      </SchemaForm>
      <p>
        Not the time you want? <Link to={href("/appointment/time")}>Change time</Link>
      </p>
      <p className="sign-in-offer">
        Booked with us before?{" "}
        <Link to={`${href("/login")}?redirectTo=${encodeURIComponent("/appointment/details")}`}>Sign in</Link> or{" "}
        <Link to={`${href("/register")}?redirectTo=${encodeURIComponent("/appointment/details")}`}>
          create an account
        </Link>
        ; your choice is kept.
      </p>
    </>
  );
}
