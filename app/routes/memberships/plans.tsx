import { data, href, Link } from "react-router";
import { BuyItemForm } from "~/components/buy-item-form";
import { ClinicPicker } from "~/components/clinic-picker";
import { ErrorMessage } from "~/components/error-message";
import { MEMBERSHIP_EXCLUSION, membershipPurchaseRefusal } from "~/domain/memberships";
import { formatPhone } from "~/lib/phone";
import { guestMembershipList } from "#server/guests/member-prices.server";
import { clinicPlans } from "#server/memberships/memberships.server";
import { clinicChoice, homeClinic } from "#server/purchases/offers.server";
import { currentUser } from "#server/request-context.server";
import { orUnavailable } from "#server/unavailable.server";
import { buyItemAction } from "~/routes/purchases/buy-answer.server";
import type { Route } from "./+types/plans";

/** What a member is told in place of "Join". */
function heldNote(refusal: ReturnType<typeof membershipPurchaseRefusal>): string | null {
  if (!refusal) return null;
  return refusal.kind === "same"
    ? "This is your plan."
    : `You have ${refusal.name}, which renews automatically: to change plans, please call the clinic.`;
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.clinic ? `Memberships at ${data.clinic.name} | Glow Clinic` : "Memberships | Glow Clinic" },
  {
    name: "description",
    content: "Glow Clinic memberships: a facial every month, member prices and credits, and loyalty points.",
  },
];

/** A clinic's membership plans: the one asked for (?clinic=<slug>), else the signed-in guest's home clinic. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const asked = new URL(request.url).searchParams.get("clinic");
  const { clinics, center: askedCenter } = await orUnavailable(() => clinicChoice(services, asked));
  const center = asked
    ? askedCenter
    : await orUnavailable(async () => homeClinic(services, (await currentUser(context))?.centerId));
  if (asked && !center) {
    return data({ clinics, clinic: null, plans: null, unknownClinic: true, purchaseKey: "" }, { status: 404 });
  }
  const plans = center ? await orUnavailable(() => clinicPlans(services, center.id)) : null;
  // A member is not offered a second copy of their plan, nor a second plan that renews by itself (decision 037).
  const user = plans && plans.length > 0 ? await currentUser(context) : null;
  const held = user ? await guestMembershipList(services, user.guestId) : [];
  return {
    clinics,
    clinic: center ? { slug: center.slug, name: center.name, phone: center.phone } : null,
    plans: (plans ?? []).map((plan) => ({ ...plan, held: heldNote(membershipPurchaseRefusal(held, plan)) })),
    unknownClinic: false,
    // One key per page shown: a purchase is one per key and item, so a double press buys once.
    purchaseKey: crypto.randomUUID(),
  };
}

/** "Join" on a plan: sign in first, then the back end's sale, paid on its hosted card page. */
export const action = buyItemAction("membership", "/memberships");

export default function Memberships({ loaderData, actionData }: Route.ComponentProps) {
  const { clinics, clinic, plans, unknownClinic, purchaseKey } = loaderData;
  return (
    <section className="page">
      <h1>Memberships</h1>
      <p>
        A membership brings you a treatment every billing period, member prices and credits you use at the clinic, and
        loyalty points on every visit.
      </p>
      <ClinicPicker
        clinics={clinics}
        selected={clinic?.slug ?? null}
        unknownClinic={unknownClinic}
        submitLabel="Show plans"
      />

      {clinic ? (
        <>
          <h2>At {clinic.name}</h2>
          {plans && plans.length > 0 ? (
            <ul className="card-grid" aria-label={`Membership plans at ${clinic.name}`}>
              {plans.map((plan) => (
                <li key={plan.id} className="location-card">
                  <h3>{plan.name}</h3>
                  <p className="price">{plan.price}</p>
                  <p>
                    {plan.recurring ? "Renews automatically; cancel with the clinic." : "Paid once for the whole term."}
                  </p>
                  {plan.description ? <p>{plan.description}</p> : null}
                  {plan.covers.length > 0 ? (
                    <>
                      <p>Covers:</p>
                      <ul>
                        {plan.covers.map((s) => (
                          <li key={s.name}>
                            {s.quantity > 1 ? `${s.quantity} × ` : ""}
                            {s.name}
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : null}
                  {plan.terms ? <p className="muted">{plan.terms}</p> : null}
                  {plan.held ? (
                    <p className="notice">
                      {plan.held} <Link to={href("/account/memberships")}>Your memberships</Link>
                    </p>
                  ) : (
                    <BuyItemForm
                      action={`${href("/memberships")}?clinic=${clinic.slug}`}
                      clinic={clinic.slug}
                      itemId={plan.id}
                      priceCents={plan.priceCents}
                      purchaseKey={purchaseKey}
                      label={`Join ${plan.name}`}
                      lastResult={
                        actionData && "intent" in actionData && actionData.intent === plan.id ? actionData.result : null
                      }
                    />
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p>This clinic has no membership plans online. Please ask the clinic.</p>
          )}
          <p className="notice">{MEMBERSHIP_EXCLUSION}</p>
          <p>
            You pay the first term online on the clinic&rsquo;s secure card page; {clinic.name} keeps the card for the
            renewals. Questions? Call <a href={`tel:+1${clinic.phone}`}>{formatPhone(clinic.phone)}</a>.
          </p>
        </>
      ) : (
        <p>Choose a clinic to see its plans and prices.</p>
      )}
      <p>
        <Link to={href("/account/memberships")}>Your memberships</Link> ·{" "}
        <Link to={href("/locations")}>All locations</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
