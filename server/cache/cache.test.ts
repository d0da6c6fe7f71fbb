import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { createCacheService } from "./cache.server";

/** A back end that answers v1, v2, ... and counts its calls; it can fail, or hold its answers until released. */
function countingLoader() {
  let calls = 0;
  let fail = false;
  let gate: Promise<void> | null = null;
  let open = () => {};
  return {
    load: async () => {
      calls += 1;
      const answer = `v${calls}`;
      await gate;
      if (fail) throw new Error("back end down");
      return answer;
    },
    calls: () => calls,
    setFail: (value: boolean) => {
      fail = value;
    },
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = null;
      open();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a region's keys", () => {
  it("start with the region's name and are built by its owner's key builder", () => {
    const cache = createCacheService({ name: "test" });
    const cards = cache.define<string[], { guestId: string; centerId: string }>({
      name: "saved-cards",
      key: ({ guestId, centerId }) => `${guestId.toLowerCase()}|${centerId.toLowerCase()}`,
      ttlMs: 1000,
      staleMs: 0,
    });
    expect(cards.key({ guestId: "G-1", centerId: "C1" })).toBe("saved-cards:g-1|c1");
  });

  it("keep regions apart even when the owners' keys are the same", async () => {
    const cache = createCacheService({ name: "test" });
    const plans = cache.define<string>({ name: "plans", key: (id) => id, ttlMs: 1000, staleMs: 0 });
    const packages = cache.define<string>({ name: "packages", key: (id) => id, ttlMs: 1000, staleMs: 0 });
    expect(await plans.get("c1", async () => "plans of c1")).toBe("plans of c1");
    expect(await packages.get("c1", async () => "packages of c1")).toBe("packages of c1");
    expect(await plans.get("c1", async () => "not asked")).toBe("plans of c1");
  });

  it("read one value for ids told apart only by case when the builder says so", async () => {
    const cache = createCacheService({ name: "test" });
    const lists = cache.define<string>({ name: "lists", key: (id) => id.toLowerCase(), ttlMs: 1000, staleMs: 0 });
    const loader = countingLoader();
    await lists.get("ABC", loader.load);
    expect(await lists.get("abc", loader.load)).toBe("v1");
    expect(loader.calls()).toBe(1);
  });
});

