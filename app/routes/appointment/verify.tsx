import { href, Link, redirect } from "react-router";
import { CodeFormActions, Field, SchemaForm, useSchemaForm } from "~/components/forms";
import { ResendGuestCodeSchema, VerifyGuestSchema } from "~/domain/booking-forms";
import { returningClientSwitch } from "~/domain/booking";
import { formatSlot } from "~/lib/dates";
import { enforceLimit } from "#server/limits/policy.server";
import { bookingCallPriority } from "#server/booking/call-priority.server";
import { requireChosenService } from "#server/booking/catalog-view.server";
import { firstOpenStep, requireDraft, setDraft } from "#server/booking/draft.server";
import { completeVerification, resendVerificationCode } from "#server/booking/guest-details.server";
import { afterNotHeld } from "#server/booking/not-held.server";
import { formDataOf, formText, parseSubmission, refuseForm } from "#server/forms.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction, OUTAGE_MESSAGE } from "#server/unavailable.server";
import type { Route } from "./+types/verify";
import { FORMS } from "~/domain/form-contracts";

/** The step's calls are the booking's, on its way to a hold (decision 036). */
export const middleware: Route.MiddlewareFunction[] = [bookingCallPriority];

export const meta: Route.MetaFunction = () => [
  { title: "Welcome back | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** The step needs a chosen time and a pending check of an existing client's record. */
async function requireVerification(context: Route.LoaderArgs["context"]) {
  const { draft } = await requireDraft(context, "time");
  if (!draft.verification) throw redirect(firstOpenStep(draft));
  return { verification: draft.verification, time: draft.slot ?? draft.hold?.slot ?? "" };
}

export async function loader({ context }: Route.LoaderArgs) {
  const { verification, time } = await requireVerification(context);
  return { sentTo: verification.sentTo, chosen: formatSlot(time) };
}

/** A 429 keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ actionHeaders, errorHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = (errorHeaders ?? actionHeaders).get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const { verification } = await requireVerification(context);
  const { session, draft, service, center, catalog } = await requireChosenService(context);
  const formData = await formDataOf(request);

  if (formText(formData, "intent") === "resend") {
    const submission = parseSubmission(formData, ResendGuestCodeSchema);
    await enforceLimit(services, "codeResend", { to: verification.guestId });
    const sent = await resendVerificationCode(services, draft);
    if (sent === "cooldown") {
      return refuseForm(submission, {
        intent: "resend",
        status: 429,
        formErrors: ["Please wait 30 seconds before asking for another code."],
        headers: { "Retry-After": "30" },
      });
    }
    return redirectWithToast(context, href("/appointment/verify"), {
      type: "success",
      title: "We've sent a new code.",
    });
  }

  const submission = parseSubmission(formData, VerifyGuestSchema);
  await enforceLimit(services, "codeCheck", { ip: context.clientIp });
  if (submission.status !== "success") return refuseForm(submission, { intent: "verify" });
  const outcome = await completeVerification(services, {
    draft,
    code: submission.value.code,
    service,
    catalog,
    timeZone: center.timeZone,
    clientIp: context.clientIp,
  });
  switch (outcome.kind) {
    case "wrong-code":
      return refuseForm(submission, { intent: "verify", fieldErrors: { code: [outcome.message] } });
    case "unavailable":
      return refuseForm(submission, { intent: "verify", status: 503, formErrors: [OUTAGE_MESSAGE] });
    case "refused":
      return redirect(outcome.errorPage);
    case "verify":
      setDraft(session, outcome.draft);
      return redirect(href("/appointment/payment"));
    case "saved":
      setDraft(session, outcome.draft);
      if (!outcome.switched) return redirect(href("/appointment/payment"));
      return redirectWithToast(context, href("/appointment/payment"), {
        type: "info",
        title: returningClientSwitch(outcome.switched),
      });
    case "not-held":
      return afterNotHeld(context, session, submission, outcome.outcome);
  }
});

export default function VerifyStep({ loaderData, actionData }: Route.ComponentProps) {
  const verify = useSchemaForm(FORMS.VerifyGuestSchema, {
    id: "verify-guest",
    lastResult: actionData?.intent === "verify" ? actionData.result : null,
  });
  const resend = useSchemaForm(FORMS.ResendGuestCodeSchema, {
    id: "resend-guest-code",
    lastResult: actionData?.intent === "resend" ? actionData.result : null,
  });
  return (
    <>
      <h1>Welcome back</h1>
      <p>
        You're already one of our clients. To book under your own record, enter the 6-digit code we've sent to{" "}
        {loaderData.sentTo.join(" and ")}. It works for 10 minutes.
      </p>
      <p className="chosen-time">
        Your time: <strong>{loaderData.chosen}</strong>. We hold it for you once the code is checked.
      </p>
      {/* Asking for another code is a form of its own, with nothing to fill in; its button sits next to the other. */}
      <SchemaForm schemaForm={resend} />
      <SchemaForm schemaForm={verify} className="form">
        <Field meta={verify.fields.code} label="6-digit code" inputMode="numeric" autoComplete="one-time-code" />
        <CodeFormActions intent="verify" label="Continue to payment" resendFormId={resend.form.id} />
      </SchemaForm>
      <p>
        Not you? <Link to={href("/appointment/details")}>Use other details</Link>
      </p>
    </>
  );
}
