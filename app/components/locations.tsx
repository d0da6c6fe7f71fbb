import { useEffect, useRef } from "react";
import { Form, href, Link, useLocation } from "react-router";
import { bookingUrl, type LocationCardView, type ZipSearchView } from "~/lib/location-views";
import { ButtonLink } from "./button-link";
import { CatalogImage } from "./catalog-image";
import { formatPhone } from "~/lib/phone";

/**
 * A clinic's card. `first`: the first card of the page, whose picture is on a phone's first screen
 * and its largest paint, so it loads at once rather than lazily.
 */
export function LocationCard({
  location,
  headingLevel = 3,
  first = false,
}: {
  location: LocationCardView;
  headingLevel?: 2 | 3;
  first?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // "Book here" is the card's first control, the phone after it: from a list of clinics the keyboard
  // reaches the booking first (decision 062). The name is not a second link to the clinic's page.
  return (
    <article className="location-card">
      <CatalogImage image={location.image} className="location-image" priority={first} />
      <Heading>{location.name}</Heading>
      <address>
        {location.line1}
        <br />
        {location.cityLine}
      </address>
      {location.distanceMiles !== null ? <p className="distance">{location.distanceMiles} mi away</p> : null}
      <div className="actions">
        <ButtonLink className="button" to={bookingUrl(location.id)}>
          Book here<span className="visually-hidden"> at {location.name}</span>
        </ButtonLink>
        <Link to={href("/locations/:slug", { slug: location.slug })}>
          Clinic details<span className="visually-hidden">: {location.name}</span>
        </Link>
      </div>
      <p className="location-phone">
        Call <a href={`tel:+1${location.phone}`}>{formatPhone(location.phone)}</a>
      </p>
    </article>
  );
}

export function ZipSearchForm({
  action,
  search,
  extra,
}: {
  action: string;
  search: ZipSearchView;
  extra?: React.ReactNode;
}) {
  const error = search.state === "invalid" || search.state === "unknown" ? search.message : null;
  const value = search.state === "none" ? "" : search.zip;
  return (
    // The answer's heading is the address's fragment: without JavaScript the browser starts the next
    // Tab there, at the clinics found, not at the top of the page again (decision 062).
    <Form
      method="get"
      action={`${action}#${RESULTS_HEADING}`}
      className="zip-search"
      role="search"
      aria-label="Clinic search"
    >
      {extra}
      <label htmlFor="zip">ZIP code</label>
      <div className="inline-field">
        <input
          id="zip"
          name="zip"
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "zip-error" : undefined}
          autoFocus={Boolean(error)}
        />
        <button type="submit">Find clinics</button>
      </div>
      {error ? (
        <p id="zip-error" className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </Form>
  );
}

const RESULTS_HEADING = "nearest-heading";

export function ZipSearchResults({ search, limit }: { search: ZipSearchView; limit?: number }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { hash } = useLocation();
  const found = search.state === "found" ? search.zip : null;
  // With JavaScript a search changes only the query, so the page keeps its focus: it moves to the
  // answer's heading, which says how many clinics were found, as the fragment does without it.
  useEffect(() => {
    if (found !== null && hash === `#${RESULTS_HEADING}`) heading.current?.focus({ preventScroll: true });
  }, [found, hash]);
  if (search.state !== "found") return null;
  const shown = limit ? search.results.slice(0, limit) : search.results;
  return (
    <section aria-labelledby="nearest-heading" className="nearest">
      <h2 id={RESULTS_HEADING} ref={heading} tabIndex={-1}>
        {search.count === 0 ? "No clinics" : `${search.count} ${search.count === 1 ? "clinic" : "clinics"}`} within{" "}
        {search.radiusKm} km ({search.radiusMiles} mi) of {search.place}
      </h2>
      {search.fallback ? (
        <>
          <p>This clinic is the closest one we can suggest:</p>
          <LocationCard location={search.fallback} first />
        </>
      ) : (
        <div className="card-grid">
          {shown.map((location, index) => (
            <LocationCard key={location.id} location={location} first={index === 0} />
          ))}
        </div>
      )}
    </section>
  );
}
