import { data, href, isRouteErrorResponse, Link } from "react-router";
import { ButtonLink } from "~/components/button-link";
import { CatalogImage } from "~/components/catalog-image";
import { ClinicNotFound } from "~/components/clinic-not-found";
import { ErrorMessage } from "~/components/error-message";
import { buildMenu } from "~/domain/menu";
import { groupHours, isOpenAt } from "~/domain/hours";
import { DAY_NAMES, formatClock, localDayAndClock, timeZoneLabel } from "~/lib/dates";
import { bookingUrl } from "~/lib/location-views";
import { formatMoney, formatPriceRange } from "~/lib/money";
import { formatPhone } from "~/lib/phone";
import { offerPrices, withAddOnPrices, withOfferPrices } from "#server/pricing/offer-prices.server";
import { visitAttribution } from "#server/request-context.server";
import { orUnavailable, refuseClinicWithoutTimeZone } from "#server/unavailable.server";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/detail";

const SLUG_PATTERN = /^[a-z0-9-]{1,80}$/;

export const meta: Route.MetaFunction = ({ data }) => {
  if (!data) return [{ title: "Clinic not found | Glow Clinic" }];
  const { clinic, canonical, description } = data;
  const title = `${clinic.name} | Laser facials in ${clinic.city}, ${clinic.state}`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: canonical },
    { property: "og:type", content: "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: canonical },
    { property: "og:site_name", content: "Glow Clinic" },
    { "script:ld+json": data.jsonLd },
  ];
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { catalog } = context.services;
  if (!SLUG_PATTERN.test(params.slug)) throw data("No clinic has that address.", { status: 404 });
  const center = await orUnavailable(() => catalog.getCenterBySlug(params.slug));
  if (!center) await refuseClinicWithoutTimeZone(catalog, params.slug);
  if (!center) throw data("No clinic has that address.", { status: 404 });
  const [services, therapists] = await orUnavailable(() =>
    Promise.all([catalog.listServices(center.id), catalog.listTherapists(center.id)]),
  );

  const canonical = `${siteOrigin(request, context)}${href("/locations/:slug", { slug: center.slug })}`;
  const now = localDayAndClock(new Date(), center.timeZone);
  // A partner's or the clinic's own prices, where a price tier charges them (decision 032).
  const priced = await orUnavailable(() => withAddOnPrices(context.services, services ?? []));
  const offers = await orUnavailable(() =>
    offerPrices(context.services, {
      centerId: center.id,
      catalog: priced,
      partnerType: visitAttribution(context).partner,
    }),
  );
  const menu = buildMenu(withOfferPrices(priced, offers), formatPriceRange);
  const description = `${center.name} at ${center.address.line1}, ${center.address.city}, ${center.address.state}. Signature laser facials, peels, laser hair removal and sculpting. Book online.`;
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "MedicalClinic",
    name: center.name,
    url: canonical,
    telephone: `+1-${formatPhone(center.phone)}`,
    email: center.email,
    address: {
      "@type": "PostalAddress",
      streetAddress: [center.address.line1, center.address.line2].filter(Boolean).join(", "),
      addressLocality: center.address.city,
      addressRegion: center.address.state,
      postalCode: center.address.zip,
      addressCountry: "US",
    },
    geo: { "@type": "GeoCoordinates", latitude: center.latitude, longitude: center.longitude },
    openingHoursSpecification: center.workingHours
      .filter((d) => d.opens && d.closes)
      .map((d) => ({
        "@type": "OpeningHoursSpecification",
        dayOfWeek: DAY_NAMES[d.dayOfWeek],
        opens: d.opens,
        closes: d.closes,
      })),
    medicalSpecialty: "Dermatologic",
    availableService: menu.treatments.flatMap((s) =>
      s.items.map((i) => ({ "@type": "MedicalProcedure", name: i.name })),
    ),
  };

  return {
    canonical,
    description,
    jsonLd,
    clinic: {
      id: center.id,
      name: center.name,
      image: context.services.images.clinic(center),
      line1: center.address.line1,
      line2: center.address.line2,
      city: center.address.city,
      state: center.address.state,
      zip: center.address.zip,
      phone: center.phone,
      email: center.email,
      timeZoneLabel: timeZoneLabel(center.timeZone),
      openNow: isOpenAt(center.workingHours, now.dayOfWeek, now.clock),
    },
    hours: groupHours(center.workingHours, formatClock),
    menu,
    // An offer's list price, shown struck through before it (spec section 9), by service id.
    listPrices: Object.fromEntries(
      [...offers.byService.values()].map((offer) => [offer.serviceId, formatMoney(offer.list)]),
    ),
    partner: offers.partner?.name ?? null,
    nurses: (therapists ?? []).map((t) => ({
      id: t.id,
      name: t.displayName,
      title: t.jobTitle,
      image: context.services.images.nurse(t),
    })),
  };
}

