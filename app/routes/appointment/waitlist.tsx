import { getCollectionProps } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { data, href, Link, useNavigation } from "react-router";
import {
  CheckboxField,
  Field,
  FieldMessage,
  SchemaForm,
  SelectField,
  useFocusFirst,
  useSchemaForm,
} from "~/components/forms";
import { parseSlotGroup } from "~/domain/booking";
import { FORMS } from "~/domain/form-contracts";
import { DAY_PARTS, WAITLIST_MESSAGES, WaitlistJoinSchema, waitlistDays } from "~/domain/waitlist";
import { clinicToday, formatDay } from "~/lib/dates";
import { requireChosenService } from "#server/booking/catalog-view.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { currentUser } from "#server/request-context.server";
import { siteOrigin } from "#server/site.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction } from "#server/unavailable.server";
import { joinWaitlist } from "#server/waitlist/waitlist.server";
import type { Route } from "./+types/waitlist";

export const meta: Route.MetaFunction = () => [
  { title: "Tell me when a time opens | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** The clinic's nurses, or none when the list cannot be read now (then only "Any nurse" is offered). */
async function nursesOf(context: Route.LoaderArgs["context"], centerId: string) {
  return (await context.services.catalog.listTherapists(centerId).catch(() => null)) ?? [];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { draft, center, service } = await requireChosenService(context);
  const url = new URL(request.url);
  const days = waitlistDays(clinicToday(center.timeZone));
  const asked = url.searchParams.get("date");
  const group = parseSlotGroup(url.searchParams.get("group"));
  const user = await currentUser(context);
  const nurses = await nursesOf(context, center.id);
  return {
    clinic: { id: center.id, name: center.name },
    service: service.displayName,
    days: days.map((d) => ({ value: d, label: formatDay(d, "ddd MMM D") })),
    nurses: nurses.map((n) => ({ id: n.id, name: n.displayName })),
    defaults: {
      clinic: center.id,
      // The day looked at, and the part of the day shown (all of them when it was "All").
      days: asked && days.includes(asked) ? [asked] : [],
      parts: group === "all" ? DAY_PARTS.map((p) => p.id) : [group],
      therapist: draft.therapistId ?? "",
      contact: user?.email ?? draft.details?.email ?? "",
    },
    back: `${href("/appointment/time")}${asked && days.includes(asked) ? `?date=${asked}&group=${group}` : ""}`,
  };
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { draft, center, service } = await requireChosenService(context);
  const submission = parseSubmission(await formDataOf(request), WaitlistJoinSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const form = submission.value;
  const user = await currentUser(context);
  const outcome = await joinWaitlist(context.services, {
    center,
    clinic: form.clinic,
    serviceId: service.id,
    addOnIds: draft.addOnIds,
    nurses: await nursesOf(context, center.id),
    offeredDays: waitlistDays(clinicToday(center.timeZone)),
    days: form.days,
    parts: form.parts,
    therapist: form.therapist || undefined,
    contact: form.contact,
    accountId: user?.id ?? null,
    origin: siteOrigin(request, context),
    clientIp: context.clientIp,
  });
  switch (outcome.kind) {
    case "joined":
      return redirectWithToast(context, `${href("/appointment/time")}?date=${outcome.entry.days[0]}`, {
        type: "success",
        title: "You're on the waitlist.",
        description:
          outcome.entry.channel === "email"
            ? "We'll email you when a time that suits opens. Each message has a link to leave the waitlist."
            : "We'll text you when a time that suits opens. Each message has a link to leave the waitlist.",
      });
    case "unknown-clinic":
      return refuseForm(submission, { formErrors: [WAITLIST_MESSAGES.clinic] });
    case "unknown-day":
      return refuseForm(submission, { fieldErrors: { days: [WAITLIST_MESSAGES.dayOffered] } });
    case "unknown-nurse":
      return refuseForm(submission, { fieldErrors: { therapist: [WAITLIST_MESSAGES.nurse] } });
    case "bad-contact":
      return refuseForm(submission, { fieldErrors: { contact: [WAITLIST_MESSAGES.contact] } });
    case "full":
      return refuseForm(submission, { status: 409, formErrors: [WAITLIST_MESSAGES.full(outcome.places)] });
    case "too-many":
      return refuseForm(submission, {
        status: 429,
        formErrors: [outcome.message],
        headers: { "Retry-After": String(outcome.retryAfterSeconds) },
      });
  }
});

/** A 429 keeps its Retry-After header. */
export const headers: Route.HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

type SchemaFormOf = ReturnType<typeof useSchemaForm<typeof WaitlistJoinSchema>>;

/**
 * A group of checkboxes of the form (the days, the parts of the day): its legend, its message read
 * with it, and after a refused submit its first box focused when it is the first field at fault.
 */
function CheckboxGroup({
  meta,
  legend,
  options,
  attempt,
  className,
}: {
  meta: SchemaFormOf["fields"]["days"] | SchemaFormOf["fields"]["parts"];
  legend: string;
  options: { value: string; label: React.ReactNode }[];
  attempt: number;
  className?: string;
}) {
  const focus = useFocusFirst(meta.name);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (attempt > 0 && focus) first.current?.focus();
  }, [attempt, focus]);
  return (
    <fieldset
      className={className}
      aria-describedby={meta.errors ? meta.errorId : undefined}
      aria-invalid={meta.errors ? true : undefined}
    >
      <legend>{legend}</legend>
      <FieldMessage meta={meta} />
      {getCollectionProps(meta, { type: "checkbox", options: options.map((o) => o.value), ariaAttributes: false }).map(
        ({ key, ...props }, index) => (
          <label key={key} className="check">
            <input {...props} ref={index === 0 ? first : undefined} autoFocus={index === 0 ? focus : undefined} />{" "}
            {options[index].label}
          </label>
        ),
      )}
    </fieldset>
  );
}

