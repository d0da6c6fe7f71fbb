import { data, href, Link } from "react-router";
import { ButtonLink } from "~/components/button-link";
import { ErrorMessage } from "~/components/error-message";
import {
  REFERRAL_FRIEND_PRICE,
  REFERRAL_CODE_MESSAGES,
  REFERRAL_LIST_PRICE,
  REFERRAL_MESSAGES,
  REFERRAL_REWARD_POINTS,
} from "~/domain/referrals";
import { formatMoney } from "~/lib/money";
import { lookUpReferralCode } from "#server/referrals/referrals.server";
import { currentUser, requestSession, visitAttribution } from "#server/request-context.server";
import { orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/landing";

export const meta: Route.MetaFunction = ({ data: page }) => [
  { title: page?.found ? `${page.firstName} sent you $50 laser facial | Glow Clinic` : "Referral link | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

const NOT_FOUND_WORDS = {
  malformed: REFERRAL_CODE_MESSAGES.malformed,
  unknown: REFERRAL_MESSAGES.unknown,
  "used-up": `${REFERRAL_CODE_MESSAGES.usedUp} Ask your friend for a new one, or book at our usual price.`,
} as const;

/**
 * The friend's landing page (spec section 2): who referred them and the offer. A code that refers
 * no one gets a friendly page with a 404; a good one is kept for the visit, so the booking and the
 * registration that follow carry it.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await orUnavailable(() => lookUpReferralCode(context.services, params.code));
  if (!found.ok) return data({ found: false as const, message: NOT_FOUND_WORDS[found.reason] }, { status: 404 });
  const { owner } = found;
  const user = await currentUser(context);
  const own = user?.id === owner.accountId;
  if (!own) requestSession(context).set("visit", { ...visitAttribution(context), ref: owner.code });
  const center = await orUnavailable(() => context.services.catalog.getCenter(owner.centerId));
  return {
    found: true as const,
    own,
    code: owner.code,
    firstName: owner.firstName,
    clinic: center ? { id: center.id, name: center.name } : null,
    price: formatMoney(REFERRAL_FRIEND_PRICE),
    listPrice: formatMoney(REFERRAL_LIST_PRICE),
  };
}

export default function ReferralLanding({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) {
    return (
      <section className="page narrow">
        <h1>This referral link doesn&rsquo;t work</h1>
        <p>{loaderData.message}</p>
        <p>
          <Link to={href("/locations")}>Find a clinic</Link> to book at our usual prices.
        </p>
      </section>
    );
  }
  const { firstName, clinic, price, listPrice, code, own } = loaderData;
  return (
    <section className="page narrow referral-landing">
      <p className="muted">A gift from {firstName}</p>
      <h1>Your first signature laser facial for {price}</h1>
      <p className="lead">
        {firstName} thinks you&rsquo;ll love it here. Your first signature laser facial is <strong>{price}</strong>{" "}
        instead of <s>{listPrice}</s>
        {clinic ? <> at {clinic.name} or any of our clinics</> : null}.
      </p>
      {own ? (
        <p className="notice" role="status">
          This is your own link: share it with a friend. You can&rsquo;t use your own referral.
        </p>
      ) : null}
      <div className="actions">
        {clinic ? (
          <ButtonLink to={`${href("/appointment/service")}?id=${encodeURIComponent(clinic.id)}`} className="button">
            Book your {price} facial
          </ButtonLink>
        ) : null}
        <ButtonLink to={href("/locations")} className="button button-secondary">
          Choose a clinic
        </ButtonLink>
        <ButtonLink to={`${href("/register")}?ref=${encodeURIComponent(code)}`} className="button button-secondary">
          Create an account
        </ButtonLink>
      </div>
      <h2>How it works</h2>
      <ol>
        <li>Book the Signature Laser Facial - New Client at a clinic near you: the {price} price shows at checkout.</li>
        <li>Come in for your facial: a skin consultation, then a 15-minute laser treatment.</li>
        <li>
          {firstName} earns {REFERRAL_REWARD_POINTS.toLocaleString("en-US")} loyalty points when your visit is complete.
        </li>
      </ol>
      <h2>The rules</h2>
      <ul>
        <li>For new clients only, once per person: the offer is for a first visit.</li>
        <li>The offer is for the signature laser facial; enhancements are at their usual price.</li>
        <li>
          Referral code <strong>{code}</strong> is applied for you; you can also type it when you create an account.
        </li>
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
