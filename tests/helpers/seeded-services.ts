import type { Services } from "../../server/services";
import { LOW_COST } from "../../server/accounts/passwords.server";
import { parseEnv } from "../../server/env.server";
import { seedEmbeddedStores } from "../../server/spa-sandbox/seed-store";
import { createCachedCatalog } from "../../server/spa/catalog-cache.server";
import type { SpaClient } from "../../server/spa/client.server";
import type { Stores } from "../../server/store/stores.server";
import { createRecordingAnalytics } from "./recording-analytics";

/**
 * The services a use case needs, on a sandbox's spa client and stores of the test's own, seeded as
 * the embedded set-up seeds them (promo codes, prices, the growth configuration). `extra` replaces
 * or adds members (leads, a notifier). Passwords are hashed at the low cost test servers use
 * (passwords.test.ts checks the standard one).
 */
export async function seededServices(spa: SpaClient, stores: Stores, extra: Partial<Services> = {}): Promise<Services> {
  await seedEmbeddedStores(stores, LOW_COST);
  return {
    env: parseEnv({ NODE_ENV: "test", PASSWORD_HASH_COST: "low" }),
    spa,
    stores,
    catalog: createCachedCatalog(spa, { ttlMs: 600_000, staleMs: 0 }),
    analytics: createRecordingAnalytics(),
    ...extra,
  } as unknown as Services;
}
