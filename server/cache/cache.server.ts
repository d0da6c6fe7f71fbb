import {
  cachified,
  createCacheEntry,
  type Cache,
  type CacheEntry,
  type CreateReporter,
  type GetFreshValue,
} from "@epic-web/cachified";
import { LRUCache } from "lru-cache";
import { logger } from "../observability/logger.server";

/**
 * The one cache of the server (decision 050): cachified over an LRU per named region. A feature
 * defines the region it fills, with its key builder and its freshness, and says there which events
 * change what it keeps; another feature never clears it by name, it says what happened (`emit`).
 */

/** What happened that makes a kept value out of date; each region that keeps something it touches says what it does. */
export type CacheEvents = {
  /** A guest record was made a moment ago, at this clinic: they hold nothing yet. */
  guestCreated: { guestId: string; centerId: string };
  /** A membership was bought: the guest's memberships changed. */
  membershipBought: { guestId: string };
  /** A package was bought at this clinic. */
  packageBought: { guestId: string; centerId: string };
  /** A session of a package was redeemed (or tried) at this clinic. */
  packageRedeemed: { guestId: string; centerId: string };
};

export type CacheEventName = keyof CacheEvents;

/** A loaded value and when it was fetched from the back end: earlier than now when it is another instance's copy. */
export type Fetched<T> = { value: T; fetchedAt: number };

export type RegionOptions<T, K> = {
  /** The first part of every key of the region, and what its log lines call it. */
  name: string;
  /** The rest of the key, from what the owner reads by (lower-cased ids, so one guest is one key). */
  key: (of: K) => string;
  /** Fresh for this long: served without a call. */
  ttlMs: number;
  /** Then served stale for this long while one background call refreshes it. */
  staleMs: number;
  /** At most this many entries, the least used going first (per-guest keys must not grow without end). */
  maxEntries?: number;
  /** Count a new version only when a stored value differs from the one it replaces (compared as JSON). */
  versioned?: boolean;
  /** What the region does when something it keeps changed elsewhere. */
  on?: { [N in CacheEventName]?: (event: CacheEvents[N], region: Region<T, K>) => void };
};

export type Region<T, K> = {
  readonly name: string;
  /** The whole key of `of`: `<region>:<the owner's key>`. */
  key(of: K): string;
  /** The kept value, or `load`'s; `fresh` reads past what is kept (and keeps what it read). */
  get(of: K, load: () => Promise<T>, options?: { fresh?: boolean }): Promise<T>;
  /** As `get`, the entry aging from when its value was fetched, so another instance's copy is not kept longer than its own. */
  getFetched(of: K, load: () => Promise<Fetched<T>>): Promise<T>;
  set(of: K, value: T): void;
  delete(of: K): void;
  /** Read again on the next get, the value kept meanwhile as the copy served when that read fails. */
  expire(of: K): void;
  clear(): void;
  /** Goes up whenever a value changes: what was made from the kept values may be out of date. */
  version(): number;
};

/** Distinct keys a region keeps when its owner names no bound. */
const DEFAULT_MAX_ENTRIES = 10_000;

type Kept = { value: unknown; ttl: number; swr: number; createdAt: number; json?: string };

type RegionState = { clear(): void; handle(name: CacheEventName, event: unknown): void };

/**
 * A cache service: `name` is what its log lines call it. `clock` is the service's time (tests pass
 * one); cachified reads `Date.now()`, so entries keep their times on this clock and show them to
 * cachified as wall-clock times of the same age.
 */
