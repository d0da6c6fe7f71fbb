import { useMemo } from "react";
import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { Field, FormError } from "~/components/field";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import { fieldErrors } from "~/domain/guest";
import { LoginSchema, readForm } from "~/domain/account-forms";
import { redirectTarget, tooManyAttempts } from "#server/accounts/current-user.server";
import { currentUser, requestSession } from "#server/request-context.server";
import { countLoginAttempt, loginSucceeded } from "#server/accounts/login-limits.server";
import { formDataOf } from "#server/forms.server";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: "Sign in | Glow Clinic" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await currentUser(context);
  const redirectTo = redirectTarget(new URL(request.url).searchParams.get("redirectTo"));
  if (user) throw redirect(redirectTo);
  return { redirectTo };
}

/** A 429 thrown by a rate limit keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ errorHeaders, actionHeaders }) => errorHeaders ?? actionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  const { values, problem } = readForm(await formDataOf(request), ["email", "password", "redirectTo"]);
  const keep = { email: (values.email ?? "").slice(0, 254) };
  if (problem) return data({ formError: problem, fieldErrors: {} as Record<string, string>, keep }, { status: 400 });
  const parsed = LoginSchema.safeParse(values);
  if (!parsed.success) return data({ formError: ACCOUNT_MESSAGES.correctErrors, fieldErrors: fieldErrors(parsed.error), keep }, { status: 400 });
  const attempt = countLoginAttempt(services.rateLimiter, parsed.data.email, context.clientIp);
  if (attempt.limited) throw tooManyAttempts(attempt.retryAfterSeconds);
  const result = await services.accounts.login(parsed.data.email, parsed.data.password);
  if (!result.ok) {
    return data({ formError: null, fieldErrors: { [result.field]: result.message } as Record<string, string>, keep }, { status: 401 });
  }
  loginSucceeded(services.rateLimiter, parsed.data.email, context.clientIp);
  // A new session: the cookie's value changes at sign-in; the booking draft carries on.
  requestSession(context).set("userSessionId", result.value.token);
  return redirect(redirectTarget(values.redirectTo ?? null));
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const errors = actionData?.fieldErrors ?? {};
  const navigation = useNavigation();
  // A new key after each answer empties the password field: a password is never kept.
  const passwordKey = useMemo(() => Math.random().toString(36), [actionData]);
  return (
    <section className="page narrow">
      <h1>Sign in</h1>
      <FormError message={actionData?.formError} />
      <Form method="post" noValidate className="form">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field name="email" label="Email" type="email" autoComplete="email" maxLength={254} defaultValue={actionData?.keep.email ?? ""} error={errors.email} focus={Boolean(errors.email)} />
        <Field key={passwordKey} name="password" label="Password" type="password" autoComplete="current-password" maxLength={128} error={errors.password} focus={!errors.email && Boolean(errors.password)} />
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Sign in
          </button>
        </p>
      </Form>
      <p>
        <Link to={href("/forgot-password")}>Forgot your password, or booked before without one?</Link>
      </p>
      <p>
        New here? <Link to={`${href("/register")}?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}>Create an account</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
