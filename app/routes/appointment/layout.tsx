import { useState } from "react";
import { href, Link, Outlet, useLocation, useMatches } from "react-router";
import { BookingChoice, type LiveChoice } from "~/components/booking-choice";
import { ErrorMessage } from "~/components/error-message";
import { HoldCountdown, HoldStatus, holdViewOf, useHoldCountdown, type HoldView } from "~/components/hold-banner";
import { NotBookedNotice, notBookedViewOf } from "~/components/not-booked-notice";
import { priceLines } from "~/domain/booking";
import { sameId, type Center, type Service } from "~/domain/catalog";
import type { CurrentUser } from "#server/services";
import { treatmentPriceLabel } from "~/domain/menu";
import { formatSlot } from "~/lib/dates";
import { formatMoney, formatPriceRange } from "~/lib/money";
import { findService } from "#server/booking/catalog-view.server";
import { quote } from "#server/booking/checkout.server";
import type { Services } from "#server/services";
import { getDraft, holdIsLive, timeChosen, type Draft } from "#server/booking/draft.server";
import { takeNotBooked } from "#server/booking/not-booked.server";
import { withAddOnPrices } from "#server/pricing/offer-prices.server";
import { draftAsPriced } from "#server/booking/referral-offer.server";
import { currentUser, requestSession, visitAttribution } from "#server/request-context.server";
import { draftAsKnown } from "#server/booking/treatment-pricing.server";
import type { Route } from "./+types/layout";

/**
 * The steps a booking that ended without an appointment sends the visitor back to. Only they take
 * its notice: a step that sends the visitor on (the payment step when a hold ran out) may be the one
 * leaving it for the next page.
 */
const NOTICE_STEPS: string[] = [href("/appointment/time"), href("/appointment/service")];

export type BookingSummaryView = {
  clinic: string;
  treatment: string;
  addOns: string[];
  /**
   * What the booking costs as the payment step's summary totals it and the back end charges it: the
   * treatment and its add-ons, less the promo or offer, member price and package session on it.
   */
  price: string;
  /** The price before those, struck through, when they take something off. */
  listPrice: string | null;
  /** The time chosen or held, when there is one. */
  time: string | null;
};

