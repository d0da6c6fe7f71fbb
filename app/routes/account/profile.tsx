import { data, Form, href, useNavigation } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { Field } from "~/components/field";
import { PhoneInput } from "~/components/phone-input";
import { NewPasswordField } from "~/components/password-rules";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import { NewPassword, readForm } from "~/domain/account-forms";
import { fieldErrors } from "~/domain/guest";
import { formatPhone, phoneDigits } from "~/lib/phone";
import { z } from "zod";
import { requireUser } from "#server/accounts/current-user.server";
import { formDataOf } from "#server/forms.server";
import { loadProfile, saveProfile } from "#server/accounts/profile.server";
import { OUTAGE_MESSAGE } from "#server/unavailable.server";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => [{ title: "Your profile | Glow Clinic" }, { name: "robots", content: "noindex" }];

const DetailsSchema = z.object({
  firstName: z.string().trim().min(1, "Please enter your first name").max(50),
  lastName: z.string().trim().min(1, "Please enter your last name").max(50),
  phone: z.string().refine((v) => /^[\d\s().-]*$/.test(v) && v.replace(/\D/g, "").length === 10, "Mobile number you entered is not valid. Please check the number and try again").transform(phoneDigits),
  address: z.string().trim().min(1, "Please enter your address").max(120),
  city: z.string().trim().min(1, "Please enter your city").max(80),
  zip: z.string().trim().regex(/^\d{5}$/, "Please enter a 5-digit ZIP code"),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const { details, consents } = await loadProfile(context.services, user);
  return { email: user.email, details: { ...details, phone: formatPhone(details.phone) }, consents };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  const { user, token } = await requireUser(request, context);
  const { values, problem } = readForm(await formDataOf(request), ["intent", "oldPassword", "password", "marketingEmail", "marketingSms", "firstName", "lastName", "phone", "address", "city", "zip"]);
  const fail = (section: string, errors: Record<string, string>, status = 400) =>
    data({ section, errors, saved: null as string | null, keep: null as Record<string, string> | null }, { status });
  // A back end that fails while saving: a 503 that keeps what was typed in the details form.
  const outage = () => data({ section: "form", errors: { form: OUTAGE_MESSAGE } as Record<string, string>, saved: null as string | null, keep: values.intent === "details" ? keptDetails(values) : null }, { status: 503 });
  if (problem) return fail("form", { form: problem });

  if (values.intent === "password") {
    const next = NewPassword.safeParse(values.password ?? "");
    if (!values.oldPassword) return fail("password", { oldPassword: ACCOUNT_MESSAGES.oldPassword });
    if (!next.success) return fail("password", { password: next.error.issues[0].message });
    const result = await services.accounts.changePassword(user, token, values.oldPassword, next.data);
    if (!result.ok) return fail("password", { [result.field]: result.message });
    return data({ section: "password", errors: {} as Record<string, string>, saved: "Your password has been changed. Other devices were signed out.", keep: null });
  }

  if (values.intent === "consents") {
    const saved = await saveProfile(services, user, { consents: { marketingEmail: values.marketingEmail === "on", marketingSms: values.marketingSms === "on" } });
    if (saved === "no-consents") return fail("consents", { form: ACCOUNT_MESSAGES.noConsent }, 404);
    if (saved === "unavailable") return outage();
    return data({ section: "consents", errors: {} as Record<string, string>, saved: "Your message choices are saved.", keep: null });
  }

  if (values.intent === "details") {
    const parsed = DetailsSchema.safeParse(values);
    if (!parsed.success) return data({ section: "details", errors: fieldErrors(parsed.error), saved: null, keep: keptDetails(values) }, { status: 400 });
    if ((await saveProfile(services, user, { details: parsed.data })) === "unavailable") return outage();
    return data({ section: "details", errors: {} as Record<string, string>, saved: "Your details are saved.", keep: null });
  }
  return fail("form", { form: "Please choose what to save." });
}

const DETAIL_FIELDS = ["firstName", "lastName", "phone", "address", "city", "zip"] as const;

function keptDetails(values: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(DETAIL_FIELDS.map((field) => [field, (values[field] ?? "").slice(0, 120)]));
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { email, consents } = loaderData;
  // What was typed comes back after a refused or failed save; otherwise what the back end holds.
  const details = { ...loaderData.details, ...(actionData?.keep ?? {}) };
  const navigation = useNavigation();
  const errorsFor = (section: string): Record<string, string | undefined> => (actionData?.section === section ? actionData.errors : {});
  const savedFor = (section: string) => (actionData?.section === section ? actionData.saved : null);
  const pw = errorsFor("password");
  const det = errorsFor("details");
  return (
    <section className="page narrow">
      <h1>Your profile</h1>
      <p>Signed in as {email}.</p>
      {actionData?.section === "form" ? (
        <p className="field-error" role="alert">
          {actionData.errors.form}
        </p>
      ) : null}

      <section aria-labelledby="details-heading">
        <h2 id="details-heading">Your details</h2>
        {savedFor("details") ? <p role="status">{savedFor("details")}</p> : null}
        <Form method="post" noValidate className="form">
          <Field name="firstName" label="First name" autoComplete="given-name" defaultValue={details.firstName} error={det.firstName} />
          <Field name="lastName" label="Last name" autoComplete="family-name" defaultValue={details.lastName} error={det.lastName} />
          <Field name="phone" label="Mobile phone" as={PhoneInput} defaultValue={details.phone} error={det.phone} />
          <Field name="address" label="Address" autoComplete="street-address" defaultValue={details.address} error={det.address} />
          <Field name="city" label="City" autoComplete="address-level2" defaultValue={details.city} error={det.city} />
          <Field name="zip" label="ZIP code" inputMode="numeric" maxLength={5} defaultValue={details.zip} error={det.zip} />
          <button type="submit" name="intent" value="details" disabled={navigation.state !== "idle"}>
            Save details
          </button>
        </Form>
      </section>

      <section aria-labelledby="consents-heading">
        <h2 id="consents-heading">Messages from us</h2>
        {savedFor("consents") ? <p role="status">{savedFor("consents")}</p> : null}
        {errorsFor("consents").form ? (
          <p className="field-error" role="alert">
            {errorsFor("consents").form}
          </p>
        ) : null}
        {consents ? (
          <Form method="post" className="form">
            <p className="muted">Booking confirmations and one-time codes always come by email and text.</p>
            <label className="check">
              <input type="checkbox" name="marketingEmail" defaultChecked={consents.marketingEmail} /> Send me offers by email
            </label>
            <label className="check">
              <input type="checkbox" name="marketingSms" defaultChecked={consents.marketingSms} /> Send me offers by text
            </label>
            <button type="submit" name="intent" value="consents" disabled={navigation.state !== "idle"}>
              Save message choices
            </button>
          </Form>
        ) : (
          <p className="field-error" role="alert">
            {ACCOUNT_MESSAGES.noConsent}
          </p>
        )}
      </section>

      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        {savedFor("password") ? <p role="status">{savedFor("password")}</p> : null}
        <Form method="post" noValidate className="form">
          <Field name="oldPassword" label="Current password" type="password" autoComplete="current-password" maxLength={128} error={pw.oldPassword} focus={Boolean(pw.oldPassword)} />
          <NewPasswordField label="New password" error={pw.password} />
          <button type="submit" name="intent" value="password" disabled={navigation.state !== "idle"}>
            Change password
          </button>
        </Form>
      </section>

      <Form method="post" action={href("/logout")}>
        <button type="submit" className="button-secondary">
          Sign out
        </button>
      </Form>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
