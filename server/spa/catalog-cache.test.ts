import { describe, expect, it } from "vitest";
import { countingBackEnd } from "./catalog-back-end.test-support";
import { createCachedCatalog, createSwrCache } from "./catalog-cache.server";
import { createSharedCatalogStore } from "../compose.server";

function deferredLoader() {
  let calls = 0;
  let fail = false;
  return {
    load: async () => {
      calls += 1;
      if (fail) throw new Error("back end down");
      return `v${calls}`;
    },
    calls: () => calls,
    setFail: (value: boolean) => {
      fail = value;
    },
  };
}

describe("stale-while-revalidate catalog cache", () => {
  it("serves a fresh value without calling again", async () => {
    let now = 0;
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 5000, clock: () => now });
    const loader = deferredLoader();
    expect(await cache.get("k", loader.load)).toBe("v1");
    now = 999;
    expect(await cache.get("k", loader.load)).toBe("v1");
    expect(loader.calls()).toBe(1);
  });

  it("shares one load between concurrent misses", async () => {
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 0 });
    const loader = deferredLoader();
    const values = await Promise.all([cache.get("k", loader.load), cache.get("k", loader.load), cache.get("k", loader.load)]);
    expect(values).toEqual(["v1", "v1", "v1"]);
    expect(loader.calls()).toBe(1);
  });

  it("serves the stale value at once and refreshes in the background", async () => {
    let now = 0;
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 5000, clock: () => now });
    const loader = deferredLoader();
    await cache.get("k", loader.load);
    now = 2000;
    expect(await cache.get("k", loader.load)).toBe("v1");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loader.calls()).toBe(2);
    expect(await cache.get("k", loader.load)).toBe("v2");
  });

  it("keeps serving the old value when a refresh fails", async () => {
    let now = 0;
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 1000, clock: () => now });
    const loader = deferredLoader();
    await cache.get("k", loader.load);
    loader.setFail(true);
    now = 10_000;
    expect(await cache.get("k", loader.load)).toBe("v1");
  });

  it("fails when there is nothing to fall back on", async () => {
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 1000 });
    const loader = deferredLoader();
    loader.setFail(true);
    await expect(cache.get("k", loader.load)).rejects.toThrow("back end down");
    loader.setFail(false);
    expect(await cache.get("k", loader.load)).toBe("v2");
  });
});

describe("a value fetched earlier (another instance's shared copy)", () => {
  it("ages from when it was fetched, not from when this instance took it", async () => {
    let now = 10_000;
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 0, clock: () => now });
    expect(await cache.getFetched("k", async () => ({ value: "shared", fetchedAt: 9_100 }))).toBe("shared");
    now = 10_050;
    expect(await cache.getFetched("k", async () => ({ value: "unused", fetchedAt: now }))).toBe("shared");
    now = 10_100;
    expect(await cache.getFetched("k", async () => ({ value: "refreshed", fetchedAt: now }))).toBe("refreshed");
  });

  it("does not replace a newer value held here", async () => {
    let now = 0;
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 0, clock: () => now, versioned: true });
    await cache.getFetched("k", async () => ({ value: "mine", fetchedAt: 500 }));
    const version = cache.version();
    now = 1_600;
    expect(await cache.getFetched("k", async () => ({ value: "older", fetchedAt: 400 }))).toBe("mine");
    expect(cache.version()).toBe(version);
  });
});

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
    let centers = [{ id: "a" }];
    const cache = createSwrCache({ ttlMs: 1000, staleMs: 0, clock: () => now, versioned: true });
    const load = async () => centers;
    await cache.get("centers", load);
    const first = cache.version();
    now = 2000;
    await cache.get("centers", load);
    expect(cache.version()).toBe(first);
    centers = [{ id: "a" }, { id: "b" }];
    now = 4000;
    await cache.get("centers", load);
    expect(cache.version()).toBeGreaterThan(first);
  });
});
