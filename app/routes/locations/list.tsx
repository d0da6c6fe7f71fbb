import { data, href, Link } from "react-router";
import { ButtonLink } from "~/components/button-link";
import { ClinicMap } from "~/components/clinic-map";
import { LocationCard, ZipSearchForm, ZipSearchResults } from "~/components/locations";
import { drawMap } from "~/domain/clinic-map";
import { searchByZip, toLocationCard, zipSearchStatus } from "#server/locations.server";
import { orUnavailable } from "#server/unavailable.server";
import { siteOrigin } from "#server/site.server";
import type { Route } from "./+types/list";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: "Clinic locations | Glow Clinic" },
  {
    name: "description",
    content: `Find your nearest Glow Clinic: ${data?.total ?? "our"} locations across the US, on a list or a map.`,
  },
  ...(data ? [{ tagName: "link", rel: "canonical", href: `${data.origin}/locations` }] : []),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const view = url.searchParams.get("view") === "map" ? "map" : "list";
  const { services } = context;
  const centers = await orUnavailable(() => services.catalog.listCenters());
  const search = await orUnavailable(() => searchByZip(services, url.searchParams.get("zip"), centers));
  const byState = new Map<string, ReturnType<typeof toLocationCard>[]>();
  for (const center of [...centers].sort(
    (a, b) => a.address.state.localeCompare(b.address.state) || a.name.localeCompare(b.name),
  )) {
    const group = byState.get(center.address.state) ?? [];
    group.push(toLocationCard(services, center));
    byState.set(center.address.state, group);
  }
  return data(
    {
      origin: siteOrigin(request, context),
      view,
      search,
      total: centers.length,
      states: [...byState.entries()].map(([state, locations]) => ({ state, locations })),
      // Drawn here, for the map view only: the browser gets the drawing, not the code that places pins.
      map:
        view === "map"
          ? drawMap(
              centers.map((c, i) => ({
                id: c.id,
                slug: c.slug,
                name: c.name,
                latitude: c.latitude,
                longitude: c.longitude,
                number: i + 1,
              })),
            )
          : null,
    },
    { status: zipSearchStatus(search) },
  );
}

export default function Locations({ loaderData }: Route.ComponentProps) {
  const { view, search, total, states, map } = loaderData;
  const zipQuery = search.state === "none" ? "" : `zip=${encodeURIComponent(search.zip)}`;
  const listUrl = `${href("/locations")}${zipQuery ? `?${zipQuery}` : ""}`;
  const mapUrl = `${href("/locations")}?view=map${zipQuery ? `&${zipQuery}` : ""}`;
  return (
    <div className="page">
      <h1>Our locations</h1>
      <p>{total} clinics across the United States. Open Monday to Saturday.</p>
      <ZipSearchForm
        action={href("/locations")}
        search={search}
        extra={view === "map" ? <input type="hidden" name="view" value="map" /> : null}
      />
      <nav className="view-toggle" aria-label="Show locations as">
        <ButtonLink to={listUrl} aria-current={view === "list" ? "page" : undefined}>
          List
        </ButtonLink>
        <ButtonLink to={mapUrl} aria-current={view === "map" ? "page" : undefined}>
          Map
        </ButtonLink>
      </nav>
      <ZipSearchResults search={search} />
      {map ? (
        <section aria-labelledby="map-heading">
          <h2 id="map-heading">All clinics on the map</h2>
          <div className="map-layout">
            <div>
              <ClinicMap drawing={map} listId="map-list" />
            </div>
            <ol className="map-legend" id="map-list" aria-label="Clinics on the map">
              {map.pins.map((pin) => (
                <li key={pin.id}>
                  <Link to={href("/locations/:slug", { slug: pin.slug })}>{pin.name}</Link>
                </li>
              ))}
            </ol>
          </div>
        </section>
      ) : (
        <section aria-labelledby="all-heading">
          <h2 id="all-heading">All clinics</h2>
          {states.map(({ state, locations }, group) => (
            <section key={state} aria-label={state} className="state-group">
              <h3 className="state-name">{state}</h3>
              <div className="card-grid">
                {locations.map((location, index) => (
                  <LocationCard key={location.id} location={location} first={group === 0 && index === 0} />
                ))}
              </div>
            </section>
          ))}
        </section>
      )}
    </div>
  );
}
