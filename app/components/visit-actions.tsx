import { Link } from "react-router";
import type { VisitPaths } from "#server/appointments/access.server";
import type { VisitView } from "#server/appointments/visits.server";

/** What a guest can do with a visit: move, cancel or add to a calendar while booked; book again after. */
export function VisitActions({ visit, paths, changeable, rebookable }: { visit: VisitView; paths: VisitPaths; changeable: boolean; rebookable: boolean }) {
  if (!changeable && !rebookable && visit.status !== 0) return null;
  return (
    <p className="actions visit-actions">
      {changeable ? (
        <>
          <Link className="button" to={paths.reschedule} aria-label={`Reschedule the appointment on ${visit.when}`}>
            Reschedule
          </Link>
          <Link className="button button-secondary" to={paths.cancel} aria-label={`Cancel the appointment on ${visit.when}`}>
            Cancel
          </Link>
        </>
      ) : null}
      {visit.status === 0 ? (
        <a className="button button-secondary" href={paths.calendar} download="glow-clinic-appointment.ics">
          Add to calendar
        </a>
      ) : null}
      {rebookable ? (
        <Link className="button" to={paths.rebook} aria-label={`Book again: ${visit.services.join(", ")}`}>
          Book again
        </Link>
      ) : null}
    </p>
  );
}

/** Why a visit can't be changed any more, and the way back to it. */
export function VisitUnchangeable({ message, home }: { message: string; home: string }) {
  return (
    <div className="notice" role="status">
      <p>{message}</p>
      <p>
        <Link className="button" to={home}>
          Back to your appointment
        </Link>
      </p>
    </div>
  );
}