describe("freshness", () => {
  it("serves a fresh value without calling again, and reads again once its ttl is over", async () => {
    let now = 0;
    const cache = createCacheService({ name: "test", clock: () => now });
    const region = cache.define<string>({ name: "r", key: (k) => k, ttlMs: 1000, staleMs: 0 });
    const loader = countingLoader();
    expect(await region.get("k", loader.load)).toBe("v1");
    now = 500;
    expect(await region.get("k", loader.load)).toBe("v1");
    now = 1000;
    expect(await region.get("k", loader.load)).toBe("v2");
    expect(loader.calls()).toBe(2);
  });

  it("shares one load between concurrent misses", async () => {
    const cache = createCacheService({ name: "test" });
    const region = cache.define<string>({ name: "r", key: (k) => k, ttlMs: 1000, staleMs: 0 });
    const loader = countingLoader();
    const values = await Promise.all([
      region.get("k", loader.load),
      region.get("k", loader.load),
      region.get("k", loader.load),
    ]);
    expect(values).toEqual(["v1", "v1", "v1"]);
    expect(loader.calls()).toBe(1);
  });

  it("keeps serving the old value while one background call refreshes it, then serves the new one", async () => {
    let now = 0;
    const cache = createCacheService({ name: "test", clock: () => now });
    const region = cache.define<string>({ name: "r", key: (k) => k, ttlMs: 1000, staleMs: 5000 });
    const loader = countingLoader();
    await region.get("k", loader.load);
    now = 2000;
    loader.hold();
    expect(await region.get("k", loader.load)).toBe("v1");
    await vi.waitFor(() => expect(loader.calls()).toBe(2));
    // The refresh has not answered: every read meanwhile is served the old value, and none calls again.
    expect(await region.get("k", loader.load)).toBe("v1");
    expect(await region.get("k", loader.load)).toBe("v1");
    expect(loader.calls()).toBe(2);
    loader.release();
    await vi.waitFor(async () => expect(await region.get("k", loader.load)).toBe("v2"));
    expect(loader.calls()).toBe(2);
  });

  it("keeps the old value when the background refresh fails, and says so", async () => {
    let now = 0;
    const cache = createCacheService({ name: "test", clock: () => now });
    const region = cache.define<string>({ name: "plans", key: (k) => k, ttlMs: 1000, staleMs: 5000 });
    const loader = countingLoader();
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    await region.get("k", loader.load);
    loader.setFail(true);
    now = 2000;
    expect(await region.get("k", loader.load)).toBe("v1");
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith("test refresh failed; serving stale", { key: "plans", error: "back end down" }),
    );
    expect(await region.get("k", loader.load)).toBe("v1");
  });

  it("serves an expired copy when the read that replaces it fails, and fails when there is none", async () => {
    let now = 0;
    const cache = createCacheService({ name: "test", clock: () => now });
    const region = cache.define<string>({ name: "tiers", key: (k) => k, ttlMs: 1000, staleMs: 1000 });
    const loader = countingLoader();
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    loader.setFail(true);
    await expect(region.get("k", loader.load)).rejects.toThrow("back end down");
    loader.setFail(false);
    expect(await region.get("k", loader.load)).toBe("v2");
    loader.setFail(true);
    now = 10_000;
    expect(await region.get("k", loader.load)).toBe("v2");
    expect(warn).toHaveBeenCalledWith("test load failed; serving expired copy", { key: "tiers" });
  });

  it("reads past a kept value when asked for a fresh one, and keeps what it read", async () => {
    const cache = createCacheService({ name: "test" });
    const region = cache.define<string>({ name: "r", key: (k) => k, ttlMs: 60_000, staleMs: 0 });
    const loader = countingLoader();
    await region.get("k", loader.load);
    expect(await region.get("k", loader.load, { fresh: true })).toBe("v2");
    expect(await region.get("k", loader.load)).toBe("v2");
    expect(loader.calls()).toBe(2);
  });

  it("reads an expired key again, serving the expired value if that read fails", async () => {
    const cache = createCacheService({ name: "test" });
    const region = cache.define<string>({ name: "r", key: (k) => k, ttlMs: 60_000, staleMs: 0 });
    const loader = countingLoader();
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    await region.get("k", loader.load);
    region.expire("k");
    expect(await region.get("k", loader.load)).toBe("v2");
    region.expire("k");
    loader.setFail(true);
    expect(await region.get("k", loader.load)).toBe("v2");
    expect(loader.calls()).toBe(3);
  });

  it("keeps at most the region's bound of keys, the least used going first", async () => {
    const cache = createCacheService({ name: "test" });
    const region = cache.define<string>({ name: "r", key: (k) => k, ttlMs: 60_000, staleMs: 0, maxEntries: 2 });
    const loader = countingLoader();
    await region.get("a", loader.load);
    await region.get("b", loader.load);
    await region.get("a", loader.load);
    await region.get("c", loader.load);
    expect(loader.calls()).toBe(3);
    expect(await region.get("a", loader.load)).toBe("v1");
    expect(await region.get("b", loader.load)).toBe("v4");
  });
});

