import { href } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { HeldCard, HeldListPage } from "~/components/held-list";
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
  return (
    <HeldListPage
      title="Your packages"
      items={loaderData.packages}
      empty={{ text: "You have no package yet.", to: href("/packages"), link: "See the packages at your clinic" }}
      card={(p) => (
        <HeldCard
          key={p.id}
          title={p.name}
          facts={[
            ["Sessions left", p.left],
            ["Use by", p.useBy],
            ["Paid", p.paid],
          ]}
        >
          <ul>
            {p.sessions.map((s) => (
              <li key={s.name}>
                {s.name}: {s.used} of {s.total} used, {s.left} left
              </li>
            ))}
          </ul>
        </HeldCard>
      )}
      footer={<p>Book a session as usual: at a clinic where your package applies, it pays for the treatment.</p>}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
