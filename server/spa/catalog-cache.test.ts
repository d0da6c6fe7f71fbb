import { describe, expect, it } from "vitest";
import { clinic, countingBackEnd } from "./catalog-back-end.test-support";
import { createCachedCatalog } from "./catalog-cache.server";
import { createSharedCatalogStore } from "../compose.server";

describe("the cached catalog without a shared store", () => {
  it("is what an unset REDIS_URL gives, and each instance calls the back end once per key and TTL", async () => {
    let now = 0;
    const shared = await createSharedCatalogStore({});
    expect(shared.kind).toBe("none");
    const backEnd = countingBackEnd();
    const options = { ttlMs: 1000, staleMs: 0, clock: () => now, shared };
    const [a, b] = [createCachedCatalog(backEnd.for("a"), options), createCachedCatalog(backEnd.for("b"), options)];
    for (const instance of [a, b, a, b]) {
      await instance.listCenters();
      await instance.listServices("C1");
    }
    expect([backEnd.calls("a"), backEnd.calls("b")]).toEqual([2, 2]);
    now = 1_000;
    await a.listCenters();
    expect(backEnd.calls("a")).toBe(3);
  });
});

describe("the catalog's version", () => {
  it("goes up when a refresh brings changed data, and only then", async () => {
    let now = 0;
    const backEnd = countingBackEnd(1);
    const catalog = createCachedCatalog(backEnd.for("a"), { ttlMs: 1000, staleMs: 0, clock: () => now });
    await catalog.listCenters();
    const first = catalog.version();
    now = 2000;
    await catalog.listCenters();
    expect(backEnd.calls("a")).toBe(2);
    expect(catalog.version()).toBe(first);
    backEnd.setCenters([clinic("c1"), clinic("c2")]);
    now = 4000;
    await catalog.listCenters();
    expect(catalog.version()).toBeGreaterThan(first);
  });
});

describe("a catalog value fetched earlier (another instance's shared copy)", () => {
  it("ages from when it was fetched, not from when this instance took it", async () => {
    let now = 10_000;
    const copy = { value: { centers: [clinic("c1")], withoutTimeZone: [] }, fetchedAt: 9_100 };
    const backEnd = countingBackEnd(2);
    const catalog = createCachedCatalog(backEnd.for("a"), {
      ttlMs: 1000,
      staleMs: 0,
      clock: () => now,
      shared: {
        kind: "redis",
        get: async () => copy,
        set: async () => {},
        lock: async () => true,
        close: async () => {},
      },
    });
    expect((await catalog.listCenters()).map((c) => c.id)).toEqual(["c1"]);
    now = 10_050;
    expect((await catalog.listCenters()).map((c) => c.id)).toEqual(["c1"]);
    expect(backEnd.calls("a")).toBe(0);
    // 900 ms old when taken: due again 100 ms later, and then read from the back end.
    now = 10_100;
    expect((await catalog.listCenters()).map((c) => c.id)).toEqual(["c1", "c2"]);
    expect(backEnd.calls("a")).toBe(1);
  });
});