export function createCacheService(options: { name: string; clock?: () => number }) {
  const clock = options.clock ?? Date.now;
  const regions = new Map<string, RegionState>();
  const wallTime = (at: number) => at + Date.now() - clock();

  function define<T, K = string>(region: RegionOptions<T, K>): Region<T, K> {
    const { name, ttlMs, staleMs, versioned = false } = region;
    const entries = new LRUCache<string, Kept>({ max: region.maxEntries ?? DEFAULT_MAX_ENTRIES });
    // cachified counts an entry fresh up to and including its ttl; ours is fresh for less than it.
    const ttl = ttlMs - 1;
    let version = 0;

    const cache: Cache<unknown> = {
      name: `${options.name}:${name}`,
      get(key): CacheEntry<unknown> | undefined {
        const kept = entries.get(key);
        return (
          kept && {
            value: kept.value,
            metadata: { ttl: kept.ttl, swr: kept.swr, createdTime: wallTime(kept.createdAt) },
          }
        );
      },
      set(key, entry) {
        // A refresh that brought the same data back leaves the version, and what was made from it, alone.
        const json = versioned ? (JSON.stringify(entry.value) ?? "") : undefined;
        if (!versioned || entries.peek(key)?.json !== json) version++;
        const { metadata } = entry;
        entries.set(key, {
          value: entry.value,
          ttl: metadata.ttl ?? ttl,
          swr: metadata.swr ?? staleMs,
          createdAt: metadata.createdTime - Date.now() + clock(),
          json,
        });
      },
      delete(key) {
        entries.delete(key);
        version++;
      },
    };

    const reporter: CreateReporter<unknown> = () => (event) => {
      if (event.name === "refreshValueError") {
        logger.warn(`${options.name} refresh failed; serving stale`, {
          key: name,
          error: String((event.error as Error)?.message),
        });
      }
    };

    async function read(key: string, getFreshValue: GetFreshValue<T>, fresh: boolean): Promise<T> {
      try {
        return (await cachified(
          { key, cache, getFreshValue, ttl, staleWhileRevalidate: staleMs, forceFresh: fresh, fallbackToCache: false },
          reporter,
        )) as T;
      } catch (error) {
        const kept = fresh ? undefined : entries.peek(key);
        if (!kept) throw error;
        // Better an hour-old price list than an error page; the booking steps re-read live data.
        logger.warn(`${options.name} load failed; serving expired copy`, { key: name });
        return kept.value as T;
      }
    }

    const keyOf = (of: K) => `${name}:${region.key(of)}`;
    const defined: Region<T, K> = {
      name,
      key: keyOf,
      get: (of, load, { fresh = false } = {}) => read(keyOf(of), () => load(), fresh),
      getFetched(of, load) {
        const key = keyOf(of);
        return read(
          key,
          async ({ metadata }) => {
            const { value, fetchedAt } = await load();
            const held = entries.peek(key);
            // A shared copy older than the one held (fetched here while the shared store was out) is not taken back.
            if (held && held.createdAt > fetchedAt) {
              metadata.createdTime = wallTime(held.createdAt);
              return held.value as T;
            }
            metadata.createdTime = wallTime(fetchedAt);
            return value;
          },
          false,
        );
      },
      set(of, value) {
        cache.set(keyOf(of), createCacheEntry(value, { ttl, swr: staleMs, createdTime: Date.now() }));
      },
      delete(of) {
        cache.delete(keyOf(of));
      },
      expire(of) {
        const kept = entries.peek(keyOf(of));
        if (kept) kept.createdAt = Number.NEGATIVE_INFINITY;
      },
      clear() {
        entries.clear();
        version++;
      },
      version: () => version,
    };

    // Defined again (a module evaluated again in development): the new region replaces the old, handlers included.
    regions.set(name, {
      clear: defined.clear,
      handle(eventName, event) {
        const handler = region.on?.[eventName] as ((event: unknown, region: Region<T, K>) => void) | undefined;
        handler?.(event, defined);
      },
    });
    return defined;
  }

  return {
    define,
    /** Tells every region that keeps something this changes; each does what its owner said. In this process only. */
    emit<N extends CacheEventName>(eventName: N, event: CacheEvents[N]): void {
      for (const region of regions.values()) region.handle(eventName, event);
    },
    /** Empties every region (a write of what they hold, or a test that starts afresh). */
    clear(): void {
      for (const region of regions.values()) region.clear();
    },
  };
}

export type CacheService = ReturnType<typeof createCacheService>;

/**
 * The process's cache of what the features keep between requests (a clinic's plans, a guest's
 * saved cards for the payment step): each region is defined by the feature that fills it.
 */
export const appCache = createCacheService({ name: "cache" });
