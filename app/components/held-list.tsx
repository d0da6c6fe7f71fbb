import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import { AccountNav } from "~/components/account-nav";

/** One line of a card's facts: a term and its value. No value (`null`, `undefined`, `""`) leaves the line out. */
export type Fact = readonly [term: string, value: ReactNode];

/** A card's facts as a definition list, in the order given, without the lines that have no value. */
export function Facts({ facts }: { facts: readonly Fact[] }) {
  return (
    <dl className="facts">
      {facts
        .filter(([, value]) => value !== null && value !== undefined && value !== "")
        .map(([term, value]) => (
          <Fragment key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

/** One thing the guest holds (a membership, a package, a gift card, a waitlist entry) as a card. */
export function HeldCard({
  title,
  facts,
  heading: Heading = "h2",
  className,
  children,
}: {
  title: ReactNode;
  facts: readonly Fact[];
  heading?: "h2" | "h3";
  className?: string;
  children?: ReactNode;
}) {
  return (
    <li className={className ? `visit-card ${className}` : "visit-card"}>
      <Heading>{title}</Heading>
      <Facts facts={facts} />
      {children}
    </li>
  );
}

/**
 * An account page that lists what the guest holds of one kind: the cards, or, when there are none,
 * a notice that says so (`empty.text`) with a link to where to find some. `footer` follows either.
 */
export function HeldListPage<Item>({
  title,
  items,
  empty,
  card,
  footer,
}: {
  title: string;
  items: readonly Item[];
  empty: { text: ReactNode; to: string; link: string };
  card: (item: Item) => ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="page narrow">
      <AccountNav />
      <h1>{title}</h1>
      {items.length === 0 ? (
        <div className="notice">
          <p>{empty.text}</p>
          <p>
            <Link to={empty.to}>{empty.link}</Link>
          </p>
        </div>
      ) : (
        <ul className="visit-list">{items.map(card)}</ul>
      )}
      {footer}
    </section>
  );
}
