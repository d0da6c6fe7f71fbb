import { useMemo } from "react";
import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { Field, FormError, FieldError } from "~/components/field";
import { PhoneInput } from "~/components/phone-input";
import { NewPasswordField } from "~/components/password-rules";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import { readForm, RegisterSchema } from "~/domain/account-forms";
import { fieldErrors } from "~/domain/guest";
import { enforceRateLimit, redirectTarget } from "#server/accounts/current-user.server";
import { currentUser, requestSession } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { formDataOf } from "#server/forms.server";
import { orUnavailable, OUTAGE_MESSAGE, unlessUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/register";

const FIELDS = ["firstName", "lastName", "email", "phone", "centerId", "address", "city", "zip", "password", "referralCode", "marketingEmail", "marketingSms", "ageConfirmed", "website", "redirectTo"] as const;

export const meta: Route.MetaFunction = () => [{ title: "Create your account | Glow Clinic" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await currentUser(context);
  const url = new URL(request.url);
  const redirectTo = redirectTarget(url.searchParams.get("redirectTo"));
  if (user) throw redirect(redirectTo);
  const centers = await orUnavailable(() => context.services.catalog.listCenters());
  return {
    redirectTo,
    referralCode: (url.searchParams.get("ref") ?? "").slice(0, 40),
    clinics: centers.map((c) => ({ id: c.id, name: c.name })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** A 429 thrown by a rate limit keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ errorHeaders, actionHeaders }) => errorHeaders ?? actionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  const { values, problem } = readForm(await formDataOf(request), FIELDS);
  // Everything typed comes back except the password.
  const keep = Object.fromEntries(FIELDS.filter((f) => f !== "password").map((f) => [f, (values[f] ?? "").slice(0, 254)]));
  if (problem) return data({ formError: problem, fieldErrors: {} as Record<string, string>, keep }, { status: 400 });
  enforceRateLimit(services, `register-ip:${context.clientIp}`, 10, 10 * 60_000);
  // A filled honeypot is a robot: answer as if it worked, do nothing.
  if (values.website) return redirect(href("/"));
  const parsed = RegisterSchema.safeParse(values);
  if (!parsed.success) {
    return data({ formError: ACCOUNT_MESSAGES.correctErrors, fieldErrors: fieldErrors(parsed.error), keep }, { status: 400 });
  }
  const outage = () => data({ formError: OUTAGE_MESSAGE, fieldErrors: {} as Record<string, string>, keep }, { status: 503 });
  const center = await unlessUnavailable(() => services.catalog.getCenter(parsed.data.centerId), () => undefined);
  if (center === undefined) return outage();
  if (!center) return data({ formError: ACCOUNT_MESSAGES.correctErrors, fieldErrors: { centerId: "Please choose your home clinic" } as Record<string, string>, keep }, { status: 400 });
  const result = await unlessUnavailable(() => services.accounts.register({ ...parsed.data, centerId: center.id }), () => null);
  if (!result) return outage();
  if (!result.ok) {
    const status = result.message === ACCOUNT_MESSAGES.duplicate ? 409 : 400;
    return data({ formError: result.field === "form" ? result.message : null, fieldErrors: { [result.field]: result.message } as Record<string, string>, keep }, { status });
  }
  requestSession(context).set("userSessionId", result.value.token);
  return redirectWithToast(context, redirectTarget(values.redirectTo ?? null), { type: "success", title: "Welcome to Glow Clinic", description: "Your account is ready." });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const errors: Record<string, string | undefined> = actionData?.fieldErrors ?? {};
  const keep: Record<string, string | undefined> = actionData?.keep ?? { referralCode: loaderData.referralCode };
  const first = FIELDS.find((f) => errors[f]);
  const navigation = useNavigation();
  const passwordKey = useMemo(() => Math.random().toString(36), [actionData]);
  return (
    <section className="page narrow">
      <h1>Create your account</h1>
      <p className="muted">{ACCOUNT_MESSAGES.allRequired}, except the referral code.</p>
      <FormError message={actionData?.formError} />
      {errors.email === ACCOUNT_MESSAGES.duplicate ? (
        <p>
          <Link className="button" to={`${href("/login")}?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}>
            Log in
          </Link>
        </p>
      ) : null}
      <Form method="post" noValidate className="form">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        {/* Left empty by people; robots fill it in. */}
        <div className="honeypot" aria-hidden="true">
          <label htmlFor="website">Website</label>
          <input id="website" name="website" tabIndex={-1} autoComplete="off" />
        </div>
        <Field name="firstName" label="First name" autoComplete="given-name" maxLength={50} defaultValue={keep.firstName} error={errors.firstName} focus={first === "firstName"} />
        <Field name="lastName" label="Last name" autoComplete="family-name" maxLength={50} defaultValue={keep.lastName} error={errors.lastName} focus={first === "lastName"} />
        <Field name="email" label="Email" type="email" autoComplete="email" maxLength={254} defaultValue={keep.email} error={errors.email} focus={first === "email"} />
        <Field name="phone" label="Mobile phone (123-456-7890)" as={PhoneInput} defaultValue={keep.phone} error={errors.phone} focus={first === "phone"} />
        <div className="field">
          <label htmlFor="centerId">Home clinic</label>
          <select id="centerId" name="centerId" defaultValue={keep.centerId ?? ""} aria-invalid={errors.centerId ? true : undefined} aria-describedby={errors.centerId ? "centerId-error" : undefined} autoFocus={first === "centerId"}>
            <option value="">Choose a clinic</option>
            {loaderData.clinics.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <FieldError id="centerId-error" message={errors.centerId} />
        </div>
        <Field name="address" label="Address" autoComplete="street-address" maxLength={120} defaultValue={keep.address} error={errors.address} focus={first === "address"} />
        <Field name="city" label="City" autoComplete="address-level2" maxLength={80} defaultValue={keep.city} error={errors.city} focus={first === "city"} />
        <Field name="zip" label="ZIP code" inputMode="numeric" autoComplete="postal-code" maxLength={5} defaultValue={keep.zip} error={errors.zip} focus={first === "zip"} />
        {/* A new key after each answer empties the password: it is never kept. */}
        <NewPasswordField key={passwordKey} error={errors.password} />
        <Field name="referralCode" label="Referral code (optional)" maxLength={40} defaultValue={keep.referralCode} error={errors.referralCode} />
        <fieldset>
          <legend>Messages from us</legend>
          <p className="muted">Booking confirmations and one-time codes always come by email and text.</p>
          <label className="check">
            <input type="checkbox" name="marketingEmail" defaultChecked={keep.marketingEmail === "on"} /> Send me offers by email
          </label>
          <label className="check">
            <input type="checkbox" name="marketingSms" defaultChecked={keep.marketingSms === "on"} /> Send me offers by text
          </label>
        </fieldset>
        <label className="check">
          <input type="checkbox" name="ageConfirmed" aria-invalid={errors.ageConfirmed ? true : undefined} aria-describedby={errors.ageConfirmed ? "ageConfirmed-error" : undefined} defaultChecked={keep.ageConfirmed === "on"} />
          I have reached the age of majority where I live and accept the <Link to={href("/terms")}>Terms of Use</Link>
        </label>
        <FieldError id="ageConfirmed-error" message={errors.ageConfirmed} />
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Create account
          </button>
        </p>
      </Form>
      <p>
        Have an account? <Link to={`${href("/login")}?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}>Sign in</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
