import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startLocalRedis, type LocalRedis } from "../accounts/redis-rate-limit.test-support";
import { logger } from "../observability/logger.server";
import { clinic, countingBackEnd } from "./catalog-back-end.test-support";
import { createCachedCatalog, type CachedCatalog, type CachedCatalogOptions } from "./catalog-cache.server";
import { createRedisSharedCatalog, DEFAULT_KEY_PREFIX } from "./redis-shared-catalog.server";
import { createSharedCatalogStore } from "../compose.server";
import type { SharedCatalogStore } from "./shared-catalog.server";

const started = await startLocalRedis();
const redis: LocalRedis | null = "url" in started ? started : null;
if (!redis) {
  const why = `shared catalog tests need redis-server (${"unavailable" in started ? started.unavailable : ""}); install it (apt-get install redis-server).`;
  // CI installs redis-server: there a missing one is a failure, not a skip.
  if (process.env.CI) throw new Error(why);
  console.warn(`Shared catalog tests skipped: ${why}`);
}
afterAll(async () => {
  await redis?.stop();
});

const TTL_MS = 300_000;

describe.skipIf(!redis)("the catalog shared in Redis", () => {
  let now: number;
  let prefix: string;
  let raw: Redis;
  const opened: SharedCatalogStore[] = [];
  beforeEach(() => {
    now = Date.UTC(2026, 0, 5, 9);
    // Each test's copies under a prefix of their own.
    prefix = `test-${randomUUID()}`;
    raw = new Redis(redis!.url, { lazyConnect: true });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(opened.splice(0).map((store) => store.close()));
    raw.disconnect();
  });

  /**
   * One instance of the app: its own in-process cache over the shared store. The stale window is
   * left out (as it is once an entry is older than TTL + stale), so a read waits for its refresh.
   */
  async function instance(
    backEnd: ReturnType<typeof countingBackEnd>,
    name: string,
    options: Partial<CachedCatalogOptions> = {},
  ): Promise<CachedCatalog> {
    const shared = await createRedisSharedCatalog({ url: redis!.url, keyPrefix: prefix });
    opened.push(shared);
    return createCachedCatalog(backEnd.for(name), { ttlMs: TTL_MS, staleMs: 0, clock: () => now, shared, ...options });
  }

  it("lets a second instance use what the first one loaded, without calling the back end", async () => {
    const backEnd = countingBackEnd();
    const production = { staleMs: 3_600_000 };
    const [a, b] = [await instance(backEnd, "a", production), await instance(backEnd, "b", production)];
    const loaded = [await a.listCenters(), await a.listServices("C1"), await a.listTherapists("C1")];
    expect(backEnd.calls("a")).toBe(3);

    expect([await b.listCenters(), await b.listServices("c1"), await b.listTherapists("C1")]).toEqual(loaded);
    expect(await b.getCenterBySlug("c2")).toMatchObject({ id: "c2" });
    expect(backEnd.calls("b")).toBe(0);
  });

  it("keeps each copy under its namespace, with the time it was fetched, for the fresh and the stale time", async () => {
    const backEnd = countingBackEnd();
    const a = await instance(backEnd, "a", { staleMs: 3_600_000 });
    await a.listCenters();
    await a.listServices("C1");
    await raw.connect();
    expect((await raw.keys(`${prefix}:*`)).sort()).toEqual([
      `${prefix}:copy:center-list`,
      `${prefix}:copy:services:c1`,
    ]);
    expect(JSON.parse((await raw.get(`${prefix}:copy:center-list`))!)).toEqual({
      fetchedAt: now,
      value: { centers: await a.listCenters(), withoutTimeZone: [] },
    });
    const keptMs = await raw.pttl(`${prefix}:copy:center-list`);
    expect(keptMs).toBeGreaterThan(TTL_MS + 3_600_000 - 5_000);
    expect(keptMs).toBeLessThanOrEqual(TTL_MS + 3_600_000);
  });

  it("refreshes a stale shared copy on one instance only while the others race for it", async () => {
    const backEnd = countingBackEnd();
    const instances = [
      await instance(backEnd, "a"),
      await instance(backEnd, "b"),
      await instance(backEnd, "c"),
      await instance(backEnd, "d"),
    ];
    const before = await instances[0].listCenters();
    for (const other of instances.slice(1)) await other.listCenters();
    const changed = [clinic("c1", "Glow Clinic Renamed"), clinic("c2")];
    backEnd.setCenters(changed);

    now += TTL_MS;
    backEnd.hold();
    const reads = Promise.all(instances.map((catalog) => catalog.listCenters()));
    await expect.poll(() => backEnd.pending()).toBe(1);
    backEnd.release();
    // The winner has the new list; the others served the stale copy, or the new one if it was there first.
    const served = await reads;
    expect(served).toContainEqual(changed);
    for (const list of served) expect([before, changed]).toContainEqual(list);
    expect(backEnd.calls()).toBe(2);

    // Their next read finds the fresh copy: still no call.
    for (const catalog of instances) expect(await catalog.listCenters()).toEqual(changed);
    expect(backEnd.calls()).toBe(2);
  });

  it("serves the shared copy everywhere while a failed refresh holds its lock, then one instance asks again", async () => {
    const backEnd = countingBackEnd();
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    const a = await instance(backEnd, "a", { refreshLockMs: 300 });
    const before = await a.listCenters();
    now += TTL_MS;
    backEnd.setFailing(true);
    expect(await a.listCenters()).toEqual(before);
    expect(backEnd.calls("a")).toBe(2);
    expect(warn).toHaveBeenCalledWith("catalog refresh failed; serving the shared copy", { key: "center-list" });

    const b = await instance(backEnd, "b", { refreshLockMs: 300 });
    expect(await b.listCenters()).toEqual(before);
    expect(backEnd.calls("b")).toBe(0);

    backEnd.setFailing(false);
    const changed = [clinic("c9")];
    backEnd.setCenters(changed);
    await expect.poll(() => b.listCenters()).toEqual(changed);
    expect(backEnd.calls()).toBe(3);
    expect(await a.listCenters()).toEqual(changed);
    expect(backEnd.calls()).toBe(3);
  });

  it("raises each instance's version only when a refresh brings changed data", async () => {
    const backEnd = countingBackEnd();
    const [a, b] = [await instance(backEnd, "a"), await instance(backEnd, "b")];
    await a.listCenters();
    await b.listCenters();
    const first = [a.version(), b.version()];

    now += TTL_MS;
    await a.listCenters();
    await b.listCenters();
    expect(backEnd.calls()).toBe(2);
    expect([a.version(), b.version()]).toEqual(first);

    backEnd.setCenters([clinic("c1"), clinic("c3")]);
    now += TTL_MS;
    await a.listCenters();
    await b.listCenters();
    expect(backEnd.calls("b")).toBe(0);
    expect(a.version()).toBeGreaterThan(first[0]);
    expect(b.version()).toBeGreaterThan(first[1]);
  });

  it("reads a copy it cannot parse as none, and writes a good one over it", async () => {
    const backEnd = countingBackEnd();
    await raw.connect();
    await raw.set(`${prefix}:copy:center-list`, "{not json");
    const a = await instance(backEnd, "a");
    expect(await a.listCenters()).toHaveLength(2);
    expect(backEnd.calls("a")).toBe(1);
    expect(JSON.parse((await raw.get(`${prefix}:copy:center-list`))!)).toMatchObject({ fetchedAt: now });
  });

  it("is chosen by createSharedCatalogStore when REDIS_URL is set, under the default namespace", async () => {
    const shared = await createSharedCatalogStore({ REDIS_URL: redis!.url });
    opened.push(shared);
    expect(shared.kind).toBe("redis");
    const key = `services:${randomUUID()}`;
    await shared.set(key, { value: [], fetchedAt: now }, 60_000);
    await raw.connect();
    expect(await raw.exists(`${DEFAULT_KEY_PREFIX}:copy:${key}`)).toBe(1);
    expect(await shared.get(key)).toEqual({ value: [], fetchedAt: now });
  });

  it("costs the chain one back-end call per key and TTL, whatever the number of instances", async () => {
    const keysPerWindow = 1 + 2 * 15;
    for (const count of [1, 2, 4]) {
      prefix = `test-${randomUUID()}`;
      const backEnd = countingBackEnd(15);
      const instances = await Promise.all(Array.from({ length: count }, (_, i) => instance(backEnd, `i${i}`)));
      const readAll = async (catalog: CachedCatalog) => {
        for (const center of await catalog.listCenters())
          await Promise.all([catalog.listServices(center.id), catalog.listTherapists(center.id)]);
      };
      // A warm chain: the first instance started before the others.
      await readAll(instances[0]);
      for (let window = 0; window < 3; window++) {
        const before = backEnd.calls();
        await Promise.all(instances.map(readAll));
        expect(backEnd.calls() - before).toBe(window === 0 ? 0 : keysPerWindow);
        now += TTL_MS;
      }
    }
  });

  describe("when Redis is lost", () => {
    let logged: { warn: ReturnType<typeof vi.spyOn>; info: ReturnType<typeof vi.spyOn> };
    beforeEach(() => {
      logged = {
        warn: vi.spyOn(logger, "warn").mockImplementation(() => {}),
        info: vi.spyOn(logger, "info").mockImplementation(() => {}),
      };
    });
    afterEach(async () => {
      // The server is back for the next test, wherever this one stopped.
      await redis!.ensureRunning();
    });
    const lines = (spy: ReturnType<typeof vi.spyOn>, message: RegExp) =>
      spy.mock.calls.filter((call: unknown[]) => message.test(String(call[0])));

    it("loads through the back end, logs one line per instance each way, and shares again once it is back", async () => {
      const backEnd = countingBackEnd();
      const [a, b] = [await instance(backEnd, "a"), await instance(backEnd, "b")];
      const centers = await a.listCenters();
      await redis!.kill();

      now += TTL_MS;
      expect(await a.listCenters()).toEqual(centers);
      expect(await b.listCenters()).toEqual(centers);
      expect(await b.listServices("c1")).toHaveLength(1);
      expect([backEnd.calls("a"), backEnd.calls("b")]).toEqual([2, 2]);

      expect(lines(logged.warn, /catalog cache: Redis unreachable/)).toHaveLength(2);
      expect(JSON.stringify(logged.warn.mock.calls)).not.toMatch(/centers|services|Glow Clinic|127\.0\.0\.1/);

      await redis!.restart();
      await expect.poll(() => lines(logged.info, /catalog cache: Redis reachable again/)).toHaveLength(2);
      now += TTL_MS;
      await a.listCenters();
      expect(backEnd.calls("a")).toBe(3);
      const c = await instance(backEnd, "c");
      expect(await c.listCenters()).toEqual(centers);
      expect(backEnd.calls("c")).toBe(0);
      expect(lines(logged.warn, /catalog cache: Redis unreachable/)).toHaveLength(2);
    });

    it("does not wait for a Redis that does not answer", async () => {
      const backEnd = countingBackEnd();
      const a = await instance(backEnd, "a");
      await raw.connect();
      // Every client's commands are held for two seconds.
      await raw.call("CLIENT", "PAUSE", "2000", "ALL");
      expect(await a.listCenters()).toHaveLength(2);
      expect(backEnd.calls("a")).toBe(1);
      // Not waited for: a command that waited out the pause would have been answered, not timed out.
      expect(logged.warn).toHaveBeenCalledTimes(1);
      expect(logged.warn.mock.calls[0][1]).toEqual({ reason: "timeout" });
      // Answers again once the pause is over.
      expect(await raw.ping()).toBe("PONG");
    });
  });
});