export default function ClinicPage({ loaderData }: Route.ComponentProps) {
  const { clinic, hours, menu, nurses, partner, listPrices } = loaderData;
  return (
    <article className="page clinic">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={href("/locations")}>Locations</Link> › <span aria-current="page">{clinic.name}</span>
      </nav>
      <h1>{clinic.name}</h1>
      <CatalogImage image={clinic.image} className="clinic-image" priority />
      <div className="clinic-summary">
        <section aria-labelledby="visit-heading">
          <h2 id="visit-heading">Visit us</h2>
          <address>
            {clinic.line1}
            {clinic.line2 ? <>, {clinic.line2}</> : null}
            <br />
            {clinic.city}, {clinic.state} {clinic.zip}
          </address>
          <p>
            <a href={`tel:+1${clinic.phone}`}>{formatPhone(clinic.phone)}</a>
            <br />
            <a href={`mailto:${clinic.email}`}>{clinic.email}</a>
          </p>
          <div className="button-row">
            <ButtonLink className="button button-large" to={bookingUrl(clinic.id)}>
              Book here
            </ButtonLink>
          </div>
        </section>
        <section aria-labelledby="hours-heading">
          <h2 id="hours-heading">Hours</h2>
          <p className={clinic.openNow ? "open-now" : "closed-now"}>{clinic.openNow ? "Open now" : "Closed now"}</p>
          <table className="hours">
            <caption>Times in {clinic.timeZoneLabel}</caption>
            <tbody>
              {hours.map((row) => (
                <tr key={row.days}>
                  <th scope="row">{row.days}</th>
                  <td>{row.hours ?? "Closed"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>

      <section aria-labelledby="menu-heading">
        <h2 id="menu-heading">Treatments and prices</h2>
        {partner ? (
          <p className="notice" role="note">
            Showing {partner} prices: they apply when you book online from this visit.
          </p>
        ) : null}
        {menu.treatments.map((section) => (
          <section key={section.category} aria-label={section.category}>
            <h3>{section.category}</h3>
            <ul className="menu">
              {section.items.map((item) => (
                <li key={item.id}>
                  <span className="menu-name">{item.name}</span>
                  <span className="menu-meta">
                    {item.durationMinutes} min ·{" "}
                    {listPrices[item.id] ? (
                      <>
                        {/* A name on <s> is not read (its role takes none): the word is said as text instead. */}
                        <s>
                          <span className="visually-hidden">was </span>
                          {listPrices[item.id]}
                        </s>{" "}
                      </>
                    ) : null}
                    <strong>{item.price}</strong>
                  </span>
                  <p>{item.description}</p>
                </li>
              ))}
            </ul>
          </section>
        ))}
        {menu.addOns.length > 0 ? (
          <section aria-label="Enhancements">
            <h3>Enhancements</h3>
            <ul className="menu">
              {menu.addOns.map((item) => (
                <li key={item.id}>
                  <span className="menu-name">{item.name}</span>
                  <span className="menu-meta">
                    <strong>{item.price}</strong>
                  </span>
                  <p>{item.description}</p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </section>

      <section aria-labelledby="nurses-heading">
        <h2 id="nurses-heading">Our nurses</h2>
        <ul className="nurses">
          {nurses.map((nurse) => (
            <li key={nurse.id}>
              <CatalogImage image={nurse.image} className="nurse-image" />
              <span>
                {nurse.name}
                {nurse.title ? <span className="muted">, {nurse.title}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isRouteErrorResponse(error) || error.status !== 404) return <ErrorMessage error={error} />;
  return <ClinicNotFound title="We can't find that clinic" text="The link may be old, or the clinic may have moved." />;
}
