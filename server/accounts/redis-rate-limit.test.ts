import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { describeRateLimiterContract } from "./rate-limit-contract";
import { createRateLimiter } from "../compose.server";
import type { RateLimiter } from "./rate-limit.server";
import { createRedisRateLimiter, FAIL_CLOSED_RETRY_AFTER_SECONDS } from "./redis-rate-limit.server";
import { startLocalRedis, type LocalRedis } from "./redis-rate-limit.test-support";

const started = await startLocalRedis();
const redis: LocalRedis | null = "url" in started ? started : null;
if (!redis) {
  const why = `Redis rate limiter tests need redis-server (${"unavailable" in started ? started.unavailable : ""}); install it (apt-get install redis-server).`;
  // CI installs redis-server: there a missing one is a failure, not a skip.
  if (process.env.CI) throw new Error(why);
  console.warn(`Redis rate limiter tests skipped: ${why}`);
}
afterAll(async () => {
  await redis?.stop();
});

/** Each test's keys under a prefix of their own, so tests never see each other's counts. */
const freshPrefix = () => `test-${randomUUID()}`;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the limiter to reconnect, however long a busy machine takes (the test's timeout ends a wait that never ends). */
async function waitUntilReady(limiter: RateLimiter): Promise<void> {
  while (!(await limiter.ready())) await wait(100);
}

describe.skipIf(!redis)("Redis rate limiter", () => {
  describeRateLimiterContract("redis", () => createRedisRateLimiter({ url: redis!.url, keyPrefix: freshPrefix() }));

  let raw: Redis;
  const opened: RateLimiter[] = [];
  const open = async (keyPrefix: string) => {
    const limiter = await createRedisRateLimiter({ url: redis!.url, keyPrefix });
    opened.push(limiter);
    return limiter;
  };
  beforeEach(() => {
    raw = new Redis(redis!.url, { lazyConnect: true });
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((limiter) => limiter.close()));
    raw.disconnect();
  });

  describe("shared between instances", () => {
    it("counts the attempts of every instance in one window", async () => {
      const prefix = freshPrefix();
      const [a, b] = [await open(prefix), await open(prefix)];
      expect((await a.hit("login-ip:203.0.113.9", 2, 60_000)).limited).toBe(false);
      expect((await b.hit("login-ip:203.0.113.9", 2, 60_000)).limited).toBe(false);
      expect(await a.hit("login-ip:203.0.113.9", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 60 });
      // A success on one instance clears the count for all.
      await b.reset("login-ip:203.0.113.9");
      expect((await a.hit("login-ip:203.0.113.9", 2, 60_000)).limited).toBe(false);
    });

    it("keeps one set of live holds, whichever instance claims, replaces or releases", async () => {
      const prefix = freshPrefix();
      const [a, b] = [await open(prefix), await open(prefix)];
      await a.claim("live-holds:x", "h1", 2, 60_000);
      await b.claim("live-holds:x", "h2", 2, 60_000);
      expect((await a.claim("live-holds:x", "h3", 2, 60_000)).limited).toBe(true);
      expect((await b.claim("live-holds:x", "h3", 2, 60_000, "h1")).limited).toBe(false);
      await a.release("live-holds:x", "h2");
      expect((await b.claim("live-holds:x", "h4", 3, 60_000)).limited).toBe(false);
      expect((await a.claim("live-holds:x", "h5", 3, 60_000)).limited).toBe(true);
    });

    it("keeps counters apart under another prefix", async () => {
      const [a, b] = [await open(freshPrefix()), await open(freshPrefix())];
      await a.hit("k", 1, 60_000);
      expect((await a.hit("k", 1, 60_000)).limited).toBe(true);
      expect((await b.hit("k", 1, 60_000)).limited).toBe(false);
    });
  });

  it("names its keys under the prefix, each expiring with its window or its last member", async () => {
    const prefix = freshPrefix();
    const limiter = await open(prefix);
    await limiter.hit("login-pair:ana@example.com|203.0.113.9", 5, 15 * 60_000);
    await limiter.claim("live-holds:abc", "h1", 3, 2_000);
    await limiter.claim("live-holds:abc", "h2", 3, 9_000);
    expect((await raw.keys(`${prefix}:*`)).sort()).toEqual([
      `${prefix}:hit:login-pair:ana@example.com|203.0.113.9`,
      `${prefix}:set:live-holds:abc`,
    ]);
    const hitTtl = await raw.pttl(`${prefix}:hit:login-pair:ana@example.com|203.0.113.9`);
    expect(hitTtl).toBeGreaterThan(15 * 60_000 - 2_000);
    expect(hitTtl).toBeLessThanOrEqual(15 * 60_000);
    const setTtl = await raw.pttl(`${prefix}:set:live-holds:abc`);
    expect(setTtl).toBeGreaterThan(8_000);
    expect(setTtl).toBeLessThanOrEqual(9_000);
    await limiter.release("live-holds:abc", "h1");
    await limiter.release("live-holds:abc", "h2");
    expect(await raw.exists(`${prefix}:set:live-holds:abc`)).toBe(0);
  });

  it("is chosen by createRateLimiter when REDIS_URL is set", async () => {
    const limiter = await createRateLimiter({ REDIS_URL: redis!.url });
    opened.push(limiter);
    expect(limiter.kind).toBe("redis");
    const key = `k-${randomUUID()}`;
    await limiter.hit(key, 1, 60_000);
    expect(await raw.keys(`limits:hit:${key}`)).toHaveLength(1);
  });

  it("works over a client it is given, and leaves that client open at close", async () => {
    const client = new Redis(redis!.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      lazyConnect: true,
    });
    await client.connect();
    const limiter = await createRedisRateLimiter({ client, keyPrefix: freshPrefix() });
    await limiter.hit("k", 1, 60_000);
    expect((await limiter.hit("k", 1, 60_000)).limited).toBe(true);
    await limiter.close();
    expect(await client.ping()).toBe("PONG");
    client.disconnect();
  });

  describe("when Redis is lost", () => {
    let logged: { error: ReturnType<typeof vi.spyOn>; info: ReturnType<typeof vi.spyOn> };
    beforeEach(() => {
      logged = {
        error: vi.spyOn(logger, "error").mockImplementation(() => {}),
        info: vi.spyOn(logger, "info").mockImplementation(() => {}),
      };
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      // The server is back for the next test, wherever this one stopped.
      await redis!.ensureRunning();
    });

    it("refuses fail-closed limits, allows the others, never throws, logs one line, and recovers when Redis is back", async () => {
      const limiter = await open(freshPrefix());
      await limiter.claim("live-holds:x", "h1", 1, 60_000);
      await redis!.kill();

      const failClosed = { limited: true, retryAfterSeconds: FAIL_CLOSED_RETRY_AFTER_SECONDS };
      for (let i = 0; i < 3; i++) {
        expect(
          await limiter.hit("login-pair:ana@example.com|203.0.113.9", 5, 15 * 60_000, { failClosed: true }),
        ).toEqual(failClosed);
        expect(await limiter.hit("code-check-ip:203.0.113.9", 20, 10 * 60_000, { failClosed: true })).toEqual(
          failClosed,
        );
        expect(await limiter.hit("hold-ip:203.0.113.9", 10, 60_000)).toEqual({ limited: false, retryAfterSeconds: 0 });
        // The set is full in Redis, but a booking is not refused for an outage.
        expect(await limiter.claim("live-holds:x", `h${i + 2}`, 1, 60_000)).toEqual({
          limited: false,
          retryAfterSeconds: 0,
        });
        await limiter.release("live-holds:x", "h1");
        await limiter.reset("login-pair:ana@example.com|203.0.113.9");
      }
      expect(await limiter.ready()).toBe(false);

      expect(logged.error).toHaveBeenCalledTimes(1);
      const line = JSON.stringify(logged.error.mock.calls);
      expect(line).toMatch(/Redis unreachable/);
      expect(line).not.toMatch(/ana@example|203\.0\.113|login-pair|live-holds/);
      expect(logged.info).not.toHaveBeenCalled();

      await redis!.restart();
      await waitUntilReady(limiter);
      expect(logged.info).toHaveBeenCalledTimes(1);
      expect(logged.info.mock.calls[0][0]).toMatch(/Redis reachable again/);
      // Counting again, from nothing (the restarted server kept nothing), and the claim script loads again.
      expect((await limiter.hit("code-check-ip:203.0.113.9", 1, 60_000, { failClosed: true })).limited).toBe(false);
      expect((await limiter.hit("code-check-ip:203.0.113.9", 1, 60_000, { failClosed: true })).limited).toBe(true);
      await limiter.claim("live-holds:x", "h1", 1, 60_000);
      expect((await limiter.claim("live-holds:x", "h2", 1, 60_000)).limited).toBe(true);
      expect(logged.error).toHaveBeenCalledTimes(1);
    });

    it("does not wait for a Redis that does not answer", async () => {
      const limiter = await open(freshPrefix());
      await raw.connect();
      // Every client's commands are held for two seconds.
      await raw.call("CLIENT", "PAUSE", "2000", "ALL");
      expect(await limiter.hit("promo-ip:203.0.113.9", 20, 60 * 60_000, { failClosed: true })).toEqual({
        limited: true,
        retryAfterSeconds: FAIL_CLOSED_RETRY_AFTER_SECONDS,
      });
      expect((await limiter.hit("details-ip:203.0.113.9", 30, 10 * 60_000)).limited).toBe(false);
      // Not waited for: a command that waited out the pause would have been answered, not timed out.
      expect(logged.error).toHaveBeenCalledTimes(1);
      expect(logged.error.mock.calls[0][1]).toEqual({ reason: "timeout" });
      await waitUntilReady(limiter);
      expect(logged.info).toHaveBeenCalledTimes(1);
    });

    it("starts without Redis, and uses it once it is there", async () => {
      await redis!.kill();
      const limiter = await open(freshPrefix());
      expect(logged.error).toHaveBeenCalledTimes(1);
      expect((await limiter.hit("login-ip:203.0.113.9", 20, 60_000, { failClosed: true })).limited).toBe(true);
      expect((await limiter.hit("hold-ip:203.0.113.9", 10, 60_000)).limited).toBe(false);
      await redis!.restart();
      await waitUntilReady(limiter);
      expect(await limiter.hit("login-ip:203.0.113.9", 20, 60_000, { failClosed: true })).toEqual({
        limited: false,
        retryAfterSeconds: 60,
      });
      expect(logged.error).toHaveBeenCalledTimes(1);
    });
  });
});
