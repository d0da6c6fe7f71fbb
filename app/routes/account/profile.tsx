import { data, Form, href, useNavigation } from "react-router";
import { AccountNav } from "~/components/account-nav";
import { ErrorMessage } from "~/components/error-message";
import { CheckboxField, Field, SchemaForm, useSchemaForm } from "~/components/forms";
import { PhoneInput } from "~/components/phone-input";
import { NewPasswordField } from "~/components/password-rules";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import {
  ageInWholeYears,
  ChangePasswordSchema,
  ConsentsSchema,
  localToday,
  NO_LANGUAGE,
  OTHER_GENDER,
  ProfileDetailsSchema,
} from "~/domain/account-forms";
import { formatPhone } from "~/lib/phone";
import { requireUser } from "#server/accounts/current-user.server";
import { formDataOf, formText, parseSubmission, refuseForm } from "#server/forms.server";
import { loadProfile, saveProfile } from "#server/accounts/profile.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction, OUTAGE_MESSAGE } from "#server/unavailable.server";
import { BirthDateAndGender } from "./birth-date-and-gender";
import { LanguageSelect } from "./language-select";
import type { Route } from "./+types/profile";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Your profile | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const { details, consents } = await loadProfile(context.services, user);
  // The age where the profile is read, in whole years (spec section 5).
  const age = details.birthDate ? ageInWholeYears(details.birthDate, localToday()) : null;
  return { email: user.email, details: { ...details, phone: formatPhone(details.phone) }, age, consents };
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const { user, token } = await requireUser(request, context);
  const formData = await formDataOf(request);
  // Three forms on one page; the submit button's intent says which one was sent.
  const intent = formText(formData, "intent");
  const saved = (title: string) => redirectWithToast(context, href("/account/profile"), { type: "success", title });

  if (intent === "details") {
    const submission = parseSubmission(formData, ProfileDetailsSchema);
    if (submission.status !== "success") return refuseForm(submission, { intent });
    // A back end that fails while saving is answered by guardAction: a 503 that keeps what was typed.
    if ((await saveProfile(services, user, { details: submission.value })) === "no-guest")
      return refuseForm(submission, { intent, status: 503, formErrors: [OUTAGE_MESSAGE] });
    return saved("Your details are saved.");
  }

  if (intent === "consents") {
    const submission = parseSubmission(formData, ConsentsSchema);
    if (submission.status !== "success") return refuseForm(submission, { intent });
    const outcome = await saveProfile(services, user, { consents: submission.value });
    if (outcome === "no-consents")
      return refuseForm(submission, { intent, status: 404, formErrors: [ACCOUNT_MESSAGES.noConsent] });
    if (outcome === "no-guest") return refuseForm(submission, { intent, status: 503, formErrors: [OUTAGE_MESSAGE] });
    return saved("Your message choices are saved.");
  }

  if (intent === "password") {
    const submission = parseSubmission(formData, ChangePasswordSchema);
    if (submission.status !== "success") return refuseForm(submission, { intent });
    const { oldPassword, password } = submission.value;
    const result = await services.accounts.changePassword(user, token, oldPassword, password);
    if (!result.ok) return refuseForm(submission, { intent, fieldErrors: { [result.field]: [result.message] } });
    return saved("Your password has been changed. Other devices were signed out.");
  }

  throw data("Please choose what to save.", { status: 400 });
});

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { email, details, age, consents } = loaderData;
  const navigation = useNavigation();
  const answerFor = (intent: string) => (actionData?.intent === intent ? actionData.result : null);
  const detailsForm = useSchemaForm(FORMS.ProfileDetailsSchema, {
    id: "profile-details",
    lastResult: answerFor("details"),
    defaultValue: {
      ...details,
      birthDate: details.birthDate ?? "",
      gender: String(details.gender),
      language: String(details.language ?? NO_LANGUAGE.value),
    },
  });
  const consentsForm = useSchemaForm(FORMS.ConsentsSchema, {
    id: "profile-consents",
    lastResult: answerFor("consents"),
    defaultValue: {
      marketingEmail: consents?.marketingEmail ? "on" : null,
      marketingSms: consents?.marketingSms ? "on" : null,
    },
  });
  const passwordForm = useSchemaForm(FORMS.ChangePasswordSchema, {
    id: "profile-password",
    lastResult: answerFor("password"),
  });
  const busy = navigation.state !== "idle";
  return (
    <section className="page narrow">
      <AccountNav />
      <h1>Your profile</h1>
      <p>Signed in as {email}.</p>

      <section aria-labelledby="details-heading">
        <h2 id="details-heading">Your details</h2>
        <SchemaForm schemaForm={detailsForm} className="form">
          <Field meta={detailsForm.fields.firstName} label="First name" autoComplete="given-name" />
          <Field meta={detailsForm.fields.lastName} label="Last name" autoComplete="family-name" />
          <Field meta={detailsForm.fields.phone} label="Mobile phone" type="tel" as={PhoneInput} />
          <Field meta={detailsForm.fields.address} label="Address" autoComplete="address-line1" />
          <Field meta={detailsForm.fields.city} label="City" autoComplete="address-level2" />
          <Field meta={detailsForm.fields.zip} label="ZIP code" inputMode="numeric" autoComplete="postal-code" />
          <BirthDateAndGender
            birthDate={detailsForm.fields.birthDate}
            gender={detailsForm.fields.gender}
            otherGender={details.gender === OTHER_GENDER.value}
          />
          {age !== null ? <p className="muted">Age: {age}</p> : null}
          <LanguageSelect meta={detailsForm.fields.language} />
          <button type="submit" name="intent" value="details" disabled={busy}>
            Save details
          </button>
        </SchemaForm>
      </section>

      <section aria-labelledby="consents-heading">
        <h2 id="consents-heading">Messages from us</h2>
        {consents ? (
          <SchemaForm schemaForm={consentsForm} className="form">
            <p className="muted">Booking confirmations and one-time codes always come by email and text.</p>
            <CheckboxField meta={consentsForm.fields.marketingEmail}>Send me offers by email</CheckboxField>
            <CheckboxField meta={consentsForm.fields.marketingSms}>Send me offers by text</CheckboxField>
            <button type="submit" name="intent" value="consents" disabled={busy}>
              Save message choices
            </button>
          </SchemaForm>
        ) : (
          <p className="field-error">{ACCOUNT_MESSAGES.noConsent}</p>
        )}
      </section>

      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <SchemaForm schemaForm={passwordForm} className="form">
          {/* New keys after each failed submit empty both: a password is never kept. */}
          <Field
            key={passwordForm.attempt}
            meta={passwordForm.fields.oldPassword}
            label="Current password"
            type="password"
            autoComplete="current-password"
          />
          <NewPasswordField
            key={`new-${passwordForm.attempt}`}
            meta={passwordForm.fields.password}
            label="New password"
          />
          <button type="submit" name="intent" value="password" disabled={busy}>
            Change password
          </button>
        </SchemaForm>
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
