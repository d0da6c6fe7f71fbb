import { normalizePromoCode } from "~/domain/discounts";
import { createCacheService } from "../cache/cache.server";
import type { Stores } from "./stores.server";

/**
 * How long a read of the chain's configuration (promo codes, clinic and partner prices, price tiers,
 * laser area prices) is used before the store is asked again (decision 033). Operations change these
 * records by hand, rarely; a booking step reads several of them on every request.
 */
export const CONFIGURATION_CACHE_MS = 60_000;

/** Distinct reads kept at once: a few per clinic and partner, far fewer than this in a chain. */
const MAX_ENTRIES = 2_000;

type Options = { ttlMs?: number; clock?: () => number };

/** What a store read brings. */
type Read<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/**
 * The stores with their configuration records read through a short in-process cache; every other
 * record (guests, accounts, payments, referrals) is read from the store as before. A write made
 * through these stores empties the cache at once; one made elsewhere (another instance, the
 * Firestore console) is seen within `ttlMs`. Concurrent misses of one key share one read.
 */
export function withCachedConfiguration(stores: Stores, options: Options = {}): Stores {
  // The server's cache service with no stale period: fresh for `ttlMs`, then read again; a first
  // read that fails is not kept, and a later one that fails serves the last copy, logged.
  const cache = createCacheService({ name: "configuration", clock: options.clock });
  const kept = { ttlMs: options.ttlMs ?? CONFIGURATION_CACHE_MS, staleMs: 0, maxEntries: MAX_ENTRIES };
  const reads = {
    center: cache.define<Read<Stores["centerPricing"]["get"]>, { centerId: string; serviceIds: string[] }>({
      name: "center",
      key: (q) => `${q.centerId}:${q.serviceIds.join(",")}`,
      ...kept,
    }),
    promo: cache.define<Read<Stores["promoCodes"]["get"]>>({ name: "promo", key: normalizePromoCode, ...kept }),
    partner: cache.define<Read<Stores["pricing"]["partner"]>>({
      name: "partner",
      key: (partnerType) => partnerType.toUpperCase(),
      ...kept,
    }),
    tiers: cache.define<Read<Stores["pricing"]["tiers"]>, "chain">({ name: "tiers", key: (scope) => scope, ...kept }),
    areas: cache.define<Read<Stores["pricing"]["addOnPrices"]>, string[]>({
      name: "areas",
      key: (serviceIds) => serviceIds.join(","),
      ...kept,
    }),
  };
  const frozen =
    <T>(load: () => Promise<T>) =>
    () =>
      load().then(deepFreeze);

  async function write(save: () => Promise<void>): Promise<void> {
    try {
      await save();
    } finally {
      cache.clear();
    }
  }

  const { centerPricing, promoCodes, pricing } = stores;
  return {
    ...stores,
    centerPricing: {
      get: (centerId, serviceIds) =>
        reads.center.get(
          { centerId, serviceIds },
          frozen(() => centerPricing.get(centerId, serviceIds)),
        ),
      put: (price) => write(() => centerPricing.put(price)),
    },
    promoCodes: {
      get: (code) =>
        reads.promo.get(
          code,
          frozen(() => promoCodes.get(code)),
        ),
      put: (promo) => write(() => promoCodes.put(promo)),
    },
    pricing: {
      partner: (partnerType) =>
        reads.partner.get(
          partnerType,
          frozen(() => pricing.partner(partnerType)),
        ),
      putPartner: (partner) => write(() => pricing.putPartner(partner)),
      tiers: () =>
        reads.tiers.get(
          "chain",
          frozen(() => pricing.tiers()),
        ),
      putTiers: (tiers) => write(() => pricing.putTiers(tiers)),
      addOnPrices: (serviceIds) =>
        reads.areas.get(
          serviceIds,
          frozen(() => pricing.addOnPrices(serviceIds)),
        ),
      putAddOnPrice: (price) => write(() => pricing.putAddOnPrice(price)),
    },
  };
}

/** A kept record is shared by every request that reads it: frozen, so that no caller can change it for the others. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
