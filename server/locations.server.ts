import type { Center } from "~/domain/catalog";
import type { LocationCardView, ZipSearchView } from "~/lib/location-views";
import { kmToMiles, nearest, NEAREST_RADIUS_KM, ZIP_PATTERN } from "~/domain/nearest";
import type { Services } from "./services";

/** A clinic's card, with its picture (decision 060). */
export function toLocationCard(
  services: Pick<Services, "images">,
  center: Center,
  distanceKm: number | null = null,
): LocationCardView {
  return {
    id: center.id,
    image: services.images.clinic(center),
    slug: center.slug,
    name: center.name,
    line1: [center.address.line1, center.address.line2].filter(Boolean).join(", "),
    cityLine: `${center.address.city}, ${center.address.state} ${center.address.zip}`,
    phone: center.phone,
    distanceMiles: distanceKm === null ? null : Math.round(kmToMiles(distanceKm) * 10) / 10,
  };
}

const MAX_ZIP_INPUT = 20;

/** Reads `?zip=`, geocodes it and ranks the clinics. Bad input becomes a message, not an error. */
export async function searchByZip(
  services: Services,
  rawZip: string | null,
  centers: Center[],
): Promise<ZipSearchView> {
  if (rawZip === null) return { state: "none" };
  const zip = rawZip.trim().slice(0, MAX_ZIP_INPUT);
  if (zip === "") return { state: "invalid", zip, message: "Please enter a ZIP code." };
  if (!ZIP_PATTERN.test(zip))
    return { state: "invalid", zip, message: "Please enter a 5-digit US ZIP code, like 78701." };
  const origin = await services.geocoder.geocodeZip(zip.slice(0, 5));
  if (!origin)
    return { state: "unknown", zip, message: `We couldn't find ZIP code ${zip}. Please check it and try again.` };
  const defaultCenter =
    centers.find((c) => c.id === services.env.DEFAULT_CENTER_ID?.toLowerCase()) ?? centers[0] ?? null;
  const result = nearest(origin, centers, { defaultPlace: defaultCenter });
  return {
    state: "found",
    zip,
    place: origin.label,
    radiusKm: NEAREST_RADIUS_KM,
    radiusMiles: Math.round(kmToMiles(NEAREST_RADIUS_KM)),
    count: result.within.length,
    results: result.within.map((r) => toLocationCard(services, r.item, r.distanceKm)),
    fallback: result.fallback ? toLocationCard(services, result.fallback.item, result.fallback.distanceKm) : null,
  };
}

/** The HTTP status of a page that shows a ZIP search. */
export function zipSearchStatus(search: ZipSearchView): number {
  if (search.state === "invalid") return 400;
  if (search.state === "unknown") return 404;
  return 200;
}
