import { data, href } from "react-router";
import { ButtonLink } from "~/components/button-link";
import { ERROR_PAGES, ERROR_REDIRECT_SECONDS, toErrorPageCode } from "~/domain/error-codes";
import { visitsWayBack } from "#server/appointments/appointment-list.server";
import { safeLocalPath, sameSiteReferer } from "#server/redirects.server";
import { currentUser } from "#server/request-context.server";
import type { Route } from "./+types/error-page";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `${data.title} | Glow Clinic` : "Something went wrong | Glow Clinic" },
  { name: "robots", content: "noindex" },
  // The countdown's redirect works without JavaScript; a visitor who chose to stay gets none.
  ...(data?.seconds ? [{ httpEquiv: "refresh", content: `${data.seconds};url=${data.target}` } as const] : []),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const code = toErrorPageCode(url.searchParams.get("error"));
  // Only the two known values mean anything; any other value is ignored, never followed.
  const redirectKind = url.searchParams.get("redirect") === "samesite" ? "samesite" : "webstore";
  // "Stay on this page" (WCAG 2.2.1): the same page without the countdown, the way back kept in
  // `back` (a path of this site only) since the Referer is now the error page itself.
  const staying = url.searchParams.get("stay") === "1";
  const referer = staying ? safeLocalPath(url.searchParams.get("back"), "") || null : sameSiteReferer(request);
  // samesite and a known guest: back to their visits on this site, read first (spec section 4).
  const user = redirectKind === "samesite" ? await currentUser(context) : null;
  const visits = user ? await visitsWayBack(context.services, user.guestId) : null;
  const wayBack = visits?.to ?? (redirectKind === "samesite" && referer && !referer.startsWith(href("/error")) ? referer : href("/"));
  // Every way back is checked, the ones this page makes too: a path of this site or home.
  const target = safeLocalPath(wayBack, href("/"));
  const page = code ? ERROR_PAGES[code] : { title: "Something went wrong", message: "Something went wrong, please try again" };
  const stay = new URLSearchParams({ ...(code ? { error: code } : {}), redirect: redirectKind, stay: "1", ...(target !== href("/") ? { back: target } : {}) });
  return data(
    {
      ...page,
      code,
      target,
      toVisits: visits !== null,
      booked: visits?.booked ? { when: visits.booked.when, clinic: visits.booked.clinic?.name ?? null } : null,
      seconds: staying ? null : ERROR_REDIRECT_SECONDS,
      stayHref: `${href("/error")}?${stay}`,
    },
    { status: code ? 200 : 400, headers: { "cache-control": "no-store" } },
  );
}

export default function ErrorPage({ loaderData }: Route.ComponentProps) {
  const { title, message, target, toVisits, booked, seconds, code, stayHref } = loaderData;
  return (
    <section className="page narrow error-page">
      <h1>{title}</h1>
      <p role="alert">{message}</p>
      {seconds ? (
        <p className="countdown-line">
          Taking you back in{" "}
          <span className="countdown" data-seconds={seconds} aria-hidden="true" /> seconds.
          <span className="visually-hidden">You will be taken back in {seconds} seconds.</span>{" "}
          {/* A document load, with or without JavaScript: only a new page drops the refresh. */}
          <a href={stayHref}>Stay on this page</a>
        </p>
      ) : (
        <p>Take your time: this page stays until you go back.</p>
      )}
      {code === "duplicate-email" ? (
        // The email has an account here: sign in and the booking goes on, or set a password first.
        <div className="actions">
          <ButtonLink className="button" to={`${href("/login")}?redirectTo=${encodeURIComponent(href("/appointment/details"))}`}>
            Sign in
          </ButtonLink>
          <ButtonLink className="button button-secondary" to={href("/forgot-password")}>
            Set or reset your password
          </ButtonLink>
        </div>
      ) : null}
      {booked ? (
        <p>
          Your booked appointment: {booked.when}
          {booked.clinic ? ` at ${booked.clinic}` : ""}.
        </p>
      ) : null}
      <div className="actions">
        <ButtonLink className={code === "duplicate-email" ? "button-secondary button" : "button"} to={target}>
          {toVisits ? "Back to your appointments" : "Go back"}
        </ButtonLink>
      </div>
    </section>
  );
}
