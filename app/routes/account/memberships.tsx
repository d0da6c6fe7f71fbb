import { href } from "react-router";
import { ErrorMessage } from "~/components/error-message";
import { HeldCard, HeldListPage } from "~/components/held-list";
import { MEMBERSHIP_EXCLUSION } from "~/domain/memberships";
import { endDateLabel, readEndDate, startDateLabel } from "~/domain/sentinel-dates";
import { requireUser } from "#server/accounts/current-user.server";
import { accountMemberships } from "#server/memberships/memberships.server";
import { orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/memberships";

export const meta: Route.MetaFunction = () => [
  { title: "Your memberships | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const { memberships } = await orUnavailable(() => accountMemberships(context.services, user));
  // Zenoti's stand-in dates are no dates: no "Member since Jan 1, 2000", an open end is "No expiry".
  const views = memberships.map((m) => {
    const end = readEndDate(m.expires);
    const ending = !end
      ? null
      : m.active
        ? { term: "Ends", when: endDateLabel(m.expires)! }
        : end.kind === "day"
          ? { term: "Ended", when: endDateLabel(m.expires)! }
          : null;
    return { ...m, since: startDateLabel(m.memberSince), ending };
  });
  return { memberships: views };
}

export default function AccountMemberships({ loaderData }: Route.ComponentProps) {
  return (
    <HeldListPage
      title="Your memberships"
      items={loaderData.memberships}
      empty={{ text: "You have no membership yet.", to: href("/memberships"), link: "See the plans at your clinic" }}
      card={(m) => (
        <HeldCard
          key={m.id}
          title={m.name}
          facts={[
            [
              "Status",
              <span key="status" className={`status ${m.active ? "status-booked" : "status-cancelled"}`}>
                {m.status}
              </span>,
            ],
            ["Billing", m.recurring ? "Renews automatically" : "Does not renew"],
            ["Member since", m.since],
            ...(m.ending ? [[m.ending.term, m.ending.when] as const] : []),
            [
              "Credit balance",
              m.credit
                ? `${m.credit.total} (treatments ${m.credit.service}, products ${m.credit.product}, other ${m.credit.other})`
                : "None",
            ],
          ]}
        />
      )}
      footer={<p className="notice">{MEMBERSHIP_EXCLUSION} Credits and member prices are used at the clinic.</p>}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
