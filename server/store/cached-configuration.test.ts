import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { CONFIGURATION_CACHE_MS, withCachedConfiguration } from "./cached-configuration.server";
import { createSqliteStores } from "./sqlite-store.server";
import type { Stores } from "./stores.server";

const opened: Stores[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** One SQLite file read through two stores: `cached` as the app reads it, `elsewhere` as another instance or the console writes it. */
function setUp() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cached-configuration-"));
  folders.push(folder);
  const file = path.join(folder, "store.sqlite");
  const elsewhere = createSqliteStores(file);
  const direct = createSqliteStores(file);
  let now = 1_000_000;
  const reads = { center: 0, tiers: 0 };
  const counted: Stores = {
    ...direct,
    centerPricing: { ...direct.centerPricing, get: (...args) => (reads.center++, direct.centerPricing.get(...args)) },
    pricing: { ...direct.pricing, tiers: () => (reads.tiers++, direct.pricing.tiers()) },
  };
  opened.push(elsewhere, direct);
  const cached = withCachedConfiguration(counted, { clock: () => now });
  return { cached, elsewhere, reads, advance: (ms: number) => (now += ms) };
}

const tiers = {
  priceTiers: [{ code: "100CHARGE", charge: 10_000, serviceIds: ["svc-1"] }],
  defaultPriceTier: "FT50RAF",
  offerTiers: [],
};

describe("the configuration read through a short cache", () => {
  it("asks the store once a minute for the same read, however many requests ask", async () => {
    const { cached, elsewhere, reads, advance } = setUp();
    await elsewhere.centerPricing.put({ centerId: "c-1", serviceId: "svc-1", price: 15_000, isPrepaidService: true });
    const asked = await Promise.all([1, 2, 3].map(() => cached.centerPricing.get("c-1", ["svc-1"])));
    expect(asked.every((prices) => prices[0]?.price === 15_000)).toBe(true);
    expect(reads.center).toBe(1);

    // Changed by another instance: seen once the minute is up, not before.
    await elsewhere.centerPricing.put({ centerId: "c-1", serviceId: "svc-1", price: 12_000, isPrepaidService: true });
    advance(CONFIGURATION_CACHE_MS - 1_000);
    expect((await cached.centerPricing.get("c-1", ["svc-1"]))[0].price).toBe(15_000);
    advance(2_000);
    expect((await cached.centerPricing.get("c-1", ["svc-1"]))[0].price).toBe(12_000);
    expect(reads.center).toBe(2);
  });

  it("sees its own writes at once", async () => {
    const { cached, reads } = setUp();
    expect(await cached.pricing.tiers()).toBeNull();
    await cached.pricing.putTiers(tiers);
    expect(await cached.pricing.tiers()).toEqual(tiers);
    expect(reads.tiers).toBe(2);
  });

  it("keeps different reads apart: clinics, partners in any case, promo codes in any case", async () => {
    const { cached, elsewhere } = setUp();
    await elsewhere.centerPricing.put({ centerId: "c-1", serviceId: "svc-1", price: 15_000, isPrepaidService: true });
    await elsewhere.pricing.putPartner({
      partnerType: "GLOWPASS",
      name: "GlowPass",
      prices: [{ serviceId: "svc-1", price: 10_000 }],
    });
    expect(await cached.centerPricing.get("c-2", ["svc-1"])).toEqual([]);
    expect((await cached.centerPricing.get("c-1", ["svc-1"]))[0].price).toBe(15_000);
    expect((await cached.pricing.partner("glowpass"))?.name).toBe("GlowPass");
    expect(await cached.pricing.partner("other")).toBeNull();
    await elsewhere.promoCodes.put({ code: "WELCOME10", rules: [], maxUsesPerGuest: null } as never);
    expect((await cached.promoCodes.get(" welcome10 "))?.code).toBe("WELCOME10");
  });

  it("hands out records no caller can change for the next one", async () => {
    const { cached } = setUp();
    await cached.pricing.putTiers(tiers);
    const kept = (await cached.pricing.tiers())!;
    expect(() => kept.priceTiers.push({ code: "X", charge: 1, serviceIds: [] })).toThrow(TypeError);
    expect(() => {
      kept.priceTiers[0].charge = 1;
    }).toThrow(TypeError);
    expect((await cached.pricing.tiers())!.priceTiers[0].charge).toBe(10_000);
  });

  it("does not keep a read that failed", async () => {
    const { cached } = setUp();
    let fail = true;
    const flaky = withCachedConfiguration({
      ...cached,
      pricing: {
        ...cached.pricing,
        tiers: () => (fail ? Promise.reject(new Error("store down")) : Promise.resolve(tiers)),
      },
    });
    await expect(flaky.pricing.tiers()).rejects.toThrow("store down");
    fail = false;
    expect(await flaky.pricing.tiers()).toEqual(tiers);
  });

  it("serves the last copy when a later read fails, and says so as the configuration's", async () => {
    let now = 0;
    let fail = false;
    const { cached } = setUp();
    const flaky = withCachedConfiguration(
      {
        ...cached,
        pricing: {
          ...cached.pricing,
          tiers: () => (fail ? Promise.reject(new Error("store down")) : Promise.resolve(tiers)),
        },
      },
      { clock: () => now },
    );
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    try {
      await flaky.pricing.tiers();
      fail = true;
      now += CONFIGURATION_CACHE_MS + 1;
      expect(await flaky.pricing.tiers()).toEqual(tiers);
      expect(warn).toHaveBeenCalledWith("configuration load failed; serving expired copy", { key: "tiers" });
    } finally {
      warn.mockRestore();
    }
  });
});
