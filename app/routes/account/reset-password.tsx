import { href, Link, redirect } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { CodeFormActions, Field, SchemaForm, useSchemaForm } from "~/components/forms";
import { NewPasswordField } from "~/components/password-rules";
import { ResendCodeSchema, ResetPasswordSchema } from "~/domain/account-forms";
import { formDataOf, formText, parseSubmission, refuseForm } from "#server/forms.server";
import { enforceLimit } from "#server/limits/policy.server";
import { requestSession } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/reset-password";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Set a new password | Glow Clinic" },
  { name: "description", content: "Set a new password for your Glow Clinic account with the code we sent you." },
];

function maskEmail(email: string): string {
  const [name, domain] = email.split("@");
  return `${name.slice(0, 2)}${"•".repeat(Math.max(1, name.length - 2))}@${domain}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requestSession(context);
  const email = session.get("resetEmail");
  if (!email) throw redirect(href("/forgot-password"));
  return { email: maskEmail(email) };
}

/** A 429 thrown by a rate limit keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ errorHeaders, actionHeaders }) => errorHeaders ?? actionHeaders;

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const session = requestSession(context);
  const email = session.get("resetEmail");
  if (!email) return redirect(href("/forgot-password"));
  const formData = await formDataOf(request);

  if (formText(formData, "intent") === "resend") {
    const submission = parseSubmission(formData, ResendCodeSchema);
    await enforceLimit(services, "codeResend", { to: email });
    const sent = await services.accounts.sendResetCode(email);
    if (sent === "cooldown") {
      return refuseForm(submission, {
        intent: "resend",
        status: 429,
        formErrors: ["Please wait 30 seconds before asking for another code."],
        headers: { "Retry-After": "30" },
      });
    }
    return redirectWithToast(context, href("/reset-password"), { type: "success", title: "We've sent a new code." });
  }

  const submission = parseSubmission(formData, ResetPasswordSchema);
  await enforceLimit(services, "codeCheck", { ip: context.clientIp });
  if (submission.status !== "success") return refuseForm(submission, { intent: "reset" });
  const { code, password } = submission.value;
  const result = await services.accounts.resetPassword(email, code, password);
  if (!result.ok) return refuseForm(submission, { intent: "reset", fieldErrors: { [result.field]: [result.message] } });
  session.unset("resetEmail");
  session.unset("userSessionId");
  return redirect(href("/password-changed"));
});

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const reset = useSchemaForm(FORMS.ResetPasswordSchema, {
    id: "reset-password",
    lastResult: actionData?.intent === "reset" ? actionData.result : null,
  });
  const resend = useSchemaForm(FORMS.ResendCodeSchema, {
    id: "resend-code",
    lastResult: actionData?.intent === "resend" ? actionData.result : null,
  });
  return (
    <section className="page narrow">
      <h1>Set a new password</h1>
      <p>
        If {loaderData.email} has an account with us, we've sent a 6-digit code there (and by text to its mobile
        number). It works for 10 minutes.
      </p>
      {/* Asking for another code is a form of its own, with nothing to fill in; its button sits next to the other. */}
      <SchemaForm schemaForm={resend} />
      <SchemaForm schemaForm={reset} className="form">
        <Field meta={reset.fields.code} label="6-digit code" inputMode="numeric" autoComplete="one-time-code" />
        <NewPasswordField key={reset.attempt} meta={reset.fields.password} label="New password" />
        <CodeFormActions intent="reset" label="Set new password" resendFormId={resend.form.id} />
      </SchemaForm>
      <p>
        <Link to={href("/forgot-password")}>Use another email</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
