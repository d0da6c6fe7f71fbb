import { href, isRouteErrorResponse, useLocation } from "react-router";
import { ButtonLink } from "./button-link";
import { formatPhone } from "~/lib/phone";

/** The page shown for an error thrown by a loader or action: a clear message, never a stack trace. */
export function ErrorMessage({ error }: { error: unknown }) {
  const location = useLocation();
  let title = "Something went wrong, please try again";
  let detail = "We could not show this page. Please try again in a moment.";
  let otherClinics = false;
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "We can't find that page";
      detail = typeof error.data === "string" ? error.data : "The link may be old or mistyped.";
    } else if (error.status === 429) {
      title = "Please wait a moment";
      detail =
        (error.data as { message?: string } | null)?.message ??
        "Too many attempts. Please wait a minute and try again.";
    } else if (error.status === 503 && (error.data as { clinicUnavailable?: boolean } | null)?.clinicUnavailable) {
      // A clinic whose time zone no one has named: its times could not be told right (decision 035).
      const clinic = error.data as { name: string; phone: string };
      otherClinics = true;
      title = `Online booking is unavailable at ${clinic.name}`;
      detail = clinic.phone
        ? `We can't show this clinic's times right now. Please call ${formatPhone(clinic.phone)} to book, or choose another clinic.`
        : "We can't show this clinic's times right now. Please call the clinic to book, or choose another clinic.";
    } else if (error.status === 503 && (error.data as { busy?: boolean } | null)?.busy) {
      // The booking system's call limit for the whole chain: nothing is broken, it is busy.
      title = "We're very busy right now";
      detail = "Many people are booking at once. Nothing you chose is lost. Please try again in a minute.";
    } else if (error.status === 503) {
      title = "We can't reach our booking system right now";
      detail = "Nothing you chose is lost. Please try again in a moment.";
    } else if (error.status < 500) {
      title = "That request didn't look right";
      detail = typeof error.data === "string" ? error.data : "Please check the link and try again.";
    }
  }
  return (
    <section className="page narrow">
      <h1>{title}</h1>
      <p>{detail}</p>
      <div className="actions">
        {otherClinics ? (
          <ButtonLink className="button" to={href("/locations")}>
            See our other clinics
          </ButtonLink>
        ) : isRouteErrorResponse(error) && error.status === 503 ? (
          // The same address loaded again, the whole page: a retry that works without JavaScript.
          <ButtonLink className="button" to={`${location.pathname}${location.search}`} reloadDocument>
            Try again
          </ButtonLink>
        ) : null}
        <ButtonLink to={href("/")} className="button button-secondary">
          Go to the home page
        </ButtonLink>
      </div>
    </section>
  );
}
