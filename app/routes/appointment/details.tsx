import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { SLOT_TAKEN } from "~/domain/booking";
import { CORRECT_ERRORS, fieldErrors, GuestDetailsSchema } from "~/domain/guest";
import { Field, FormError } from "~/components/field";
import { PhoneInput } from "~/components/phone-input";
import { formatPhone } from "~/lib/phone";
import { requireDraft, setDraft } from "#server/booking/draft.server";
import { saveBookingDetails } from "#server/booking/guest-details.server";
import { adoptSignedInGuest } from "#server/booking/signed-in.server";
import { formDataOf } from "#server/forms.server";
import { currentUser } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { OUTAGE_MESSAGE } from "#server/unavailable.server";
import type { Route } from "./+types/details";

const FIELDS = ["firstName", "lastName", "email", "phone"] as const;

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
  const form = await formDataOf(request);
  const values = Object.fromEntries(FIELDS.map((f) => [f, typeof form.get(f) === "string" ? String(form.get(f)) : undefined]));
  const parsed = GuestDetailsSchema.safeParse(values);
  const kept = Object.fromEntries(FIELDS.map((f) => [f, (values[f] ?? "").slice(0, 254)]));
  if (!parsed.success) {
    return data({ formError: CORRECT_ERRORS, fieldErrors: fieldErrors(parsed.error), values: kept }, { status: 400 });
  }
  const outcome = await saveBookingDetails(context.services, draft, parsed.data);
  if (outcome.kind === "refused") return redirect(outcome.errorPage);
  if (outcome.kind === "unavailable") return data({ formError: OUTAGE_MESSAGE, fieldErrors: {}, values: kept }, { status: 503 });
  setDraft(session, outcome.draft);
  return redirect(href("/appointment/payment"));
}

export default function DetailsStep({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors: Record<string, string | undefined> = actionData?.fieldErrors ?? {};
  const values: Record<string, string | undefined> = actionData?.values ?? loaderData.details ?? {};
  const firstInvalid = FIELDS.find((f) => errors[f]);
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
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate className="form">
        <Field name="firstName" label="First name" autoComplete="given-name" maxLength={50} defaultValue={values.firstName ?? ""} error={errors.firstName} focus={firstInvalid === "firstName"} />
        <Field name="lastName" label="Last name" autoComplete="family-name" maxLength={50} defaultValue={values.lastName ?? ""} error={errors.lastName} focus={firstInvalid === "lastName"} />
        <Field name="email" label="Email" type="email" autoComplete="email" maxLength={254} defaultValue={values.email ?? ""} error={errors.email} focus={firstInvalid === "email"} />
        <Field name="phone" label="Mobile phone (123-456-7890)" as={PhoneInput} defaultValue={values.phone ?? ""} error={errors.phone} focus={firstInvalid === "phone"} />
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Continue to payment
          </button>
        </p>
      </Form>
    </>
  );
}
