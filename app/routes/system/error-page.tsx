import { data, href, Link } from "react-router";
import { ERROR_PAGES, ERROR_REDIRECT_SECONDS, toErrorPageCode } from "~/domain/error-codes";
import { sameSiteReferer } from "#server/redirects.server";
import type { Route } from "./+types/error-page";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `${data.title} | Glow Clinic` : "Something went wrong | Glow Clinic" },
  { name: "robots", content: "noindex" },
  ...(data ? [{ httpEquiv: "refresh", content: `${data.seconds};url=${data.target}` } as const] : []),
];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const code = toErrorPageCode(url.searchParams.get("error"));
  // Only the two known values mean anything; any other value is ignored, never followed.
  const redirectKind = url.searchParams.get("redirect") === "samesite" ? "samesite" : "webstore";
  const referer = sameSiteReferer(request);
  const target = redirectKind === "samesite" && referer && !referer.startsWith(href("/error")) ? referer : href("/");
  const page = code ? ERROR_PAGES[code] : { title: "Something went wrong", message: "Something went wrong, please try again" };
  return data(
    { ...page, code, target, seconds: ERROR_REDIRECT_SECONDS },
    { status: code ? 200 : 400, headers: { "cache-control": "no-store" } },
  );
}

export default function ErrorPage({ loaderData }: Route.ComponentProps) {
  const { title, message, target, seconds, code } = loaderData;
  return (
    <section className="page narrow error-page">
      <h1>{title}</h1>
      <p role="alert">{message}</p>
      <p className="countdown-line">
        Taking you back in{" "}
        <span className="countdown" data-seconds={seconds} aria-hidden="true" /> seconds.
        <span className="visually-hidden">You will be taken back in {seconds} seconds.</span>
      </p>
      {code === "duplicate-email" ? (
        // The email has an account here: sign in and the booking goes on, or set a password first.
        <p className="actions">
          <Link className="button" to={`${href("/login")}?redirectTo=${encodeURIComponent(href("/appointment/details"))}`}>
            Sign in
          </Link>
          <Link className="button button-secondary" to={href("/forgot-password")}>
            Set or reset your password
          </Link>
        </p>
      ) : null}
      <p className="actions">
        <Link className={code === "duplicate-email" ? "button-secondary button" : "button"} to={target}>
          Go back
        </Link>
      </p>
    </section>
  );
}
