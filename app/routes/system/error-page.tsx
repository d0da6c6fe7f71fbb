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
  // Only a visitor who asked for the countdown gets the redirect; it works without JavaScript.
  ...(data?.seconds ? [{ httpEquiv: "refresh", content: `${data.seconds};url=${data.target}` } as const] : []),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const code = toErrorPageCode(url.searchParams.get("error"));
  // Only the two known values mean anything; any other value is ignored, never followed.
  const redirectKind = url.searchParams.get("redirect") === "samesite" ? "samesite" : "webstore";
  // The page stays until the visitor chooses (WCAG 2.2.1). The countdown back is theirs to start
  // (`auto=1`) and to stop; both links carry the way back in `back` (a path of this site only), since
  // the Referer is then the error page itself.
  const counting = url.searchParams.get("auto") === "1";
  const fromThisPage = url.searchParams.has("back") || counting || url.searchParams.get("stay") === "1";
  const referer = fromThisPage ? safeLocalPath(url.searchParams.get("back"), "") || null : sameSiteReferer(request);
  // samesite and a known guest: back to their visits on this site, read first (spec section 4).
  const user = redirectKind === "samesite" ? await currentUser(context) : null;
  const visits = user ? await visitsWayBack(context.services, user.guestId) : null;
  const wayBack =
    visits?.to ?? (redirectKind === "samesite" && referer && !referer.startsWith(href("/error")) ? referer : href("/"));
  // Every way back is checked, the ones this page makes too: a path of this site or home.
  const target = safeLocalPath(wayBack, href("/"));
  const page = code
    ? ERROR_PAGES[code]
    : { title: "Something went wrong", message: "Something went wrong, please try again" };
  const link = (auto: boolean) =>
    `${href("/error")}?${new URLSearchParams({
      ...(code ? { error: code } : {}),
      redirect: redirectKind,
      ...(auto ? { auto: "1" } : {}),
      ...(target !== href("/") ? { back: target } : {}),
    })}`;
  return data(
    {
      ...page,
      code,
      target,
      toVisits: visits !== null,
      booked: visits?.booked ? { when: visits.booked.when, clinic: visits.booked.clinic?.name ?? null } : null,
      seconds: counting ? ERROR_REDIRECT_SECONDS : null,
      startHref: link(true),
      stopHref: link(false),
    },
    { status: code ? 200 : 400, headers: { "cache-control": "no-store" } },
  );
}

export default function ErrorPage({ loaderData }: Route.ComponentProps) {
  const { title, message, target, toVisits, booked, seconds, code, startHref, stopHref } = loaderData;
  return (
    <section className="page narrow error-page">
      <h1>{title}</h1>
      <p role="alert">{message}</p>
      {seconds ? (
        <p className="countdown-line" role="status">
          Taking you back in <span className="countdown" data-seconds={seconds} aria-hidden="true" /> seconds.
          <span className="visually-hidden">You will be taken back in {seconds} seconds.</span>{" "}
          {/* A document load, with or without JavaScript: only a new page drops the refresh. */}
          <a href={stopHref}>Stop the countdown</a>
        </p>
      ) : (
        <p>
          Take your time: this page stays until you go back.{" "}
          <a href={startHref}>Take me back in {ERROR_REDIRECT_SECONDS} seconds</a>
        </p>
      )}
      {code === "duplicate-email" ? (
        // The email has an account here: sign in and the booking goes on, or set a password first.
        <div className="actions">
          <ButtonLink
            className="button"
            to={`${href("/login")}?redirectTo=${encodeURIComponent(href("/appointment/details"))}`}
          >
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
