import { href, Link } from "react-router";
import { AccountNav } from "~/components/account-nav";
import { ButtonLink } from "~/components/button-link";
import { ErrorMessage } from "~/components/error-message";
import { VisitActions } from "~/components/visit-actions";
import { VisitSummary } from "~/components/visit-summary";
import { requireUser } from "#server/accounts/current-user.server";
import { visitOverview } from "#server/appointments/appointment-list.server";
import { accountLoyalty, accountMemberships } from "#server/memberships/memberships.server";
import { orUnavailable } from "#server/unavailable.server";
import { LOYALTY_RULES, NON_MEMBER_POINTS_NOTE } from "~/domain/memberships";
import { formatDay } from "~/lib/dates";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [
  { title: "Your account | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** The account's home: the next visit and what can be done with it, and the account's sections. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const [{ next, more, booked }, { member, memberships }] = await Promise.all([
    visitOverview(context.services, user.guestId),
    orUnavailable(() => accountMemberships(context.services, user)),
  ]);
  const loyalty = await orUnavailable(() => accountLoyalty(context.services, user, member));
  const active = memberships.filter((m) => m.active).map((m) => ({ name: m.name, status: m.status }));
  return { email: user.email, homeClinicId: user.centerId || null, next, more, booked, active, loyalty };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { email, homeClinicId, next, more, booked, active, loyalty } = loaderData;
  const bookLink = homeClinicId
    ? `${href("/appointment/service")}?id=${encodeURIComponent(homeClinicId)}`
    : href("/locations");
  return (
    <section className="page narrow">
      <AccountNav />
      <h1>Your account</h1>
      <p>Signed in as {email}. Your booking confirmations come by email and text.</p>
      <section aria-labelledby="next-visit" className="visit-card">
        <h2 id="next-visit">Your next appointment</h2>
        {next ? (
          <>
            <VisitSummary visit={next} headingLevel={3} />
            <VisitActions visit={next} paths={next.paths} changeable={next.changeable} rebookable={false} />
            <p>
              <Link to={`${href("/account/appointments")}?tab=upcoming`}>
                {more > 0 ? `All upcoming appointments (${more + 1})` : "All your appointments"}
              </Link>
            </p>
            <BookAnother bookLink={bookLink} />
          </>
        ) : booked ? (
          // Booked, its time passed, not yet closed by the clinic: still the guest's appointment.
          <>
            <p>Your appointment on {booked.when} is still open at the clinic.</p>
            <VisitSummary visit={booked} headingLevel={3} />
            <VisitActions visit={booked} paths={booked.paths} changeable={booked.changeable} rebookable={false} />
            <BookAnother bookLink={bookLink} />
          </>
        ) : (
          <>
            <p>You have no upcoming appointments.</p>
            <div className="button-row">
              <ButtonLink className="button" to={bookLink}>
                {homeClinicId ? "Book at your home clinic" : "Book a treatment"}
              </ButtonLink>{" "}
              <Link to={`${href("/account/appointments")}?tab=past`}>Past appointments</Link>
            </div>
          </>
        )}
      </section>
      <ul className="actions-list">
        <li>
          <Link to={href("/account/profile")}>Your profile</Link>: name, phone, address, message choices and password.
        </li>
        <li>
          <Link to={href("/locations")}>Find another clinic</Link>.
        </li>
      </ul>
      <section aria-labelledby="membership-and-points">
        <h2 id="membership-and-points">Membership and loyalty points</h2>
        {active.length > 0 ? (
          <p>
            {active.map((m) => `${m.name} (${m.status})`).join(", ")}.{" "}
            <Link to={href("/account/memberships")}>Your memberships</Link>
          </p>
        ) : (
          <p>
            You have no membership. <Link to={href("/memberships")}>See the plans</Link>
          </p>
        )}
        {loyalty.member ? (
          <>
            <p className="price">
              {loyalty.balance.toLocaleString("en-US")} points, worth {loyalty.value}
            </p>
            {loyalty.history.length > 0 ? (
              <table className="points-history">
                <caption className="visually-hidden">Latest points</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Points</th>
                    <th scope="col">For</th>
                  </tr>
                </thead>
                <tbody>
                  {loyalty.history.map((h, i) => (
                    <tr key={`${h.date}-${i}`}>
                      <td>{formatDay(h.date, "MMM D, YYYY")}</td>
                      <td>
                        {h.points > 0 ? `+${h.points.toLocaleString("en-US")}` : h.points.toLocaleString("en-US")}
                      </td>
                      <td>{h.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <ul>
              {LOYALTY_RULES.map((rule) => (
                <li key={rule}>{rule}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>{NON_MEMBER_POINTS_NOTE}</p>
        )}
      </section>
      <section aria-labelledby="packages-and-gift-cards">
        <h2 id="packages-and-gift-cards">Packages and gift cards</h2>
        <ul>
          <li>
            <Link to={href("/account/packages")}>Your packages</Link>: sessions used and left.{" "}
            <Link to={href("/packages")}>Buy a package</Link>
          </li>
          <li>
            <Link to={href("/account/gift-cards")}>Your gift cards</Link>: the ones you bought and received, with their
            balances. <Link to={href("/gift-cards")}>Send a gift card</Link>
          </li>
        </ul>
      </section>
      <section aria-labelledby="share-the-glow">
        <h2 id="share-the-glow">Share the glow</h2>
        <p>
          Give a friend their first signature laser facial for $50, and earn 5,000 points when they have it.{" "}
          <Link to={href("/account/share-the-glow")}>Your referral code</Link>
        </p>
      </section>
    </section>
  );
}

/** A guest who has an appointment may book another: the button says so, so no one books twice by mistake. */
function BookAnother({ bookLink }: { bookLink: string }) {
  return (
    <div className="button-row">
      <ButtonLink className="button button-secondary" to={bookLink}>
        Book another treatment
      </ButtonLink>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
