/** Nearest-clinic search (spec section 9: radius 50 km, a default clinic when none is found). */

export const NEAREST_RADIUS_KM = 50;
const EARTH_RADIUS_KM = 6371.0088;

export type Point = { latitude: number; longitude: number };

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: Point, b: Point): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function kmToMiles(km: number): number {
  return km / 1.609344;
}

export type Ranked<T> = { item: T; distanceKm: number };

export type NearestResult<T> = {
  /** Clinics within the radius, nearest first. */
  within: Ranked<T>[];
  /** Shown when nothing is within the radius: the configured default, with its distance. */
  fallback: Ranked<T> | null;
};

/**
 * Ranks places by distance from an origin and keeps those within the radius. When none is, the
 * default clinic (or, failing that, the nearest one) is offered instead so the visitor is never
 * left with an empty page.
 */
export function nearest<T extends Point>(
  origin: Point,
  places: T[],
  options: { radiusKm?: number; defaultPlace?: T | null } = {},
): NearestResult<T> {
  const radius = options.radiusKm ?? NEAREST_RADIUS_KM;
  const ranked = places
    .map((item) => ({ item, distanceKm: distanceKm(origin, item) }))
    .sort((a, b) => a.distanceKm - b.distanceKm);
  const within = ranked.filter((r) => r.distanceKm <= radius);
  if (within.length > 0 || ranked.length === 0) return { within, fallback: null };
  const preferred = options.defaultPlace ? ranked.find((r) => r.item === options.defaultPlace) : undefined;
  return { within, fallback: preferred ?? ranked[0] };
}

/** A US ZIP code: five digits, optionally ZIP+4. */
export const ZIP_PATTERN = /^\d{5}(?:-\d{4})?$/;
