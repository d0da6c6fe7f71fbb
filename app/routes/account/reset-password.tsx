import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { Field, FormError } from "~/components/field";
import { NewPasswordField } from "~/components/password-rules";
import { NewPassword, readForm } from "~/domain/account-forms";
import { enforceRateLimit } from "#server/accounts/current-user.server";
import { formDataOf } from "#server/forms.server";
import { requestSession } from "#server/request-context.server";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [{ title: "Set a new password | Glow Clinic" }];

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

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  const session = requestSession(context);
  const email = session.get("resetEmail");
  if (!email) return redirect(href("/forgot-password"));
  const { values, problem } = readForm(await formDataOf(request), ["intent", "code", "password"]);
  const keep = { code: (values.code ?? "").slice(0, 12) };
  if (problem) return data({ errors: { form: problem } as Record<string, string>, keep, resent: false }, { status: 400 });

  if (values.intent === "resend") {
    enforceRateLimit(services, `code-send:${email.toLowerCase()}`, 3, 10 * 60_000);
    const sent = await services.accounts.sendResetCode(email);
    if (sent === "cooldown") return data({ errors: { form: "Please wait 30 seconds before asking for another code." } as Record<string, string>, keep, resent: false }, { status: 429, headers: { "Retry-After": "30" } });
    return data({ errors: {} as Record<string, string>, keep, resent: true });
  }

  enforceRateLimit(services, `code-check-ip:${context.clientIp}`, 20, 10 * 60_000);
  const errors: Record<string, string> = {};
  if (!/^\d{6}$/.test((values.code ?? "").trim())) errors.code = "Please enter the 6-digit code we sent you.";
  const password = NewPassword.safeParse(values.password ?? "");
  if (!password.success) errors.password = password.error.issues[0].message;
  if (Object.keys(errors).length) return data({ errors, keep, resent: false }, { status: 400 });

  const result = await services.accounts.resetPassword(email, values.code!.trim(), password.data!);
  if (!result.ok) return data({ errors: { [result.field]: result.message } as Record<string, string>, keep, resent: false }, { status: 400 });
  session.unset("resetEmail");
  session.unset("userSessionId");
  return redirect(href("/password-changed"));
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const errors = actionData?.errors ?? {};
  const navigation = useNavigation();
  return (
    <section className="page narrow">
      <h1>Set a new password</h1>
      <p>
        If {loaderData.email} has an account with us, we've sent a 6-digit code there (and by text to its mobile number).
        It works for 10 minutes.
      </p>
      <FormError message={errors.form} />
      {actionData?.resent ? <p role="status">We've sent a new code.</p> : null}
      <Form method="post" noValidate className="form">
        <Field name="code" label="6-digit code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} defaultValue={actionData?.keep.code} error={errors.code} focus={Boolean(errors.code)} />
        <NewPasswordField label="New password" error={errors.password} />
        <p className="actions">
          <button type="submit" name="intent" value="reset" disabled={navigation.state !== "idle"}>
            Set new password
          </button>
          <button type="submit" name="intent" value="resend" className="button-secondary" formNoValidate>
            Send a new code
          </button>
        </p>
      </Form>
      <p>
        <Link to={href("/forgot-password")}>Use another email</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