/** What the booking summary shows of the draft: the treatment chosen, its total and its time. */
async function bookingSummaryOf(
  services: Services,
  center: Center,
  catalog: Service[],
  draft: Draft,
  holdLive: boolean,
  user: CurrentUser | null,
  partnerType: string | undefined,
): Promise<BookingSummaryView | null> {
  const service = findService(catalog, draft.serviceId);
  if (!service) return null;
  const addOns = draft.addOnIds.map((id) => findService(catalog, id)).filter((s): s is Service => Boolean(s));
  // One amount everywhere (decision 037): the payment step's own quote, with the offer it will start with.
  // Priced as the guest is known so far: a signed-in member's prices and packages count from the first step.
  const priced = await draftAsPriced(services, draftAsKnown(draft, user), { service, catalog, partnerType })
    .then((offered) => quote(services, center, catalog, offered))
    .catch(() => null);
  const list = priced?.subtotal ?? priceLines(service, addOns).reduce((sum, line) => sum + line.price, 0);
  const total = priced?.total ?? list;
  const byId = new Map(catalog.map((s) => [s.id, s]));
  const slot = holdLive ? draft.hold!.slot : draft.slot;
  return {
    clinic: center.name,
    treatment: service.displayName,
    addOns: addOns.map((a) => a.displayName),
    price: list > 0 ? formatMoney(total) : treatmentPriceLabel(service, byId, formatPriceRange),
    listPrice: total < list ? formatMoney(list) : null,
    time: slot ? formatSlot(slot) : null,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const url = new URL(request.url);
  const notBooked = NOTICE_STEPS.includes(url.pathname) ? takeNotBooked(context) : null;
  const notice = notBooked ? notBookedViewOf(notBooked) : null;
  const draft = getDraft(requestSession(context));
  const holdLive = Boolean(draft && holdIsLive(draft, Date.now()));
  const reached = stepsReached(draft, holdLive);
  if (!draft || (!holdLive && !draft.serviceId))
    return { hold: null, centerId: draft?.centerId ?? null, notice, summary: null, reached };
  // Another clinic's treatment step starts a new booking there: the one in the draft is not summed up on it.
  const asked = url.pathname === href("/appointment/service") ? url.searchParams.get("id") : null;
  const otherClinic = asked !== null && !sameId(asked, draft.centerId);
  // Both cached and shared with the step's own loader; the step shows any outage itself.
  const [center, catalog] = await Promise.all([
    services.catalog.getCenter(draft.centerId).catch(() => null),
    draft.serviceId && !otherClinic
      ? services.catalog
          .listServices(draft.centerId)
          .then((listed) => (listed ? withAddOnPrices(services, listed) : null))
          .catch(() => null)
      : null,
  ]);
  const user = catalog ? await currentUser(context) : null;
  const summary =
    center && catalog
      ? await bookingSummaryOf(services, center, catalog, draft, holdLive, user, visitAttribution(context).partner)
      : null;
  const timeZone = center?.timeZone ?? "America/Chicago";
  const hold = holdLive ? holdViewOf(draft.hold!.slot, draft.hold!.expiresAt, timeZone) : null;
  return { centerId: draft.centerId, hold, notice, summary, reached };
}

/**
 * How far the booking may go: the steps after it are not links yet (a step not reached would only
 * send the visitor back), so the step bar offers the ways back and no dead ends.
 */
function stepsReached(draft: Draft | null, holdLive: boolean): number {
  if (!draft?.serviceId) return 0;
  if (!holdLive && !timeChosen(draft)) return 1;
  return holdLive && draft.details ? 3 : 2;
}

/** "Skip to content" goes past the step bar, to the step itself. */
export const handle = { skipTo: "step" };

const STEPS = [
  { to: href("/appointment/service"), label: "Treatment" },
  { to: href("/appointment/time"), label: "Date and time" },
  { to: href("/appointment/details"), label: "Your details", also: href("/appointment/verify") },
  { to: href("/appointment/payment"), label: "Payment" },
] as const;

export default function AppointmentLayout({ loaderData }: Route.ComponentProps) {
  const { hold, centerId, notice, summary, reached } = loaderData;
  // One count for the page: the summary shows the time left, the banner says the warnings.
  const countdown = useHoldCountdown(hold?.expiresAt ?? null);
  const { pathname } = useLocation();
  const current = STEPS.findIndex((step) => step.to === pathname || ("also" in step && step.also === pathname));
  // The treatment step's choice: as its page shows it, then as it changes in the browser (decision 056).
  const [live, setLive] = useState<LiveChoice | null>(null);
  const stepChoice = useMatches()
    .map((match) => (match.data as { bookingBar?: LiveChoice | null } | undefined)?.bookingBar)
    .find(Boolean);
  const choice = live ?? stepChoice ?? null;
  const shown: BookingSummaryView | null = choice ? { time: summary?.time ?? null, ...choice } : summary;
  return (
    <div className={shown ? "page booking with-summary" : "page booking"}>
      <nav aria-label="Booking steps" className="steps">
        <ol>
          {STEPS.map((step, index) => {
            const label = (
              <>
                <span className="step-number">{index + 1}</span> <span className="step-label">{step.label}</span>
              </>
            );
            // The step shown is named, not linked; one not reached yet is plain text.
            return (
              <li key={step.to}>
                {index === current ? (
                  <span className="step current" aria-current="step">
                    {label}
                  </span>
                ) : index <= reached ? (
                  <Link to={index === 0 && centerId ? `${step.to}?id=${encodeURIComponent(centerId)}` : step.to}>
                    {label}
                  </Link>
                ) : (
                  <span className="step">{label}</span>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
      <div className="booking-main" id="step" tabIndex={-1}>
        {hold ? (
          <>
            {/* With JavaScript the countdown sends the visitor back to choose a time when the hold
                runs out. Without it the page says until when the time is held, and the next
                request finds the hold gone: a page that reloads itself on a timer would take the
                visitor away unasked (WCAG 2.2.1). */}
            <HoldStatus hold={hold} warning={countdown.warning}>
              {shown ? null : <HoldCountdown seconds={countdown.seconds} />}
            </HoldStatus>
          </>
        ) : null}
        {notice ? <NotBookedNotice notice={notice} /> : null}
        <BookingChoice.Provider value={setLive}>
          <Outlet />
        </BookingChoice.Provider>
        {centerId ? (
          <p className="leave-booking">
            <a href={href("/appointment/cancel")}>Cancel this booking</a>
          </p>
        ) : null}
      </div>
      {shown ? <BookingSummary summary={shown} hold={hold} seconds={countdown.seconds} /> : null}
    </div>
  );
}

/**
 * What is being booked, kept in view: a side column on a wide screen, a compact bar at the top of a
 * phone's screen. After the page in the document, so the page's heading is read first.
 */
function BookingSummary({
  summary,
  hold,
  seconds,
}: {
  summary: BookingSummaryView;
  hold: HoldView | null;
  seconds: number | null;
}) {
  return (
    <aside className="booking-summary" aria-labelledby="booking-summary-heading">
      <h2 id="booking-summary-heading">Your booking</h2>
      <dl>
        <div className="summary-treatment">
          <dt>Treatment</dt>
          <dd>
            {summary.treatment}
            {summary.addOns.map((name) => (
              <span key={name} className="summary-add-on">
                {" "}
                + {name}
              </span>
            ))}
          </dd>
        </div>
        <div className="summary-clinic">
          <dt>Clinic</dt>
          <dd>{summary.clinic}</dd>
        </div>
        {summary.time ? (
          <div className="summary-time">
            <dt>Time</dt>
            <dd>{summary.time}</dd>
          </div>
        ) : null}
        <div className="summary-price">
          <dt>Price</dt>
          <dd>
            {summary.listPrice ? (
              <>
                <s>
                  <span className="visually-hidden">was </span>
                  {summary.listPrice}
                </s>{" "}
              </>
            ) : null}
            {summary.price}
          </dd>
        </div>
        {hold ? (
          <div className="summary-hold">
            <dt>Reserved for you</dt>
            {/* The server says until when; the browser counts down. */}
            <dd>{seconds === null ? `Held until ${hold.untilLabel}` : <HoldCountdown seconds={seconds} />}</dd>
          </div>
        ) : null}
      </dl>
    </aside>
  );
}

/** One error page for the booking steps (an outage, a bad request); the draft is kept. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
