import { href, Link, redirect, useNavigation } from "react-router";
import { SLOT_TAKEN } from "~/domain/booking";
import { GuestDetailsSchema } from "~/domain/guest";
import { Field, SchemaForm, useSchemaForm } from "~/components/forms";
import { PhoneInput } from "~/components/phone-input";
import { formatPhone } from "~/lib/phone";
import { requireDraft, setDraft } from "#server/booking/draft.server";
import { saveBookingDetails } from "#server/booking/guest-details.server";
import { adoptSignedInGuest } from "#server/booking/signed-in.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { currentUser } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { OUTAGE_MESSAGE } from "#server/unavailable.server";
import type { Route } from "./+types/details";

export const meta: Route.MetaFunction = () => [{ title: "Your details | Glow Clinic" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { session, draft } = await requireDraft(context, "hold");
  const user = await currentUser(context);
  if (user) {
    // Signed in: no guest form; the booking goes on under the account's own guest.
    const adopted = await adoptSignedInGuest(context.services, draft, user);
    if (adopted === "taken") {
      setDraft(session, { ...draft, hold: undefined });
      throw redirectWithToast(context, `${href("/appointment/time")}?date=${draft.date ?? ""}`, { type: "error", title: SLOT_TAKEN });
    }
    setDraft(session, adopted);
    throw redirect(href("/appointment/payment"));
  }
  return { details: draft.details ? { ...draft.details, phone: formatPhone(draft.details.phone) } : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { session, draft } = await requireDraft(context, "hold");
  const submission = parseSubmission(await formDataOf(request), GuestDetailsSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const outcome = await saveBookingDetails(context.services, draft, submission.value);
  if (outcome.kind === "refused") return redirect(outcome.errorPage);
  if (outcome.kind === "unavailable") return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
  setDraft(session, outcome.draft);
  return redirect(href("/appointment/payment"));
}

export default function DetailsStep({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const details = useSchemaForm(GuestDetailsSchema, { id: "guest-details", lastResult: actionData?.result, defaultValue: loaderData.details ?? undefined });
  const { fields } = details;
  return (
    <>
      <h1>Your details</h1>
      <p className="sign-in-offer">
        Booked with us before?{" "}
        <Link to={`${href("/login")}?redirectTo=${encodeURIComponent("/appointment/details")}`}>Sign in</Link> or{" "}
        <Link to={`${href("/register")}?redirectTo=${encodeURIComponent("/appointment/details")}`}>create an account</Link>; your
        time stays held.
      </p>
      <p>Or book as a guest. We'll send your confirmation here; you can set a password later.</p>
      <SchemaForm schemaForm={details} className="form">
        <Field meta={fields.firstName} label="First name" autoComplete="given-name" />
        <Field meta={fields.lastName} label="Last name" autoComplete="family-name" />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
        <Field meta={fields.phone} label="Mobile phone (123-456-7890)" type="tel" as={PhoneInput} />
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Continue to payment
          </button>
        </p>
      </SchemaForm>
    </>
  );
}
