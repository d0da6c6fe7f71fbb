import type { VisitPaths } from "#server/appointments/access.server";
import type { VisitView } from "#server/appointments/visits.server";
import { ButtonLink } from "./button-link";

/** What a guest can do with a visit: move, cancel or add to a calendar while booked; book again after. */
export function VisitActions({
  visit,
  paths,
  changeable,
  rebookable,
}: {
  visit: VisitView;
  paths: VisitPaths;
  changeable: boolean;
  rebookable: boolean;
}) {
  if (!changeable && !rebookable && visit.status !== 0) return null;
  return (
    <div className="actions visit-actions">
      {changeable ? (
        <>
          <ButtonLink
            className="button"
            to={paths.reschedule}
            aria-label={`Reschedule the appointment on ${visit.when}`}
          >
            Reschedule
          </ButtonLink>
          <ButtonLink
            className="button button-secondary"
            to={paths.cancel}
            aria-label={`Cancel the appointment on ${visit.when}`}
          >
            Cancel
          </ButtonLink>
        </>
      ) : null}
      {visit.status === 0 ? (
        // The calendar file is sent as an attachment: the browser saves it and stays on this page.
        <ButtonLink className="button button-secondary" to={paths.calendar} reloadDocument>
          Add to calendar
        </ButtonLink>
      ) : null}
      {rebookable ? (
        <ButtonLink className="button" to={paths.rebook} aria-label={`Book again: ${visit.services.join(", ")}`}>
          Book again
        </ButtonLink>
      ) : null}
    </div>
  );
}

/** Why a visit can't be changed any more, and the way back to it. */
export function VisitUnchangeable({ message, home }: { message: string; home: string }) {
  return (
    <div className="notice" role="status">
      <p>{message}</p>
      <div className="button-row">
        <ButtonLink className="button" to={home}>
          Back to your appointment
        </ButtonLink>
      </div>
    </div>
  );
}
