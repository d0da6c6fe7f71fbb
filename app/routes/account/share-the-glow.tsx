import { href } from "react-router";
import { AccountNav } from "~/components/account-nav";
import { ErrorMessage } from "~/components/error-message";
import { HeldCard } from "~/components/held-list";
import { ShareActions } from "~/components/share-actions";
import { REFERRAL_REWARD_POINTS, referralPointsWords, shareLinks } from "~/domain/referrals";
import { pointsValueCents } from "~/domain/memberships";
import { formatDay } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { requireUser } from "#server/accounts/current-user.server";
import { shareTheGlow } from "#server/referrals/referrals.server";
import { siteOrigin } from "#server/site.server";
import { orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/share-the-glow";

export const meta: Route.MetaFunction = () => [
  { title: "Share the glow | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const share = await orUnavailable(() => shareTheGlow(context.services, user));
  const url = `${siteOrigin(request, context)}${href("/refer/:code", { code: share.code })}`;
  return {
    ...share,
    url,
    links: shareLinks({ firstName: share.firstName, url }),
    earned: formatMoney(pointsValueCents(share.tally.points)),
    pointsWords: referralPointsWords(share.loyalty),
  };
}

export default function ShareTheGlowPage({ loaderData }: Route.ComponentProps) {
  const { code, url, links, referrals, tally, earned, pointsWords } = loaderData;
  return (
    <section className="page narrow">
      <AccountNav />
      <h1>Share the glow</h1>
      <p className="lead">
        Your friends get their first signature laser facial for <strong>$50</strong> instead of $275. When a friend has
        that facial, you earn <strong>{REFERRAL_REWARD_POINTS.toLocaleString("en-US")} points</strong> ($50).
      </p>
      <div className="notice referral-code-card">
        <p>
          Your referral code: <strong className="referral-code">{code}</strong>
        </p>
        <ShareActions url={url} message={links.message} email={links.email} sms={links.sms} />
      </div>
      <h2>Your referrals</h2>
      <p>
        {tally.referred === 0
          ? "No friend has used your code yet."
          : `${tally.referred} ${tally.referred === 1 ? "friend has" : "friends have"} used your code; ${tally.rewarded} had their first facial.`}
      </p>
      <p>
        Rewards earned: <strong>{tally.points.toLocaleString("en-US")} points</strong> ({earned})
      </p>
      {pointsWords.length ? (
        <ul className="referral-points" aria-label="Your points">
          {pointsWords.map((words) => (
            <li key={words}>{words}</li>
          ))}
        </ul>
      ) : null}
      {referrals.length ? (
        <ul className="visit-list" aria-label="Friends you referred">
          {referrals.map((r, i) => (
            <HeldCard
              key={`${r.firstName}-${r.since}-${i}`}
              heading="h3"
              title={r.firstName}
              facts={[
                ["Joined", formatDay(new Date(r.since).toISOString().slice(0, 10), "MMM D, YYYY")],
                [
                  "Reward",
                  r.rewarded
                    ? `${r.points.toLocaleString("en-US")} points earned, ${r.credit === "sent" ? "sent to be added to your balance" : "waiting to be added to your balance"}`
                    : "Waiting for their first facial",
                ],
              ]}
            />
          ))}
        </ul>
      ) : null}
      <h2>The rules</h2>
      <ul>
        <li>
          The $50 price is for a friend&rsquo;s first signature laser facial, once per friend, at any of our clinics.
        </li>
        <li>You earn 5,000 points once per friend, when their first facial is completed. 100 points are worth $1.</li>
        <li>
          Points are used in clinic by members; they are not redeemable for cash, dues, gift cards or online products.
        </li>
        <li>You can&rsquo;t refer yourself.</li>
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
