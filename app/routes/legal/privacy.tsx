import { href, Link } from "react-router";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: "Privacy Policy | Glow Clinic" },
  {
    name: "description",
    content: "What personal information Glow Clinic collects when you book online, why, and the choices you have.",
  },
  ...(data ? [{ tagName: "link", rel: "canonical", href: `${data.origin}/privacy` }] : []),
];

export function loader({ request, context }: Route.LoaderArgs) {
  return { origin: siteOrigin(request, context) };
}

export default function Privacy() {
  return (
    <article className="page legal">
      <h1>Privacy Policy</h1>
      <p className="muted">Last updated: November 1, 2026</p>
      <p>
        This policy explains what we collect when you use the Glow Clinic website, what we do with it, and the choices
        you have. It covers the website only; your treatment records are covered by the notice you receive at the
        clinic.
      </p>

      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>What you give us:</strong> your name, email, mobile number, address, home clinic and password when you
          register or book, and any referral code.
        </li>
        <li>
          <strong>Bookings and purchases:</strong> the treatments, times and clinics you choose, promo codes used, and
          your membership, package, gift card and loyalty point balances.
        </li>
        <li>
          <strong>Cards:</strong> card details are entered on our payment provider's secure page and never reach our
          website or its records. We keep only what the provider returns: the card type, last four digits and expiry.
        </li>
        <li>
          <strong>How you use the site:</strong> pages visited and, if you arrived from a partner's link, that partner's
          click id, so the partner can be credited.
        </li>
      </ul>

      <h2>Why we use it</h2>
      <ul>
        <li>To book, change and remind you of appointments, and to take payment.</li>
        <li>To run your account, membership, loyalty points and referrals.</li>
        <li>To send messages you need, such as booking confirmations and one-time codes (always on).</li>
        <li>To send offers by email or text, only if you agree; you can change this in your profile at any time.</li>
        <li>To keep the site secure and working, and to improve it.</li>
      </ul>

      <h2>Cookies and your browser</h2>
      <p>
        We use one essential cookie to keep you signed in and to remember the booking you are making. Its contents are
        encrypted. We do not keep your personal details or password in your browser's storage.
      </p>

      <h2>Who we share it with</h2>
      <p>
        The clinic you book with; the service providers that run our booking system, payments, email and text messages,
        under contract and only for these purposes; a partner that referred you, which learns only that you booked; and
        authorities when the law requires. We do not sell your personal information.
      </p>

      <h2>How long we keep it</h2>
      <p>
        As long as your account is open and for as long afterwards as the law requires for medical and financial
        records. One-time codes expire after 10 minutes.
      </p>

      <h2>Your choices and rights</h2>
      <p>
        You can see and correct your details in your account, change your marketing choices, and ask us for a copy of
        your information or to delete it, by writing to privacy@glowclinic.example. Residents of some states have
        further rights under state law; we honor them.
      </p>

      <h2>Children</h2>
      <p>
        The site is for adults who have reached the age of majority (see our{" "}
        <Link to={href("/terms")}>Terms of Use</Link>). We do not knowingly collect information from children.
      </p>

      <h2>Contact</h2>
      <p>Questions about this policy: privacy@glowclinic.example.</p>
    </article>
  );
}
