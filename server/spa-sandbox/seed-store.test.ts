import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createAccountService } from "../accounts/account-service.server";
import { createNoAnalytics } from "../analytics/analytics.server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import { loadGuestVisits, visitsOfTab } from "../appointments/visits.server";
import type { Services } from "../services";
import { parseEnv } from "../env.server";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import { seedGuid } from "./db";
import { DEMO_GUEST_ID } from "./demo-guest";
import { seedEmbeddedStores } from "./seed-store";

/** The app's embedded stores beside a new sandbox: the demo guest's account, seeded once. */

const AUSTIN = seedGuid("center:ATX");
const EMAIL = "demo@glowclinic.example";
const PASSWORD = "Glow!Demo2026";
// 09:00 in Austin on Monday 30 November 2026.
const NOW = Date.parse("2026-11-30T15:00:00Z");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let services: Services;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW, holdSeconds: 600 });
  const spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    stores: createSqliteStores(":memory:"),
    catalog: createCachedCatalog(spa, { ttlMs: 60_000, staleMs: 0 }),
    rateLimiter: createMemoryRateLimiter(),
    analytics: createNoAnalytics(),
  } as unknown as Services;
  services.accounts = createAccountService(services, () => NOW);
});
afterAll(async () => {
  await services.stores.close();
  await sandbox.stop();
});

describe("the demo account", () => {
  it("signs in with the documented password, as the demo guest of her home clinic, Austin", async () => {
    expect(await services.stores.accounts.getByEmail(EMAIL)).toBeNull();
    await seedEmbeddedStores(services.stores);
    const signedIn = await services.accounts.login(EMAIL, PASSWORD);
    expect(signedIn.ok && signedIn.value.user).toMatchObject({
      email: EMAIL,
      guestId: DEMO_GUEST_ID,
      centerId: AUSTIN,
    });
    expect(await services.accounts.login(EMAIL, "Glow!Skin2026")).toMatchObject({ ok: false, field: "password" });
    expect(await services.stores.guestDetails.get(EMAIL)).toMatchObject({
      guest_id: DEMO_GUEST_ID,
      is_password_set: true,
    });
  });

  it("opens the demo guest's history: one visit coming, four behind her, latest first", async () => {
    const signedIn = await services.accounts.login(EMAIL, PASSWORD);
    if (!signedIn.ok) throw new Error(signedIn.message);
    const visits = await loadGuestVisits(services, signedIn.value.user.guestId, NOW);
    expect(visitsOfTab(visits, "upcoming").map((v) => [v.start, v.statusLabel, v.nurse, v.center?.id])).toEqual([
      ["2026-12-07T14:30:00", "Booked", "Dana Whitfield", AUSTIN],
    ]);
    expect(
      visitsOfTab(visits, "past").map((v) => [
        v.start.slice(0, 10),
        v.statusLabel,
        v.services.map((s) => s.displayName),
      ]),
    ).toEqual([
      ["2026-11-07", "No show", ["Signature Laser Facial"]],
      ["2026-10-20", "Completed", ["Signature Laser Facial", "Hydrating Mask Enhancement"]],
      ["2026-10-02", "Cancelled", ["Signature Laser Facial"]],
      ["2026-09-02", "Completed", ["Signature Laser Facial - New Client", "LED Light Therapy Enhancement"]],
    ]);
  });

  it("is seeded once: a second seed (the next start) neither adds nor changes it", async () => {
    const before = await services.stores.accounts.getByEmail(EMAIL);
    await seedEmbeddedStores(services.stores);
    expect(await services.stores.accounts.getByEmail(EMAIL)).toEqual(before);
    expect(await services.stores.accounts.getById(before!.id)).toEqual(before);
  });

  it("leaves an account the email already has as it is", async () => {
    const stores = createSqliteStores(":memory:");
    try {
      const existing = {
        id: "acct-1",
        email: EMAIL,
        guestId: "someone-else",
        centerId: AUSTIN,
        passwordHash: "kept",
        createdAt: 1,
        passwordChangedAt: 1,
      };
      await stores.accounts.create(existing);
      await seedEmbeddedStores(stores);
      expect(await stores.accounts.getByEmail(EMAIL)).toEqual(existing);
      // The rest of the seed still came.
      expect(await stores.promoCodes.get("WELCOME10")).not.toBeNull();
    } finally {
      await stores.close();
    }
  });
});
