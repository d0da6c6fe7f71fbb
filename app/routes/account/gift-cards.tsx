import { href, Link } from "react-router";
import { AccountNav } from "~/components/account-nav";
import { ErrorMessage } from "~/components/error-message";
import { HeldCard } from "~/components/held-list";
import { endDateLabel } from "~/domain/sentinel-dates";
import { requireUser } from "#server/accounts/current-user.server";
import { accountGiftCards, type GiftCardView } from "#server/purchases/gift-cards.server";
import { orUnavailable } from "#server/unavailable.server";
import type { Route } from "./+types/gift-cards";

export const meta: Route.MetaFunction = () => [
  { title: "Your gift cards | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const { bought, received } = await orUnavailable(() => accountGiftCards(context.services, user));
  // Zenoti's no-end date reads "No expiry", not "Jan 1, 2100".
  const withValidity = (cards: GiftCardView[]) =>
    cards.map((card) => ({ ...card, validUntil: endDateLabel(card.expires) }));
  return { bought: withValidity(bought), received: withValidity(received) };
}

function CardList({ cards, label }: { cards: (GiftCardView & { validUntil: string | null })[]; label: string }) {
  return (
    <ul className="visit-list" aria-label={label}>
      {cards.map((card) => (
        <HeldCard
          key={card.number}
          heading="h3"
          title={`${card.value} gift card ending ${card.number.slice(-4)}`}
          facts={[
            ["Balance", card.balance],
            ["Status", card.status],
            ["Valid until", card.validUntil],
            ["For", card.recipient],
          ]}
        />
      ))}
    </ul>
  );
}

export default function AccountGiftCards({ loaderData }: Route.ComponentProps) {
  const { bought, received } = loaderData;
  return (
    <section className="page narrow">
      <AccountNav />
      <h1>Your gift cards</h1>
      <h2>Received</h2>
      {received.length ? (
        <CardList cards={received} label="Gift cards you received" />
      ) : (
        <p>No gift card has been sent to your email yet.</p>
      )}
      <h2>Bought</h2>
      {bought.length ? (
        <CardList cards={bought} label="Gift cards you bought" />
      ) : (
        <p>You have not bought a gift card yet.</p>
      )}
      <p>
        <Link to={href("/gift-cards")}>Send a gift card</Link> or check any card&rsquo;s balance.
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
