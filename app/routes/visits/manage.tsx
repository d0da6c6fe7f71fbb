import { href, Link } from "react-router";
import { VisitActions } from "~/components/visit-actions";
import { VisitError } from "~/components/visit-error";
import { VisitSummary } from "~/components/visit-summary";
import { LATE_CHANGE_FEE_CENTS, LATE_CHANGE_HOURS } from "~/domain/appointments";
import { formatMoney } from "~/lib/money";
import { requireVisitAccess } from "#server/appointments/access.server";
import { LINK_PAGE_HEADERS } from "#server/link-pages.server";
import { isChangeable, toVisitView } from "#server/appointments/visits.server";
import type { Route } from "./+types/manage";

export const meta: Route.MetaFunction = () => [
  { title: "Your appointment | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => LINK_PAGE_HEADERS;

/**
 * One visit, opened by the link in its confirmation, without signing in: only that visit, with what
 * can be done with it. The guest's other visits are never shown here.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await requireVisitAccess(request, context, params);
  const { visit } = access;
  return {
    visit: toVisitView(visit),
    paths: access.paths,
    changeable: isChangeable(visit),
    rebookable: !visit.upcoming,
    signedIn: Boolean(access.user),
  };
}

export default function ManageVisit({ loaderData }: Route.ComponentProps) {
  const { visit, paths, changeable, rebookable, signedIn } = loaderData;
  return (
    <section className="page narrow">
      <h1>Your appointment</h1>
      <div className="visit-card">
        <VisitSummary visit={visit} />
        <VisitActions visit={visit} paths={paths} changeable={changeable} rebookable={rebookable} />
      </div>
      {changeable ? (
        <p>
          Need to change plans? Reschedule or cancel at least {LATE_CHANGE_HOURS} hours ahead to avoid the{" "}
          {formatMoney(LATE_CHANGE_FEE_CENTS)} fee.
        </p>
      ) : null}
      <p className="muted">
        {signedIn ? (
          <Link to={href("/account/appointments")}>See all your appointments</Link>
        ) : (
          <>
            This page shows this appointment only. <Link to={href("/login")}>Sign in</Link> to see all of yours.
          </>
        )}
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <VisitError error={error} />;
}
