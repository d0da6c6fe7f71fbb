import { data, Form, href, Link } from "react-router";
import { ButtonLink } from "~/components/button-link";
import { ErrorMessage } from "~/components/error-message";
import { Facts } from "~/components/held-list";
import { formatDay } from "~/lib/dates";
import { requireUser } from "#server/accounts/current-user.server";
import { formDataOf } from "#server/forms.server";
import { ownPurchase } from "#server/purchases/access.server";
import { stepAnswer } from "./buy-answer.server";
import { purchaseStatus, purchaseView, retryPurchase, type PurchaseView } from "#server/purchases/purchase.server";
import { siteOrigin } from "#server/site.server";
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
  const purchase = await orUnavailable(() => purchaseStatus(context.services, params.id, siteOrigin(request, context)));
  return { purchase: purchaseView(purchase!) };
}

/** "Try again": another card on the same sale, or the sale asked for again when it could not start. */
export const action = guardAction(async ({ request, context, params }: Route.ActionArgs) => {
  const { user } = await requireUser(request, context);
  await formDataOf(request);
  await ownPurchase(context.services, params.id, user);
  const outcome = await unlessUnavailable(
    () => retryPurchase(context.services, params.id, siteOrigin(request, context)),
    () => "outage" as const,
  );
  if (outcome === "outage") return data({ message: OUTAGE_MESSAGE }, { status: 503 });
  if (!outcome) throw data("We could not find that purchase.", { status: 404 });
  return stepAnswer(outcome);
});

const WHAT = { membership: "membership", package: "package", "gift-card": "gift card" } as const;

/** The page's heading: a payment that went through (or may have) is never called "not finished". */
function headingOf(state: PurchaseView["state"]): string {
  if (state === "paid") return "Payment received";
  if (state === "checking") return "We are checking your payment";
  if (state === "cancelled") return "The price has changed";
  return "Your purchase is not finished";
}

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
          <Facts
            facts={[
              ["Paid", purchase.paid ?? purchase.price],
              ["Reference", purchase.reference],
            ]}
          />
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
          <h1>{headingOf(purchase.state)}</h1>
          <p>
            {purchase.itemName}, {purchase.state === "paid" && purchase.paid ? `${purchase.paid} paid` : purchase.price}
            .
          </p>
          {actionData?.message ? (
            <p className="notice notice-error" role="alert">
              {actionData.message}
            </p>
          ) : purchase.message ? (
            <p
              className={purchase.state === "paid" ? "notice" : "notice notice-error"}
              role={purchase.state === "paid" ? "status" : "alert"}
            >
              {purchase.message}
            </p>
          ) : null}
          {purchase.state === "declined" ? again("Try another card") : null}
          {purchase.state === "not-charged" ? again("Try again") : null}
          {purchase.state === "card" ? (
            <>
              <p>Nothing was charged yet: the payment is made with a card added on the secure card page.</p>
              {again("Continue to the secure card page")}
            </>
          ) : null}
          {purchase.state === "not-started" ? again("Try again") : null}
          {purchase.atBank ? again("Back to your bank's check") : null}
          {purchase.state === "checking" || purchase.state === "paid" ? (
            <ButtonLink to={href("/purchases/:id", { id: purchase.id })}>Check again</ButtonLink>
          ) : null}
          {purchase.state === "cancelled" ? (
            <p>
              Nothing was charged. Please go back, check the new price and buy again:{" "}
              <Link
                to={
                  purchase.kind === "membership"
                    ? href("/memberships")
                    : purchase.kind === "package"
                      ? href("/packages")
                      : href("/gift-cards")
                }
              >
                back to the {what}s
              </Link>
              .
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
