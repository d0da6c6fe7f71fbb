import { href, NavLink, Outlet } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { HoldBanner, holdViewOf } from "~/components/hold-banner";
import { NotBookedNotice, notBookedViewOf } from "~/components/not-booked-notice";
import { getDraft, holdIsLive } from "#server/booking/draft.server";
import { takeNotBooked } from "#server/booking/not-booked.server";
import { requestSession } from "#server/request-context.server";
import type { Route } from "./+types/layout";

/**
 * The steps a booking that ended without an appointment sends the visitor back to. Only they take
 * its notice: a step that sends the visitor on (the payment step when a hold ran out) may be the one
 * leaving it for the next page.
 */
const NOTICE_STEPS: string[] = [href("/appointment/time"), href("/appointment/service")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const notBooked = NOTICE_STEPS.includes(new URL(request.url).pathname) ? takeNotBooked(context) : null;
  const notice = notBooked ? notBookedViewOf(notBooked) : null;
  const draft = getDraft(requestSession(context));
  if (!draft?.hold || !holdIsLive(draft, Date.now())) return { hold: null, centerId: draft?.centerId ?? null, notice };
  const center = await services.catalog.getCenter(draft.centerId).catch(() => null);
  const timeZone = center?.timeZone ?? "America/Chicago";
  return { centerId: draft.centerId, hold: holdViewOf(draft.hold.slot, draft.hold.expiresAt, timeZone), notice };
}

const STEPS = [
  { to: href("/appointment/service"), label: "Treatment" },
  { to: href("/appointment/time"), label: "Date and time" },
  { to: href("/appointment/details"), label: "Your details" },
  { to: href("/appointment/payment"), label: "Payment" },
] as const;

export default function AppointmentLayout({ loaderData }: Route.ComponentProps) {
  const { hold, centerId, notice } = loaderData;
  return (
    <div className="page booking">
      <nav aria-label="Booking steps" className="steps">
        <ol>
          {STEPS.map((step, index) => (
            <li key={step.to}>
              <NavLink to={index === 0 && centerId ? `${step.to}?id=${encodeURIComponent(centerId)}` : step.to}>
                <span className="step-number">{index + 1}</span> {step.label}
              </NavLink>
            </li>
          ))}
        </ol>
      </nav>
      {hold ? (
        <>
          {/* Without JavaScript the page reloads itself when the hold runs out, and the server
              sends the visitor back to choose a time; with it, the countdown does that. (Not in
              meta(): a child route's meta replaces its parent's.) */}
          <noscript>
            <meta httpEquiv="refresh" content={String(hold.secondsLeft + 1)} />
          </noscript>
          <HoldBanner hold={hold} />
        </>
      ) : null}
      {notice ? <NotBookedNotice notice={notice} /> : null}
      <Outlet />
      {centerId ? (
        <p className="leave-booking">
          <a href={href("/appointment/cancel")}>Cancel this booking</a>
        </p>
      ) : null}
    </div>
  );
}

/** One error page for the booking steps (an outage, a bad request); the draft is kept. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
