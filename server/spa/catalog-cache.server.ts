import {
  sameId,
  type Center,
  type CenterList,
  type ClinicWithoutTimeZone,
  type Service,
  type Therapist,
} from "~/domain/catalog";
import { createCacheService, type Fetched } from "../cache/cache.server";
import { logger } from "../observability/logger.server";
import type { CatalogCalls } from "./catalog.server";
import { noSharedCatalog, type SharedCatalogStore } from "./shared-catalog.server";

export type CachedCatalogOptions = {
  /** Fresh for this long: served without a call. */
  ttlMs: number;
  /** Then served stale for this long while one background call refreshes it. */
  staleMs: number;
  clock?: () => number;
  /** Copies shared with the other instances, read before the back end is called (none by default). */
  shared?: SharedCatalogStore;
  /** How long one instance may take to refresh a key before another may try too. */
  refreshLockMs?: number;
};

/** Longer than a refresh's calls take (each within SPA_TIMEOUT_MS); a lost lock only costs a second call. */
const REFRESH_LOCK_MS = 15_000;

/**
 * The catalog reads, cached: Zenoti allows about 60 calls a minute for the whole organisation. With
 * a shared store, each instance keeps its own cache as before, and what it would ask Zenoti it asks
 * the shared store first: a fresh copy is used as it is; a stale one is refreshed by the one instance
 * that takes the key's lock while the others use the stale copy; with no copy (or no shared store),
 * the instance calls Zenoti itself. What it fetched is written back for the others.
 */
export function createCachedCatalog(
  calls: Pick<CatalogCalls, "listCenters" | "listServices" | "listTherapists">,
  options: CachedCatalogOptions,
) {
  const { shared = noSharedCatalog, refreshLockMs = REFRESH_LOCK_MS, ...swr } = options;
  const clock = swr.clock ?? Date.now;
  // Each catalog (one per set of services) has its cache of its own, on its own clock.
  const cache = createCacheService({ name: "catalog", clock });
  const kept = { ttlMs: swr.ttlMs, staleMs: swr.staleMs, versioned: true };
  const centerLists = cache.define<CenterList, "chain">({ name: "center-list", key: (scope) => scope, ...kept });
  const menus = cache.define<Service[] | null>({
    name: "services",
    key: (centerId) => centerId.toLowerCase(),
    ...kept,
  });
  const nurses = cache.define<Therapist[] | null>({
    name: "therapists",
    key: (centerId) => centerId.toLowerCase(),
    ...kept,
  });

  async function fetchThroughShared<T>(key: string, call: () => Promise<T>): Promise<Fetched<T>> {
    // The shared store holds what this function wrote for the same key: a value of type T.
    const copy = (await shared.get(key)) as Fetched<T> | null;
    if (copy && clock() - copy.fetchedAt < swr.ttlMs) return copy;
    if (copy && !(await shared.lock(key, copy.fetchedAt, refreshLockMs))) return copy;
    let value: T;
    try {
      value = await call();
    } catch (error) {
      if (!copy) throw error;
      // The lock holds until it expires: meanwhile every instance serves this copy, then one asks Zenoti again.
      logger.warn("catalog refresh failed; serving the shared copy", { key: key.split(":")[0] });
      return copy;
    }
    const fetched = { value, fetchedAt: clock() };
    await shared.set(key, fetched, swr.ttlMs + swr.staleMs);
    return fetched;
  }

  // Shared under "center-list", named apart from the earlier plain list so that a copy another
  // version of the app shared is never read as this one; the menus and nurse lists under their keys here.
  const centerList = () =>
    centerLists.getFetched("chain", () => fetchThroughShared("center-list", () => calls.listCenters()));
  const listCenters = async (): Promise<Center[]> => (await centerList()).centers;
  return {
    /** The clinics that can be booked online. */
    listCenters,
    /** The clinics refused for want of a time zone (decision 035): their pages say booking is unavailable. */
    async clinicsWithoutTimeZone(): Promise<ClinicWithoutTimeZone[]> {
      return (await centerList()).withoutTimeZone;
    },
    async getCenter(centerId: string): Promise<Center | null> {
      const centers = await listCenters();
      return centers.find((c) => sameId(c.id, centerId)) ?? null;
    },
    async getCenterBySlug(slug: string): Promise<Center | null> {
      const centers = await listCenters();
      return centers.find((c) => c.slug === slug) ?? null;
    },
    listServices: (centerId: string) =>
      menus.getFetched(centerId, () => fetchThroughShared(menus.key(centerId), () => calls.listServices(centerId))),
    listTherapists: (centerId: string) =>
      nurses.getFetched(centerId, () => fetchThroughShared(nurses.key(centerId), () => calls.listTherapists(centerId))),
    clear: cache.clear,
    /** Goes up when a refresh brings changed data (the render cache of public pages keys on it). */
    version: () => centerLists.version() + menus.version() + nurses.version(),
    /** At shutdown: closes the shared store's connection. */
    close: () => shared.close(),
  };
}

export type CachedCatalog = ReturnType<typeof createCachedCatalog>;