export default function WaitlistJoin({ loaderData, actionData }: Route.ComponentProps) {
  const { clinic, service, days, nurses, defaults, back } = loaderData;
  const navigation = useNavigation();
  const join = useSchemaForm(FORMS.WaitlistJoinSchema, {
    id: "waitlist-join",
    lastResult: actionData?.result,
    defaultValue: defaults,
  });
  const { fields } = join;
  return (
    <>
      <h1>Tell me when a time opens</h1>
      <p>
        {service} at {clinic.name}. Choose the days and times that suit you: when one opens, we'll send you a link to
        book it. Other guests may be waiting too, so the first to book gets it.
      </p>
      <SchemaForm schemaForm={join} method="post" className="form waitlist-form">
        <input type="hidden" name={fields.clinic.name} value={clinic.id} />
        <CheckboxGroup
          meta={fields.days}
          legend="Days (the next two weeks)"
          options={days.map((d) => ({ value: d.value, label: d.label }))}
          attempt={join.attempt}
          className="choice-group"
        />
        <CheckboxGroup
          meta={fields.parts}
          legend="Times of day"
          options={DAY_PARTS.map((p) => ({
            value: p.id,
            label: (
              <>
                {p.label} <span className="muted">({p.hint})</span>
              </>
            ),
          }))}
          attempt={join.attempt}
        />
        <SelectField meta={fields.therapist} label="Nurse">
          <option value="">Any nurse</option>
          {nurses.map((n) => (
            <option key={n.id} value={n.id}>
              {n.name}
            </option>
          ))}
        </SelectField>
        <Field
          meta={fields.contact}
          label="Email or mobile number"
          autoComplete="email"
          hint="We use it only to tell you about open times, and delete it when you leave the waitlist or its last day has passed."
        />
        <CheckboxField meta={fields.consent} value="on">
          I agree to be contacted by email or text about open times.
        </CheckboxField>
        <p className="actions">
          <button type="submit" disabled={navigation.state === "submitting"}>
            Tell me when a time opens
          </button>
          <Link to={back}>Back to the times</Link>
        </p>
      </SchemaForm>
    </>
  );
}
