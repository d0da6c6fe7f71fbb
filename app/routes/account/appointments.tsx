import { href, Link } from "react-router";
import { AccountNav } from "~/components/account-nav";
import { ButtonLink } from "~/components/button-link";
import { ErrorMessage } from "~/components/error-message";
import { VisitActions } from "~/components/visit-actions";
import { VisitSummary } from "~/components/visit-summary";
import { APPOINTMENT_TABS, parseAppointmentTab } from "~/domain/appointments";
import { requireUser } from "#server/accounts/current-user.server";
import { appointmentsPage } from "#server/appointments/appointment-list.server";
import type { Route } from "./+types/appointments";

export const meta: Route.MetaFunction = () => [
  { title: "Your appointments | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const url = new URL(request.url);
  const tab = parseAppointmentTab(url.searchParams.get("tab"));
  const page = Number(url.searchParams.get("page") ?? "1");
  const list = await appointmentsPage(context.services, user.guestId, tab, page);
  return { tab, homeClinicId: user.centerId || null, ...list };
}

export default function Appointments({ loaderData }: Route.ComponentProps) {
  const { tab, visits, page, pages, counts, homeClinicId, booked, history } = loaderData;
  // The guest's booked appointment comes first, unless this page's list already shows it: on the
  // upcoming tab with its actions, on the past tab as a way to it.
  const bookedElsewhere = booked && !visits.some((v) => v.id === booked.id) ? booked : null;
  const bookLink = homeClinicId
    ? `${href("/appointment/service")}?id=${encodeURIComponent(homeClinicId)}`
    : href("/locations");
  // Past visits under month headings, newest first (the list is already in that order).
  const months = tab === "past" ? [...new Set(visits.map((v) => v.month))] : [null];
  return (
    <section className="page narrow">
      <AccountNav />
      <h1>Your appointments</h1>
      {history.total > 0 ? (
        <p className="visit-history">
          {history.total === 1
            ? `1 appointment, on ${history.first}.`
            : `${history.total} appointments: the first on ${history.first}, the latest on ${history.latest}.`}
        </p>
      ) : null}
      {bookedElsewhere && tab === "upcoming" ? (
        <section aria-labelledby="booked-visit" className="visit-card">
          <h2 id="booked-visit">
            {bookedElsewhere.upcoming ? "Your next appointment" : "Your appointment still open at the clinic"}
          </h2>
          <VisitSummary visit={bookedElsewhere} headingLevel={3} />
          <VisitActions
            visit={bookedElsewhere}
            paths={bookedElsewhere.paths}
            changeable={bookedElsewhere.changeable}
            rebookable={false}
          />
        </section>
      ) : bookedElsewhere ? (
        <p className="notice">
          You have an appointment booked: {bookedElsewhere.when}. <Link to="?tab=upcoming">See it under Upcoming</Link>
        </p>
      ) : null}
      <nav aria-label="Appointments" className="view-toggle">
        {APPOINTMENT_TABS.map((t) => (
          <ButtonLink
            key={t.key}
            id={`tab-${t.id}`}
            data-view={t.view}
            to={`?tab=${t.key}`}
            aria-current={t.key === tab ? "page" : undefined}
          >
            {t.label} <span className="muted">({counts[t.key]})</span>
          </ButtonLink>
        ))}
      </nav>
      {visits.length === 0 ? (
        <div className="notice">
          <p>{tab === "upcoming" ? "You have no upcoming appointments." : "No past appointments yet."}</p>
          <div className="button-row">
            <ButtonLink className="button" to={bookLink}>
              {booked ? "Book another treatment" : "Book a treatment"}
            </ButtonLink>
          </div>
        </div>
      ) : (
        months.map((month) => (
          <section key={month ?? "all"} aria-label={month ?? "Upcoming appointments"}>
            {month ? <h2 className="month">{month}</h2> : null}
            <ul className="visit-list">
              {visits
                .filter((v) => month === null || v.month === month)
                .map((visit) => (
                  <li key={visit.id} className="visit-card">
                    <VisitSummary visit={visit} headingLevel={month ? 3 : 2} />
                    <VisitActions
                      visit={visit}
                      paths={visit.paths}
                      changeable={visit.changeable}
                      rebookable={visit.rebookable}
                    />
                  </li>
                ))}
            </ul>
          </section>
        ))
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="pager">
          {page > 1 ? <Link to={`?tab=${tab}&page=${page - 1}`}>Previous</Link> : null}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? <Link to={`?tab=${tab}&page=${page + 1}`}>Next</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
