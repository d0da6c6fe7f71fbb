import { href, Link, redirect, useNavigation } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { Field, SchemaForm, useSchemaForm } from "~/components/forms";
import { SpamTrapInputs } from "~/components/spam-trap";
import { ForgotPasswordSchema } from "~/domain/account-forms";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { enforceLimit } from "#server/limits/policy.server";
import { requestSession } from "#server/request-context.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/forgot-password";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Forgot password | Glow Clinic" },
  {
    name: "description",
    content: "Forgot your Glow Clinic password? We send a code to your email and mobile to set a new one.",
  },
];

export async function loader({ context }: Route.LoaderArgs) {
  return { spamTrap: await context.services.spamTrap.inputProps() };
}

/** A 429 thrown by a rate limit keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ errorHeaders, actionHeaders }) => errorHeaders ?? actionHeaders;

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const formData = await formDataOf(request);
  const submission = parseSubmission(formData, ForgotPasswordSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const { email } = submission.value;
  await enforceLimit(services, "codeSend", { to: email, ip: context.clientIp });
  // The answer is the same whether or not an account exists; a filled honeypot sends nothing.
  if (!(await services.spamTrap.isSpam(formData))) await services.accounts.sendResetCode(email);
  requestSession(context).set("resetEmail", email);
  return redirect(href("/reset-password"));
});

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const forgot = useSchemaForm(FORMS.ForgotPasswordSchema, { id: "forgot-password", lastResult: actionData?.result });
  return (
    <section className="page narrow">
      <h1>Forgot your password?</h1>
      <p>
        Enter your email. If you have an account, or booked with us before, we'll send you a 6-digit code to set a new
        password.
      </p>
      <SchemaForm schemaForm={forgot} className="form">
        <SpamTrapInputs trap={loaderData.spamTrap} />
        <Field meta={forgot.fields.email} label="Email" type="email" autoComplete="email" />
        <p>
          <button type="submit" disabled={navigation.state !== "idle"}>
            Send me a code
          </button>
        </p>
      </SchemaForm>
      <p>
        <Link to={href("/login")}>Back to sign in</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
