import { href, Link } from "react-router";
import { siteOrigin } from "#server/site.server";
import { CANCELLATION_POLICY } from "~/domain/booking";
import { formatMoney } from "~/lib/money";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: "Terms of Use | Glow Clinic" },
  {
    name: "description",
    content:
      "The terms that apply when you use the Glow Clinic website to book treatments and buy gift cards, packages and memberships.",
  },
  ...(data ? [{ tagName: "link", rel: "canonical", href: `${data.origin}/terms` }] : []),
];

export function loader({ request, context }: Route.LoaderArgs) {
  return { origin: siteOrigin(request, context) };
}

export default function Terms() {
  return (
    <article className="page legal">
      <h1>Terms of Use</h1>
      <p className="muted">Last updated: November 1, 2026</p>
      <p>
        These terms apply when you use the Glow Clinic website to find a clinic, book or manage an appointment, or buy
        gift cards, packages or memberships. By using the site you agree to them. If you do not agree, please do not use
        the site.
      </p>

      <h2>1. Who may use the site</h2>
      <p>
        You must have reached the age of majority where you live (18 in most US states; 19 in Alabama and Nebraska; 21
        in Mississippi) to create an account, book a treatment or make a purchase. By doing any of these you confirm
        that you have. We may ask for photo ID at your visit and may decline to treat anyone who has not reached the age
        of majority.
      </p>

      <h2>2. Your account</h2>
      <p>
        Keep your password to yourself and tell us at once if you think someone else has used your account. You are
        responsible for bookings and purchases made with it. The details you give us must be true and current, and you
        may hold only one account.
      </p>

      <h2>3. Booking an appointment</h2>
      <ul>
        <li>
          When you choose a time, we hold it for you for a few minutes while you finish booking. If the hold runs out,
          the time is released and you will need to choose again.
        </li>
        <li>
          Some clinics take payment when you book; others ask for a card to hold the appointment and take payment at
          your visit. The booking page tells you which applies before you confirm.
        </li>
        <li>
          Treatments are given by licensed nurses, who may decide at your visit that a treatment is not suitable for
          you. A consultation is part of every first visit.
        </li>
        <li>Please arrive 10 minutes before your first facial, with photo ID if you are a new client.</li>
      </ul>

      <h2>4. Cancelling, rescheduling and the no-show fee</h2>
      <p>
        You can cancel or reschedule from your account or by calling your clinic. If you cancel or reschedule less than{" "}
        {CANCELLATION_POLICY.windowHours} hours before your appointment, do not come, or arrive more than{" "}
        {CANCELLATION_POLICY.lateMinutes} minutes late, we may charge a {formatMoney(CANCELLATION_POLICY.feeCents)} fee
        to the card on file.
      </p>

      <h2>5. Prices, promotions and gift cards</h2>
      <ul>
        <li>
          Prices are in US dollars and may differ between clinics. The price shown when you book is the price you pay.
        </li>
        <li>
          Promo codes have their own conditions, cannot be combined unless we say so, and may not be available on every
          date.
        </li>
        <li>The new-client offer expires 60 days after purchase and is forfeited if unused.</li>
        <li>Gift cards are not redeemable for cash except where the law requires.</li>
      </ul>

      <h2>6. Memberships, loyalty points and referrals</h2>
      <p>
        Memberships renew until you cancel them under the membership's own terms. Membership does not cover sculpting or
        laser hair removal. Loyalty points are for members only, are used in clinic, are worth $1 for every 100 points,
        and are not redeemable for cash, membership dues, gift cards or online products. When a friend you refer has
        their first signature laser facial, you receive 5,000 points.
      </p>

      <h2>7. Using the site fairly</h2>
      <p>
        Do not misuse the site: no automated booking, no attempts to reach parts of it that are not meant for you, no
        holding times you do not mean to book. We may suspend accounts that do.
      </p>

      <h2>8. Medical information</h2>
      <p>
        What the site says about treatments is general information, not medical advice. Tell your nurse about any
        medication, condition or recent treatment before yours begins.
      </p>

      <h2>9. Liability</h2>
      <p>
        We take care to keep the site accurate and available but cannot promise it will always be. To the extent the law
        allows, we are not liable for losses caused by the site being unavailable or by information on it. Nothing in
        these terms limits liability that cannot be limited by law.
      </p>

      <h2>10. Changes and contact</h2>
      <p>
        We may update these terms; the date above shows when. Questions: write to legal@glowclinic.example or call any
        clinic. See also our <Link to={href("/privacy")}>Privacy Policy</Link>.
      </p>
    </article>
  );
}
