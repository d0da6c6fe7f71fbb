import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { Field, SchemaForm, useSchemaForm } from "~/components/forms";
import { LoginSchema } from "~/domain/account-forms";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import { redirectTarget } from "#server/accounts/current-user.server";
import { currentUser, requestSession } from "#server/request-context.server";
import { clearSignInFailures, consume, tooManyAttempts } from "#server/limits/policy.server";
import { formDataOf, formText, parseSubmission, refuseForm } from "#server/forms.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/login";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Sign in | Glow Clinic" },
  {
    name: "description",
    content:
      "Sign in to Glow Clinic to book faster, see and move your visits, and use your membership, packages and gift cards.",
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await currentUser(context);
  const redirectTo = redirectTarget(new URL(request.url).searchParams.get("redirectTo"));
  if (user) throw redirect(redirectTo);
  return { redirectTo };
}

/** A 429 thrown by a rate limit keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ errorHeaders, actionHeaders }) => errorHeaders ?? actionHeaders;

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const formData = await formDataOf(request);
  const submission = parseSubmission(formData, LoginSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const { email, password } = submission.value;
  const who = { email, ip: context.clientIp };
  const attempt = await consume(services, "signIn", who);
  if (!attempt.ok) throw tooManyAttempts(attempt);
  const result = await services.accounts.login(email, password);
  if (!result.ok) {
    const refused = refuseForm(submission, { status: 401, fieldErrors: { [result.field]: [result.message] } });
    // A client we know who has no password here yet is offered a code to set one.
    return result.existingGuest ? data({ ...refused.data, codeFor: email }, refused.init ?? undefined) : refused;
  }
  await clearSignInFailures(services, who);
  // A new session: the cookie's value changes at sign-in; the booking draft carries on.
  requestSession(context).set("userSessionId", result.value.token);
  return redirect(redirectTarget(formText(formData, "redirectTo")));
});

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const login = useSchemaForm(FORMS.LoginSchema, { id: "login", lastResult: actionData?.result });
  const { fields, attempt } = login;
  return (
    <section className="page narrow">
      <h1>Sign in</h1>
      <SchemaForm schemaForm={login} className="form">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
        {/* A new key after each failed submit empties the password: it is never kept. */}
        <Field key={attempt} meta={fields.password} label="Password" type="password" autoComplete="current-password" />
        {fields.password.errors?.includes(ACCOUNT_MESSAGES.wrongPassword) ? (
          // The spec's "Invalid password. Reset your password", with the way to do it next to it.
          <p>
            <Link to={href("/forgot-password")}>Reset your password</Link>
          </p>
        ) : null}
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Sign in
          </button>
        </p>
      </SchemaForm>
      {actionData && "codeFor" in actionData ? (
        // A client we know who has no password here yet: one press sends a code to the email on file.
        <Form method="post" action={href("/forgot-password")} className="form">
          <input type="hidden" name="email" value={String(actionData.codeFor)} />
          <p>
            <button type="submit">Send me a code to set my password</button>
          </p>
        </Form>
      ) : null}
      <p>
        <Link to={href("/forgot-password")}>Forgot your password, or booked before without one?</Link>
      </p>
      <p>
        New here?{" "}
        <Link to={`${href("/register")}?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}>
          Create an account
        </Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
