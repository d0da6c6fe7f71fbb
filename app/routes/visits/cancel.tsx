import { data, Link, useNavigation } from "react-router";
import { Field, SchemaForm, SelectField, useSchemaForm } from "~/components/forms";
import { VisitUnchangeable } from "~/components/visit-actions";
import { VisitError } from "~/components/visit-error";
import { VisitSummary } from "~/components/visit-summary";
import { LATE_CHANGE_FEE_CENTS, LATE_CHANGE_HOURS } from "~/domain/appointments";
import { CANCEL_MESSAGES, CancelVisitSchema } from "~/domain/cancel-forms";
import { formatMoney } from "~/lib/money";
import { formatPhone } from "~/lib/phone";
import { requireVisitAccess } from "#server/appointments/access.server";
import { LINK_PAGE_HEADERS } from "#server/link-pages.server";
import { cancelPage, cancelVisit, type CancelPolicy } from "#server/appointments/cancel.server";
import { toVisitView } from "#server/appointments/visits.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { siteOrigin } from "#server/site.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction, orUnavailable, OUTAGE_MESSAGE, unlessUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/cancel";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Cancel your appointment | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => LINK_PAGE_HEADERS;

const NOT_CANCELLABLE = {
  cancelled: "This appointment is already cancelled.",
  over: "This appointment has already started or is over, so it can't be cancelled.",
} as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await requireVisitAccess(request, context, params);
  const { policy, reasons } = await orUnavailable(() => cancelPage(context.services, access.visit));
  // A visit that can no longer be cancelled is a clear page, not a form (409: it is the visit's state).
  return data(
    { visit: toVisitView(access.visit), home: access.paths.home, policy, reasons },
    { status: policy.kind === "not-cancellable" ? 409 : 200 },
  );
}

export const action = guardAction(async ({ request, params, context }: Route.ActionArgs) => {
  const access = await requireVisitAccess(request, context, params);
  const submission = parseSubmission(await formDataOf(request), CancelVisitSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const outcome = await unlessUnavailable(
    () => cancelVisit(context.services, access, { ...submission.value, origin: siteOrigin(request, context) }),
    () => null,
  );
  if (!outcome) return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
  switch (outcome.kind) {
    case "cancelled":
      return redirectWithToast(context, access.paths.home, {
        type: "success",
        title: "Your appointment is cancelled.",
        description: outcome.feeCharged
          ? `It was less than ${LATE_CHANGE_HOURS} hours away, so the ${formatMoney(LATE_CHANGE_FEE_CENTS)} late-cancellation fee applies.`
          : "We've sent you a confirmation.",
      });
    case "unknown-reason":
      return refuseForm(submission, { fieldErrors: { reasonId: [CANCEL_MESSAGES.reason] } });
    case "not-cancellable":
      return refuseForm(submission, {
        status: 409,
        formErrors: [
          outcome.policy.kind === "call-clinic"
            ? `This appointment is paid, so please call the clinic at ${formatPhone(outcome.policy.phone)} to cancel.`
            : NOT_CANCELLABLE[outcome.policy.why],
        ],
      });
    case "refused":
      return refuseForm(submission, { status: 409, formErrors: [outcome.message] });
  }
});

export default function CancelVisit({ loaderData, actionData }: Route.ComponentProps) {
  const { visit, home, policy, reasons } = loaderData;
  return (
    <section className="page narrow">
      <h1>Cancel your appointment</h1>
      <div className="visit-card">
        <VisitSummary visit={visit} />
      </div>
      <CancelBody policy={policy} reasons={reasons} home={home} lastResult={actionData?.result} />
    </section>
  );
}

function CancelBody({
  policy,
  reasons,
  home,
  lastResult,
}: {
  policy: CancelPolicy;
  reasons: { id: string; name: string }[];
  home: string;
  lastResult: Parameters<typeof useSchemaForm>[1]["lastResult"];
}) {
  const navigation = useNavigation();
  const form = useSchemaForm(FORMS.CancelVisitSchema, { id: "cancel-visit", lastResult });
  if (policy.kind === "not-cancellable") return <VisitUnchangeable message={NOT_CANCELLABLE[policy.why]} home={home} />;
  if (policy.kind === "call-clinic") {
    return (
      <div className="notice">
        <p>This appointment is paid. To cancel it, and for your refund, please call the clinic:</p>
        <p>
          {/* A plain link: a tel: address cannot be a form's target, so it does not look like a button. */}
          <a href={`tel:+1${policy.phone}`}>Call {formatPhone(policy.phone)}</a>
        </p>
        <p>
          Cancelling less than {LATE_CHANGE_HOURS} hours before your appointment costs{" "}
          {formatMoney(LATE_CHANGE_FEE_CENTS)}. <Link to={home}>Keep my appointment</Link>
        </p>
      </div>
    );
  }
  const { fields } = form;
  return (
    <>
      <p className={policy.lateFee ? "notice fee-notice" : undefined} role={policy.lateFee ? "alert" : undefined}>
        {policy.lateFee
          ? `Your appointment is less than ${LATE_CHANGE_HOURS} hours away: cancelling now costs the ${formatMoney(LATE_CHANGE_FEE_CENTS)} late-cancellation fee.`
          : `Cancelling is free until ${LATE_CHANGE_HOURS} hours before your appointment; after that it costs ${formatMoney(LATE_CHANGE_FEE_CENTS)}.`}
      </p>
      <SchemaForm schemaForm={form} method="post" className="form">
        <SelectField meta={fields.reasonId} label="Why are you cancelling?">
          <option value="">Choose a reason</option>
          {reasons.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </SelectField>
        <Field
          meta={fields.comment}
          label="Comment"
          as="textarea"
          maxLength={500}
          hint="Anything the clinic should know. Required."
        />
        <p className="actions">
          <button type="submit" disabled={navigation.state === "submitting"}>
            {policy.lateFee ? `Cancel and pay the ${formatMoney(LATE_CHANGE_FEE_CENTS)} fee` : "Cancel appointment"}
          </button>
          <Link to={home}>Keep my appointment</Link>
        </p>
      </SchemaForm>
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <VisitError error={error} />;
}
