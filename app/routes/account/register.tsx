import { href, Link, redirect, useNavigation } from "react-router";
import { ButtonLinkForm } from "~/components/button-link";
import { ErrorMessage } from "~/components/error-message";
import { CheckboxField, Field, SchemaForm, SelectField, useSchemaForm } from "~/components/forms";
import { PhoneInput } from "~/components/phone-input";
import { SpamTrapInputs } from "~/components/spam-trap";
import { NewPasswordField } from "~/components/password-rules";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import { NO_LANGUAGE, RegisterSchema } from "~/domain/account-forms";
import { BirthDateAndGender } from "./birth-date-and-gender";
import { LanguageSelect } from "./language-select";
import { redirectTarget } from "#server/accounts/current-user.server";
import { enforceLimit } from "#server/limits/policy.server";
import { currentUser, requestSession, visitAttribution } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { formDataOf, formText, parseSubmission, refuseForm } from "#server/forms.server";
import { guardAction, orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/register";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Create your account | Glow Clinic" },
  {
    name: "description",
    content:
      "Create a Glow Clinic account to book faster, manage your visits and keep your memberships, packages and gift cards in one place.",
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await currentUser(context);
  const url = new URL(request.url);
  const redirectTo = redirectTarget(url.searchParams.get("redirectTo"));
  if (user) throw redirect(redirectTo);
  const [centers, spamTrap] = await Promise.all([
    orUnavailable(() => context.services.catalog.listCenters()),
    context.services.spamTrap.inputProps(),
  ]);
  return {
    redirectTo,
    spamTrap,
    // A code in the link, or the one the visit came with (a friend's landing page).
    referralCode: (url.searchParams.get("ref") ?? visitAttribution(context).ref ?? "").slice(0, 40),
    clinics: centers.map((c) => ({ id: c.id, name: c.name })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** A 429 thrown by a rate limit keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ errorHeaders, actionHeaders }) => errorHeaders ?? actionHeaders;

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const formData = await formDataOf(request);
  const submission = parseSubmission(formData, RegisterSchema);
  await enforceLimit(services, "registration", { ip: context.clientIp });
  // A filled honeypot is a robot: answer as if it worked, do nothing.
  if (await services.spamTrap.isSpam(formData)) return redirect(href("/"));
  if (submission.status !== "success") return refuseForm(submission);
  // A back end that fails from here on is answered by guardAction: a 503 that keeps what was typed.
  const center = await services.catalog.getCenter(submission.value.centerId);
  if (!center) return refuseForm(submission, { fieldErrors: { centerId: ["Please choose your home clinic"] } });
  const result = await services.accounts.register({
    ...submission.value,
    centerId: center.id,
    attribution: visitAttribution(context),
  });
  if (!result.ok && result.existingGuest) {
    // A client the clinics know: the code to set their password went to the email on file.
    requestSession(context).set("resetEmail", submission.value.email);
    return redirectWithToast(context, href("/reset-password"), {
      type: "success",
      title: "We found your record with us",
      description: ACCOUNT_MESSAGES.recordFound,
    });
  }
  if (!result.ok) {
    const conflict =
      result.message === ACCOUNT_MESSAGES.duplicate || result.message === ACCOUNT_MESSAGES.sameFirstNameDuplicate;
    const status = conflict ? 409 : 400;
    return refuseForm(
      submission,
      result.field === "form"
        ? { status, formErrors: [result.message] }
        : { status, fieldErrors: { [result.field]: [result.message] } },
    );
  }
  requestSession(context).set("userSessionId", result.value.token);
  return redirectWithToast(context, redirectTarget(formText(formData, "redirectTo")), {
    type: "success",
    title: "Welcome to Glow Clinic",
    description: "Your account is ready.",
  });
});

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const register = useSchemaForm(FORMS.RegisterSchema, {
    id: "register",
    lastResult: actionData?.result,
    defaultValue: { referralCode: loaderData.referralCode, gender: "-1", language: String(NO_LANGUAGE.value) },
  });
  const { fields } = register;
  const loginLink = `${href("/login")}?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`;
  const registered =
    fields.email.errors?.includes(ACCOUNT_MESSAGES.duplicate) ||
    fields.phone.errors?.includes(ACCOUNT_MESSAGES.sameFirstNameDuplicate);
  return (
    <section className="page narrow">
      <h1>Create your account</h1>
      <p className="muted">
        {ACCOUNT_MESSAGES.allRequired}, except your birth date, gender, language and a referral code.
      </p>
      {/* "Log in" sits in the registration form, and forms do not nest: its own form is here. */}
      {registered ? <ButtonLinkForm id="log-in-instead" to={loginLink} /> : null}
      <SchemaForm schemaForm={register} className="form">
        {registered ? (
          <p>
            <button type="submit" form="log-in-instead" className="button">
              Log in
            </button>
          </p>
        ) : null}
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        {/* Left empty by people; robots fill it in. */}
        <SpamTrapInputs trap={loaderData.spamTrap} />
        <Field meta={fields.firstName} label="First name" autoComplete="given-name" />
        <Field meta={fields.lastName} label="Last name" autoComplete="family-name" />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
        <Field meta={fields.phone} label="Mobile phone (123-456-7890)" type="tel" as={PhoneInput} />
        <SelectField meta={fields.centerId} label="Home clinic">
          <option value="">Choose a clinic</option>
          {loaderData.clinics.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <Field meta={fields.address} label="Address" autoComplete="address-line1" />
        <Field meta={fields.city} label="City" autoComplete="address-level2" />
        <Field meta={fields.zip} label="ZIP code" inputMode="numeric" autoComplete="postal-code" />
        <BirthDateAndGender birthDate={fields.birthDate} gender={fields.gender} />
        <LanguageSelect meta={fields.language} />
        {/* A new key after each failed submit empties the password: it is never kept. */}
        <NewPasswordField key={register.attempt} meta={fields.password} />
        <Field meta={fields.referralCode} label="Referral code (optional)" />
        <fieldset>
          <legend>Messages from us</legend>
          <p className="muted">Booking confirmations and one-time codes always come by email and text.</p>
          <CheckboxField meta={fields.marketingEmail}>Send me offers by email</CheckboxField>
          <CheckboxField meta={fields.marketingSms}>Send me offers by text</CheckboxField>
        </fieldset>
        <CheckboxField meta={fields.ageConfirmed}>
          I have reached the age of majority where I live and accept the <Link to={href("/terms")}>Terms of Use</Link>
        </CheckboxField>
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Create account
          </button>
        </p>
      </SchemaForm>
      <p>
        Have an account? <Link to={loginLink}>Sign in</Link>
      </p>
      {registered ? (
        <p>
          <Link to={href("/forgot-password")}>Forgot your password?</Link>
        </p>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
