import { sameId, type Center, type Service, type Therapist } from "~/domain/catalog";
import { logger } from "../observability/logger.server";
import type { CatalogCalls } from "./catalog.server";

type Entry<T> = { value: T; storedAt: number; json?: string };

export type SwrOptions = {
  /** Fresh for this long: served without a call. */
  ttlMs: number;
  /** Then served stale for this long while one background call refreshes it. */
  staleMs: number;
  clock?: () => number;
  /** At most this many entries; the oldest goes first (per-guest keys must not grow without end). */
  maxEntries?: number;
  /** Keep a version that goes up when a stored value differs from the one it replaces (compared as JSON). */
  versioned?: boolean;
};

/**
 * A small stale-while-revalidate cache. Concurrent misses share one load; a failed refresh keeps
 * the stale value (stale-if-error) so a back-end blip does not take the locations pages down.
 */
export function createSwrCache(options: SwrOptions) {
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, Entry<unknown>>();
  const loading = new Map<string, Promise<unknown>>();
  const maxEntries = options.maxEntries ?? Infinity;
  let version = 0;

  function store(key: string, value: unknown) {
    // A refresh that brought the same data back leaves the version, and the pages made from it, alone.
    const json = options.versioned ? (JSON.stringify(value) ?? "") : undefined;
    if (!options.versioned || entries.get(key)?.json !== json) version++;
    entries.delete(key);
    entries.set(key, { value, storedAt: clock(), json });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  function load<T>(key: string, loader: () => Promise<T>): Promise<T> {
    const pending = loading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const promise = loader()
      .then((value) => {
        store(key, value);
        return value;
      })
      .finally(() => loading.delete(key));
    loading.set(key, promise);
    return promise;
  }

  return {
    async get<T>(key: string, loader: () => Promise<T>): Promise<T> {
      const entry = entries.get(key) as Entry<T> | undefined;
      if (!entry) return load(key, loader);
      const age = clock() - entry.storedAt;
      if (age < options.ttlMs) return entry.value;
      if (age < options.ttlMs + options.staleMs) {
        load(key, loader).catch((error: unknown) => {
          logger.warn("catalog refresh failed; serving stale", { key: key.split(":")[0], error: String((error as Error).message) });
        });
        return entry.value;
      }
      try {
        return await load(key, loader);
      } catch (error) {
        logger.warn("catalog load failed; serving expired copy", { key: key.split(":")[0] });
        // Better an hour-old price list than an error page; the booking steps re-read live data.
        if (entry) return entry.value;
        throw error;
      }
    },
    set(key: string, value: unknown) {
      store(key, value);
    },
    delete(key: string) {
      entries.delete(key);
      version++;
    },
    clear() {
      entries.clear();
      version++;
    },
    /** Goes up whenever a value changes: what was made from the cached values may be out of date. */
    version: () => version,
  };
}

/** The catalog reads, cached: Zenoti allows about 60 calls a minute for the whole organisation. */
export function createCachedCatalog(calls: CatalogCalls, options: SwrOptions) {
  const cache = createSwrCache({ ...options, versioned: true });
  const listCenters = () => cache.get<Center[]>("centers", () => calls.listCenters());
  return {
    listCenters,
    async getCenter(centerId: string): Promise<Center | null> {
      const centers = await listCenters();
      return centers.find((c) => sameId(c.id, centerId)) ?? null;
    },
    async getCenterBySlug(slug: string): Promise<Center | null> {
      const centers = await listCenters();
      return centers.find((c) => c.slug === slug) ?? null;
    },
    listServices: (centerId: string) => cache.get<Service[] | null>(`services:${centerId.toLowerCase()}`, () => calls.listServices(centerId)),
    listTherapists: (centerId: string) =>
      cache.get<Therapist[] | null>(`therapists:${centerId.toLowerCase()}`, () => calls.listTherapists(centerId)),
    clear: cache.clear,
    /** Goes up when a refresh brings changed data (the render cache of public pages keys on it). */
    version: cache.version,
  };
}

export type CachedCatalog = ReturnType<typeof createCachedCatalog>;
