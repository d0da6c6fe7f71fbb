import { data, href, Link } from "react-router";
import { LocationCard, ZipSearchForm, ZipSearchResults } from "~/components/locations";
import { searchByZip, toLocationCard, zipSearchStatus } from "#server/locations.server";
import { orUnavailable } from "#server/unavailable.server";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/home";

const NEAREST_ON_HOME = 3;

export const meta: Route.MetaFunction = ({ data }) => [
  { title: "Glow Clinic | Laser facials, peels and laser hair removal" },
  {
    name: "description",
    content:
      "Find a Glow Clinic near you and book a signature laser facial, peel, laser hair removal or sculpting in under a minute.",
  },
  ...(data ? [{ tagName: "link", rel: "canonical", href: `${data.origin}/` }] : []),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { services } = context;
  const centers = await orUnavailable(() => services.catalog.listCenters());
  const search = await orUnavailable(() => searchByZip(services, url.searchParams.get("zip"), centers));
  return data(
    {
      origin: siteOrigin(request, context),
      search,
      clinicCount: centers.length,
      featured: centers.slice(0, NEAREST_ON_HOME).map((c) => toLocationCard(services, c)),
    },
    { status: zipSearchStatus(search) },
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { search, clinicCount, featured } = loaderData;
  return (
    <>
      <section className="hero">
        <h1>Glowing skin, booked in a minute</h1>
        <p>
          Signature laser facials, peels, laser hair removal and sculpting at {clinicCount} clinics across the US. Enter
          your ZIP code to find the nearest one.
        </p>
        <ZipSearchForm action={href("/")} search={search} />
      </section>
      {search.state === "found" ? (
        <ZipSearchResults search={search} limit={NEAREST_ON_HOME} />
      ) : (
        <section aria-labelledby="featured-heading" className="nearest">
          <h2 id="featured-heading">Our clinics</h2>
          <div className="card-grid">
            {featured.map((location, index) => (
              <LocationCard key={location.id} location={location} first={index === 0} />
            ))}
          </div>
        </section>
      )}
      <p className="more">
        <Link to={href("/locations")}>See all {clinicCount} locations</Link> or{" "}
        <Link to={href("/locations") + "?view=map"}>view them on a map</Link>.
      </p>
      <section className="treatments" aria-labelledby="treatments-heading">
        <h2 id="treatments-heading">Treatments</h2>
        <ul>
          <li>
            <strong>Signature Laser Facial</strong>: a 15-minute laser treatment for even tone and texture.
          </li>
          <li>
            <strong>Peels</strong>: light chemical peels for brighter, clearer skin.
          </li>
          <li>
            <strong>Laser Hair Removal</strong>: body areas and partial face.
          </li>
          <li>
            <strong>Sculpting</strong>: non-invasive muscle sculpting.
          </li>
        </ul>
      </section>
    </>
  );
}
