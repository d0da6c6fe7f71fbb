import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { SLOT_TAKEN } from "~/domain/booking";
import { BASE_TAGS, CORRECT_ERRORS, fieldErrors, GuestDetailsSchema } from "~/domain/guest";
import { Field, FormError } from "~/components/field";
import { PhoneInput } from "~/components/phone-input";
import { formatPhone } from "~/lib/phone";
import { commit, requireDraft, setDraft } from "#server/booking/draft.server";
import { adoptSignedInGuest } from "#server/booking/signed-in.server";
import { logger } from "#server/observability/logger.server";
import { isSpaError } from "#server/spa/errors.server";
import { formDataOf } from "#server/forms.server";
import type { Route } from "./+types/details";

const FIELDS = ["firstName", "lastName", "email", "phone"] as const;

export const meta: Route.MetaFunction = () => [{ title: "Your details | Glow Clinic" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const { session, draft } = await requireDraft(request, services, "hold");
  const user = await services.accounts.currentUser(session.get("userSessionId"));
  if (user) {
    // Signed in: no guest form; the booking goes on under the account's own guest.
    const adopted = await adoptSignedInGuest(services, draft, user);
    if (adopted === "taken") {
      setDraft(session, { ...draft, hold: undefined });
      session.flash("toast", { id: crypto.randomUUID(), type: "error", title: SLOT_TAKEN });
      throw redirect(`${href("/appointment/time")}?date=${draft.date ?? ""}`, { headers: await commit(services, session) });
    }
    setDraft(session, adopted);
    throw redirect(href("/appointment/payment"), { headers: await commit(services, session) });
  }
  return { details: draft.details ? { ...draft.details, phone: formatPhone(draft.details.phone) } : null };
}

/** Zenoti's codes for a duplicate email, an invalid email and an invalid mobile number. */
const ERROR_PAGE_FOR_CODE: Record<string, string> = { "442": "duplicate-email", "443": "invalid-email", "482": "invalid-mobile" };

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  const { session, draft } = await requireDraft(request, services, "hold");
  const form = await formDataOf(request);
  const values = Object.fromEntries(FIELDS.map((f) => [f, typeof form.get(f) === "string" ? String(form.get(f)) : undefined]));
  const parsed = GuestDetailsSchema.safeParse(values);
  const kept = Object.fromEntries(FIELDS.map((f) => [f, (values[f] ?? "").slice(0, 254)]));
  if (!parsed.success) {
    return data({ formError: CORRECT_ERRORS, fieldErrors: fieldErrors(parsed.error), values: kept }, { status: 400 });
  }
  const details = parsed.data;
  try {
    const existing = await services.spa.findGuestsByEmail(details.email);
    if (existing.some((g) => g.id !== draft.guestId)) {
      return redirect(`${href("/error")}?error=duplicate-email&redirect=samesite`);
    }
    await services.spa.updateGuestProfile(draft.guestId!, {
      firstName: details.firstName,
      lastName: details.lastName,
      email: details.email,
      phone: details.phone,
      addTags: [...BASE_TAGS],
    });
  } catch (error) {
    if (!isSpaError(error)) throw error;
    const page = ERROR_PAGE_FOR_CODE[String(error.code)] ?? (/duplicate|already exists/i.test(error.message) ? "duplicate-email" : null);
    if (page) return redirect(`${href("/error")}?error=${page}&redirect=${page === "duplicate-email" ? "samesite" : "webstore"}`);
    logger.warn("guest update failed", { kind: error.kind, status: error.status });
    return data({ formError: "Something went wrong, please try again", fieldErrors: {}, values: kept }, { status: 503 });
  }
  if (!(await services.store.getGuestDetails(details.email))) {
    // A password is set later with a one-time code (the guest flow).
    await services.store.createGuestDetails({ email: details.email, guest_id: draft.guestId!, is_password_set: false, is_return_user: false });
  }
  setDraft(session, { ...draft, details });
  return redirect(href("/appointment/payment"), { headers: await commit(services, session) });
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
