import { data, Form, href, Link } from "react-router";
import { ButtonLink } from "~/components/button-link";
import { ErrorMessage } from "~/components/error-message";
import { formatDay } from "~/lib/dates";
import { requireUser } from "#server/accounts/current-user.server";
import { formDataOf } from "#server/forms.server";
import { ownPurchase } from "#server/purchases/access.server";
import { stepResponse } from "#server/purchases/buy.server";
import { purchaseStatus, purchaseView, retryPurchase } from "#server/purchases/purchase.server";
import { guardAction, orUnavailable, OUTAGE_MESSAGE, unlessUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/status";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.purchase.state === "completed" ? "Thank you | Glow Clinic" : "Your purchase | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** Where a purchase stands; a paid one is finished here (closed, the gift card sent) if it was not yet. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  await ownPurchase(context.services, params.id, user);
  const purchase = await orUnavailable(() => purchaseStatus(context.services, params.id, new URL(request.url).origin));
  return { purchase: purchaseView(purchase!) };
}

/** "Try again": another card on the same sale, or the sale asked for again when it could not start. */
export const action = guardAction(async ({ request, context, params }: Route.ActionArgs) => {
  const { user } = await requireUser(request, context);
  await formDataOf(request);
  await ownPurchase(context.services, params.id, user);
  const outcome = await unlessUnavailable(() => retryPurchase(context.services, params.id, new URL(request.url).origin), () => "outage" as const);
  if (outcome === "outage") return data({ message: OUTAGE_MESSAGE }, { status: 503 });
  if (!outcome) throw data("We could not find that purchase.", { status: 404 });
  return stepResponse(outcome);
});

const WHAT = { membership: "membership", package: "package", "gift-card": "gift card" } as const;

export default function PurchaseStatus({ loaderData, actionData }: Route.ComponentProps) {
  const { purchase } = loaderData;
  const what = WHAT[purchase.kind];
  const again = (label: string) => (
    <Form method="post">
      <button type="submit">{label}</button>
    </Form>
  );
  return (
    <section className="page narrow">
      {purchase.state === "completed" ? (
        <>
          <h1>Thank you</h1>
          <p className="notice" role="status">
            Your {what} is paid: {purchase.itemName}.
          </p>
          <dl className="facts">
            <dt>Paid</dt>
            <dd>{purchase.paid ?? purchase.price}</dd>
            {purchase.reference ? (
              <>
                <dt>Reference</dt>
                <dd>{purchase.reference}</dd>
              </>
            ) : null}
          </dl>
          {purchase.giftCard ? (
            <p>
              We will email the gift card to {purchase.giftCard.recipientName} at {purchase.giftCard.recipientEmail} on{" "}
              {formatDay(purchase.giftCard.deliveryDate, "MMM D, YYYY")}.
            </p>
          ) : null}
          <p>
            {purchase.kind === "membership" ? (
              <Link to={href("/account/memberships")}>See your memberships</Link>
            ) : purchase.kind === "package" ? (
              <Link to={href("/account/packages")}>See your packages</Link>
            ) : (
              <Link to={href("/account/gift-cards")}>See your gift cards</Link>
            )}
          </p>
        </>
      ) : (
        <>
          <h1>{purchase.state === "cancelled" ? "The price has changed" : "Your purchase is not finished"}</h1>
          <p>
            {purchase.itemName}, {purchase.price}.
          </p>
          {purchase.message || actionData?.message ? (
            <p className="notice notice-error" role="alert">
              {actionData?.message ?? purchase.message}
            </p>
          ) : null}
          {purchase.state === "declined" ? again("Try another card") : null}
          {purchase.state === "card" ? (
            <>
              <p>You have not added a card on the secure card page yet. Nothing was charged.</p>
              {again("Continue to the secure card page")}
            </>
          ) : null}
          {purchase.state === "not-started" ? again("Try again") : null}
          {purchase.atBank ? again("Back to your bank's check") : null}
          {purchase.state === "checking" || purchase.state === "paid" ? <ButtonLink to={href("/purchases/:id", { id: purchase.id })}>Check again</ButtonLink> : null}
          {purchase.state === "cancelled" ? (
            <p>
              Nothing was charged. Please go back, check the new price and buy again:{" "}
              <Link to={purchase.kind === "membership" ? href("/memberships") : purchase.kind === "package" ? href("/packages") : href("/gift-cards")}>back to the {what}s</Link>.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
