import { href, Link } from "react-router";
import { formatPhone } from "~/lib/phone";
import type { VisitView } from "#server/appointments/visits.server";

/** One visit's facts: when (in the clinic's zone), where, what, with whom, its status and discount. */
export function VisitSummary({ visit, headingLevel = 2 }: { visit: VisitView; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="visit-summary">
      <Heading className="visit-when">
        {visit.when} <span className="muted">({visit.timeZone})</span>
      </Heading>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span className={`status status-${visit.statusLabel.toLowerCase().replace(/\s+/g, "-")}`}>
            {visit.statusLabel}
          </span>
        </dd>
        <dt>What</dt>
        <dd>
          <ul>
            {visit.services.map((name, i) => (
              <li key={`${i}-${name}`}>{name}</li>
            ))}
          </ul>
        </dd>
        {visit.nurse ? (
          <>
            <dt>Nurse</dt>
            <dd>{visit.nurse}</dd>
          </>
        ) : null}
        {visit.clinic ? (
          <>
            <dt>Where</dt>
            <dd>
              <Link to={href("/locations/:slug", { slug: visit.clinic.slug })}>{visit.clinic.name}</Link>
              <br />
              {visit.clinic.address}
              <br />
              <a href={`tel:+1${visit.clinic.phone}`}>{formatPhone(visit.clinic.phone)}</a>
            </dd>
          </>
        ) : null}
        {visit.discount ? (
          <>
            <dt>Discount</dt>
            <dd>{visit.discount}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