describe("events", () => {
  it("clear exactly the keys the owner says, in the regions that handle them", async () => {
    const cache = createCacheService({ name: "test" });
    const memberships = cache.define<string>({
      name: "memberships",
      key: (guestId) => guestId,
      ttlMs: 60_000,
      staleMs: 0,
      on: { membershipBought: ({ guestId }, region) => region.delete(guestId) },
    });
    const packages = cache.define<string>({ name: "packages", key: (guestId) => guestId, ttlMs: 60_000, staleMs: 0 });
    const loader = countingLoader();
    for (const guestId of ["g1", "g2"]) {
      await memberships.get(guestId, loader.load);
      await packages.get(guestId, loader.load);
    }
    expect(loader.calls()).toBe(4);

    cache.emit("membershipBought", { guestId: "g1" });

    expect(await memberships.get("g1", loader.load)).toBe("v5");
    expect(await memberships.get("g2", loader.load)).toBe("v3");
    expect(await packages.get("g1", loader.load)).toBe("v2");
    expect(await packages.get("g2", loader.load)).toBe("v4");
    expect(loader.calls()).toBe(5);
  });

  it("let an owner keep what an event tells it, so that no read is made", async () => {
    const cache = createCacheService({ name: "test" });
    const cards = cache.define<string[], { guestId: string; centerId: string }>({
      name: "cards",
      key: ({ guestId, centerId }) => `${guestId}|${centerId}`,
      ttlMs: 60_000,
      staleMs: 0,
      on: { guestCreated: (created, region) => region.set(created, []) },
    });
    cache.emit("guestCreated", { guestId: "g1", centerId: "c1" });
    expect(await cards.get({ guestId: "g1", centerId: "c1" }, async () => ["read"])).toEqual([]);
    expect(await cards.get({ guestId: "g1", centerId: "c2" }, async () => ["read"])).toEqual(["read"]);
  });

  it("reach the region defined last under a name, not one it replaced", async () => {
    const cache = createCacheService({ name: "test" });
    const handled: string[] = [];
    cache.define<string>({
      name: "r",
      key: (k) => k,
      ttlMs: 1000,
      staleMs: 0,
      on: { membershipBought: () => handled.push("first") },
    });
    cache.define<string>({
      name: "r",
      key: (k) => k,
      ttlMs: 1000,
      staleMs: 0,
      on: { membershipBought: () => handled.push("second") },
    });
    cache.emit("membershipBought", { guestId: "g1" });
    expect(handled).toEqual(["second"]);
  });
});

describe("versions", () => {
  it("go up when a stored value changes, and not when a refresh brings the same one back", async () => {
    let now = 0;
    const cache = createCacheService({ name: "test", clock: () => now });
    const region = cache.define<string[]>({ name: "r", key: (k) => k, ttlMs: 1000, staleMs: 0, versioned: true });
    let centers = ["a"];
    await region.get("k", async () => centers);
    const first = region.version();
    now = 2000;
    await region.get("k", async () => [...centers]);
    expect(region.version()).toBe(first);
    centers = ["a", "b"];
    now = 4000;
    await region.get("k", async () => centers);
    expect(region.version()).toBeGreaterThan(first);
  });

  it("do not go back to an older copy fetched elsewhere than the one held", async () => {
    let now = 0;
    const cache = createCacheService({ name: "test", clock: () => now });
    const region = cache.define<string>({ name: "r", key: (k) => k, ttlMs: 1000, staleMs: 0, versioned: true });
    await region.getFetched("k", async () => ({ value: "mine", fetchedAt: 500 }));
    const version = region.version();
    now = 1_600;
    expect(await region.getFetched("k", async () => ({ value: "older", fetchedAt: 400 }))).toBe("mine");
    expect(region.version()).toBe(version);
  });
});

describe("the whole service", () => {
  it("empties every region at once", async () => {
    const cache = createCacheService({ name: "test" });
    const a = cache.define<string>({ name: "a", key: (k) => k, ttlMs: 60_000, staleMs: 0 });
    const b = cache.define<string>({ name: "b", key: (k) => k, ttlMs: 60_000, staleMs: 0 });
    const loader = countingLoader();
    await a.get("k", loader.load);
    await b.get("k", loader.load);
    cache.clear();
    await a.get("k", loader.load);
    await b.get("k", loader.load);
    expect(loader.calls()).toBe(4);
  });
});
