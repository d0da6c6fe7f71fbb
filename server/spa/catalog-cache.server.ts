import { sameId, type Center, type CenterList, type ClinicWithoutTimeZone, type Service, type Therapist } from "~/domain/catalog";
import { logger } from "../observability/logger.server";
import type { CatalogCalls } from "./catalog.server";
import { noSharedCatalog, type SharedCatalogStore } from "./shared-catalog.server";

type Entry<T> = { value: T; storedAt: number; json?: string };

/** A loaded value and when it was fetched from the back end: earlier than now when it is another instance's copy. */
export type Fetched<T> = { value: T; fetchedAt: number };

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
  /** What the cache holds, as its log lines name it ("catalog" by default). */
  name?: string;
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
  const name = options.name ?? "catalog";
  let version = 0;

  function store(key: string, value: unknown, storedAt = clock()) {
    // A refresh that brought the same data back leaves the version, and the pages made from it, alone.
    const json = options.versioned ? (JSON.stringify(value) ?? "") : undefined;
    if (!options.versioned || entries.get(key)?.json !== json) version++;
    entries.delete(key);
    entries.set(key, { value, storedAt, json });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  function load<T>(key: string, loader: () => Promise<Fetched<T>>): Promise<T> {
    const pending = loading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const promise = loader()
      .then(({ value, fetchedAt }) => {
        const held = entries.get(key) as Entry<T> | undefined;
        // A shared copy older than the one held (fetched here while the shared store was out) is not taken back.
        if (held && held.storedAt > fetchedAt) return held.value;
        store(key, value, fetchedAt);
        return value;
      })
      .finally(() => loading.delete(key));
    loading.set(key, promise);
    return promise;
  }

  /** The entry ages from when its value was fetched, so another instance's copy is not kept longer than its own. */
  async function getFetched<T>(key: string, loader: () => Promise<Fetched<T>>): Promise<T> {
    const entry = entries.get(key) as Entry<T> | undefined;
    if (!entry) return load(key, loader);
    const age = clock() - entry.storedAt;
    if (age < options.ttlMs) return entry.value;
    if (age < options.ttlMs + options.staleMs) {
      load(key, loader).catch((error: unknown) => {
        logger.warn(`${name} refresh failed; serving stale`, { key: key.split(":")[0], error: String((error as Error).message) });
      });
      return entry.value;
    }
    try {
      return await load(key, loader);
    } catch (error) {
      logger.warn(`${name} load failed; serving expired copy`, { key: key.split(":")[0] });
      // Better an hour-old price list than an error page; the booking steps re-read live data.
      if (entry) return entry.value;
      throw error;
    }
  }

  return {
    /** `loader` calls the back end: what it brings was fetched now. */
    get: <T>(key: string, loader: () => Promise<T>): Promise<T> => getFetched(key, async () => ({ value: await loader(), fetchedAt: clock() })),
    getFetched,
    set(key: string, value: unknown) {
      store(key, value);
    },
    delete(key: string) {
      entries.delete(key);
      version++;
    },
    /** Read again on the next get, the value kept meanwhile as the copy served when that read fails. */
    expire(key: string) {
      const entry = entries.get(key);
      if (entry) entry.storedAt = Number.NEGATIVE_INFINITY;
    },
    clear() {
      entries.clear();
      version++;
    },
    /** Goes up whenever a value changes: what was made from the cached values may be out of date. */
    version: () => version,
  };
}

export type CachedCatalogOptions = SwrOptions & {
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
export function createCachedCatalog(calls: Pick<CatalogCalls, "listCenters" | "listServices" | "listTherapists">, options: CachedCatalogOptions) {
  const { shared = noSharedCatalog, refreshLockMs = REFRESH_LOCK_MS, ...swr } = options;
  const clock = swr.clock ?? Date.now;
  const cache = createSwrCache({ ...swr, versioned: true });

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

  const read = <T>(key: string, call: () => Promise<T>) => cache.getFetched<T>(key, () => fetchThroughShared(key, call));
  // Named apart from the earlier plain list, so a copy another version of the app shared is never read as this one.
  const centerList = () => read<CenterList>("center-list", () => calls.listCenters());
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
    listServices: (centerId: string) => read<Service[] | null>(`services:${centerId.toLowerCase()}`, () => calls.listServices(centerId)),
    listTherapists: (centerId: string) => read<Therapist[] | null>(`therapists:${centerId.toLowerCase()}`, () => calls.listTherapists(centerId)),
    clear: cache.clear,
    /** Goes up when a refresh brings changed data (the render cache of public pages keys on it). */
    version: cache.version,
    /** At shutdown: closes the shared store's connection. */
    close: () => shared.close(),
  };
}

export type CachedCatalog = ReturnType<typeof createCachedCatalog>;
