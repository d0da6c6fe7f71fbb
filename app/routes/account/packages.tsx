import { href, Link } from "react-router";
import { AccountNav } from "~/components/account-nav";
import { ErrorMessage } from "~/components/error-message";
import { endDateLabel } from "~/domain/sentinel-dates";
import { requireUser } from "#server/accounts/current-user.server";
import { accountPackages } from "#server/purchases/account.server";
import { orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/packages";

export const meta: Route.MetaFunction = () => [
  { title: "Your packages | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const packages = await orUnavailable(() => accountPackages(context.services, user));
  // Zenoti's no-end date reads "No expiry", not "Jan 1, 2100".
  return { packages: packages.map((p) => ({ ...p, useBy: endDateLabel(p.validUntil) })) };
}

export default function AccountPackages({ loaderData }: Route.ComponentProps) {
  const { packages } = loaderData;
  return (
    <section className="page narrow">
      <AccountNav />
      <h1>Your packages</h1>
      {packages.length === 0 ? (
        <div className="notice">
          <p>You have no package yet.</p>
          <p>
            <Link to={href("/packages")}>See the packages at your clinic</Link>
          </p>
        </div>
      ) : (
        <ul className="visit-list">
          {packages.map((p) => (
            <li key={p.id} className="visit-card">
              <h2>{p.name}</h2>
              <dl className="facts">
                <dt>Sessions left</dt>
                <dd>{p.left}</dd>
                {p.useBy ? (
                  <>
                    <dt>Use by</dt>
                    <dd>{p.useBy}</dd>
                  </>
                ) : null}
                {p.paid ? (
                  <>
                    <dt>Paid</dt>
                    <dd>{p.paid}</dd>
                  </>
                ) : null}
              </dl>
              <ul>
                {p.sessions.map((s) => (
                  <li key={s.name}>
                    {s.name}: {s.used} of {s.total} used, {s.left} left
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <p>Book a session as usual: at a clinic where your package applies, it pays for the treatment.</p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
