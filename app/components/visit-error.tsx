import { href, isRouteErrorResponse, useRouteLoaderData } from "react-router";
import { ButtonLink } from "./button-link";
import { ErrorMessage } from "./error-message";

/**
 * The error page of a visit's pages: a manage link that is no longer good, or a visit that is not
 * there, say so and where to go; anything else is the usual error page.
 */
export function VisitError({ error }: { error: unknown }) {
  const signedIn = Boolean((useRouteLoaderData("root") as { signedIn?: boolean } | undefined)?.signedIn);
  if (isRouteErrorResponse(error) && error.status === 404) {
    const message = typeof error.data === "string" ? error.data : "We can't find that appointment.";
    return (
      <section className="page narrow">
        <h1>{message}</h1>
        <p>
          Links in your confirmation email open your appointment for a week after it.{" "}
          {signedIn ? "Your account lists" : "Sign in to see"} all your appointments, or call your clinic and we'll
          help.
        </p>
        <div className="actions">
          {signedIn ? (
            <ButtonLink className="button" to={`${href("/account/appointments")}?tab=upcoming`}>
              Your appointments
            </ButtonLink>
          ) : (
            <ButtonLink className="button" to={href("/login")}>
              Sign in
            </ButtonLink>
          )}
          <ButtonLink className="button button-secondary" to={href("/locations")}>
            Find your clinic
          </ButtonLink>
        </div>
      </section>
    );
  }
  return <ErrorMessage error={error} />;
}
