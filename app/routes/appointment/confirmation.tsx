import { href, isRouteErrorResponse, Link } from "react-router";
import { ButtonLink } from "~/components/button-link";
import { ErrorMessage } from "~/components/error-message";
import { CANCELLATION_POLICY } from "~/domain/booking";
import { visitLengthLabel } from "~/domain/visit-length";
import { timeZoneLabel } from "~/lib/dates";
import { clinicTime } from "~/lib/dayjs";
import { formatPhone } from "~/lib/phone";
import { formatMoney } from "~/lib/money";
import { bookedInvoice, confirmationManageUrl, loadConfirmation } from "#server/booking/confirmation.server";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/confirmation";

export const meta: Route.MetaFunction = () => [
  { title: "You're booked | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const view = await loadConfirmation(context, params.appointmentId);
  const { center } = view;
  // The amounts are the back end's, as its invoice has them: what was charged, and what is left to pay.
  const amounts = view.invoice ?? (await bookedInvoice(context.services, view.invoiceId));
  const start = clinicTime(view.start, center.timeZone);
  const end = clinicTime(view.end, center.timeZone);
  return {
    appointmentId: view.appointmentId,
    what: view.services,
    when: `${start.format("dddd, MMMM D, YYYY h:mm A")} to ${end.format("h:mm A")}`,
    // As long as the back end booked it: from the first service's start to the last one's end.
    length: visitLengthLabel(end.diff(start, "minute")),
    timeZone: timeZoneLabel(center.timeZone),
    clinic: {
      name: center.name,
      slug: center.slug,
      line1: center.address.line1,
      cityLine: `${center.address.city}, ${center.address.state} ${center.address.zip}`,
      phone: center.phone,
    },
    nurse: view.nurse,
    reference: amounts?.reference ?? null,
    paid: amounts && amounts.paid > 0 ? formatMoney(amounts.paid) : null,
    dueInClinic: amounts ? formatMoney(amounts.due) : null,
    // Opens this visit to reschedule or cancel it, without signing in (also in the email and text).
    manageUrl: new URL(confirmationManageUrl(context, view, siteOrigin(request, context))).pathname,
  };
}

export default function Confirmation({ loaderData }: Route.ComponentProps) {
  const { appointmentId, what, when, length, timeZone, clinic, nurse, reference, paid, dueInClinic, manageUrl } =
    loaderData;
  return (
    <article className="page narrow confirmation">
      <h1>You're booked!</h1>
      <p role="status">Your appointment is confirmed. We've sent the details to your email and phone.</p>
      <dl className="facts">
        <dt>What</dt>
        <dd>
          <ul>
            {what.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        </dd>
        <dt>When</dt>
        <dd>
          {when} <span className="muted">({timeZone})</span>
        </dd>
        <dt>How long</dt>
        <dd>{length}</dd>
        <dt>Where</dt>
        <dd>
          <Link to={href("/locations/:slug", { slug: clinic.slug })}>{clinic.name}</Link>
          <br />
          {clinic.line1}, {clinic.cityLine}
          <br />
          <a href={`tel:+1${clinic.phone}`}>{formatPhone(clinic.phone)}</a>
        </dd>
        {reference ? (
          <>
            <dt>Booking reference</dt>
            <dd>{reference}</dd>
          </>
        ) : null}
        {nurse ? (
          <>
            <dt>Nurse</dt>
            <dd>{nurse}</dd>
          </>
        ) : null}
        {paid ? (
          <>
            <dt>Paid</dt>
            <dd>{paid}</dd>
          </>
        ) : null}
        {dueInClinic ? (
          <>
            <dt>Due at the clinic</dt>
            <dd>{dueInClinic}</dd>
          </>
        ) : null}
      </dl>
      <h2>Before you come</h2>
      <ul>
        <li>Please arrive 10 minutes before your first facial.</li>
        <li>New clients: bring a photo ID.</li>
        <li>
          Need to change plans? <Link to={manageUrl}>Reschedule or cancel</Link> at least{" "}
          {CANCELLATION_POLICY.windowHours} hours ahead to avoid the {formatMoney(CANCELLATION_POLICY.feeCents)} fee.
        </li>
      </ul>
      <div className="actions">
        {/* The calendar file is sent as an attachment: the browser saves it and stays on this page. */}
        <ButtonLink
          className="button"
          to={href("/appointment/confirmation/:appointmentId/calendar.ics", { appointmentId })}
          reloadDocument
        >
          Add to calendar
        </ButtonLink>
        <ButtonLink className="button button-secondary" to={manageUrl}>
          Manage this appointment
        </ButtonLink>
        <ButtonLink className="button button-secondary" to={href("/account")}>
          View dashboard
        </ButtonLink>
      </div>
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <section className="page narrow">
        <h1>We can't find that booking</h1>
        <p>Confirmations open in the browser the booking was made in. Your confirmation email has every detail.</p>
        <div className="button-row">
          <ButtonLink className="button" to={href("/")}>
            Go to the home page
          </ButtonLink>
        </div>
      </section>
    );
  }
  return <ErrorMessage error={error} />;
}
