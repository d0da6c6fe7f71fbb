import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { freePort } from "../../tests/helpers/free-port";
import { startLocalRedis, type LocalRedis } from "../accounts/redis-rate-limit.test-support";
import { logger } from "../observability/logger.server";
import { describeCallBucketContract } from "./call-bucket-contract";
import { createCallGovernorFromEnv } from "../compose.server";
import type { CallBucket } from "./call-governor.server";
import { createRedisCallBucket, DEFAULT_KEY_PREFIX } from "./redis-call-governor.server";

const started = await startLocalRedis();
const redis: LocalRedis | null = "url" in started ? started : null;
if (!redis) {
  const why = `call governor Redis tests need redis-server (${"unavailable" in started ? started.unavailable : ""}); install it (apt-get install redis-server).`;
  // CI installs redis-server: there a missing one is a failure, not a skip.
  if (process.env.CI) throw new Error(why);
  console.warn(`Call governor Redis tests skipped: ${why}`);
}
afterAll(async () => {
  await redis?.stop();
});

describe.skipIf(!redis)("the call bucket in Redis", () => {
  // Each bucket of the contract under a prefix of its own, on the test's clock.
  describeCallBucketContract("redis", (clock) =>
    createRedisCallBucket({ url: redis!.url, keyPrefix: `test-${randomUUID()}`, clock }),
  );

  describe("shared by every instance", () => {
    let now: number;
    let prefix: string;
    const opened: CallBucket[] = [];
    beforeEach(() => {
      now = Date.UTC(2026, 4, 5, 9);
      prefix = `test-${randomUUID()}`;
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await Promise.all(opened.splice(0).map((bucket) => bucket.close()));
    });
    async function instance(): Promise<CallBucket> {
      const bucket = await createRedisCallBucket({ url: redis!.url, keyPrefix: prefix, clock: () => now });
      opened.push(bucket);
      return bucket;
    }

    it("is one bucket for all of them: what one takes or reserves, the others see", async () => {
      const [a, b] = [await instance(), await instance()];
      for (let i = 0; i < 50; i++)
        expect(await a.take({ priority: "held", readReserve: 6 })).toEqual({ granted: true });
      await b.commit("held-1", 6, 600_000);
      expect(await a.state()).toMatchObject({ tokens: 10, reserved: 6 });
      expect(await b.admit("new-1", 11, 120_000)).toEqual({ admitted: false, waitMs: 7_000 });
      await b.observe({ shape: null, remaining: 4, limited: false, retryAfterSeconds: null, resetSeconds: null });
      expect((await a.state()).tokens).toBe(4);
    });

    it("gives out exactly what is there when instances ask at once", async () => {
      const instances = [await instance(), await instance(), await instance()];
      const answers = await Promise.all(
        Array.from({ length: 90 }, (_, i) => instances[i % 3].take({ priority: "held", readReserve: 6 })),
      );
      expect(answers.filter((answer) => answer.granted)).toHaveLength(60);
    });

    it("keeps its keys under its prefix, with nothing personal in them", async () => {
      const a = await instance();
      await a.admit("0b9e7c1e-draft-id", 11, 120_000);
      const raw = new Redis(redis!.url);
      try {
        expect((await raw.keys(`${prefix}:*`)).sort()).toEqual([`${prefix}:bucket`, `${prefix}:reservations`]);
        expect(await raw.hget(`${prefix}:reservations`, "0b9e7c1e-draft-id")).toBe(`11:${now + 120_000}`);
      } finally {
        raw.disconnect();
      }
      expect(DEFAULT_KEY_PREFIX).toBe("glow:calls:v1");
    });

    it("goes on with a bucket of the instance's own while Redis is out, kept in step with the headers, and logs it once", async () => {
      const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
      const unreachable = await createRedisCallBucket({
        url: `redis://127.0.0.1:${await freePort()}`,
        keyPrefix: prefix,
        clock: () => now,
        commandTimeoutMs: 50,
      });
      opened.push(unreachable);
      await unreachable.observe({
        shape: { limit: 60, windowSeconds: 60, burst: 60 },
        remaining: 2,
        limited: false,
        retryAfterSeconds: null,
        resetSeconds: null,
      });
      expect(await unreachable.take({ priority: "held", readReserve: 6 })).toEqual({ granted: true });
      expect(await unreachable.take({ priority: "held", readReserve: 6 })).toEqual({ granted: true });
      expect(await unreachable.take({ priority: "held", readReserve: 6 })).toMatchObject({ granted: false });
      expect(warn.mock.calls.filter(([message]) => /call governor: Redis unreachable/.test(message))).toHaveLength(1);
    });
  });

  it("is what the app builds with REDIS_URL, and none with SPA_CALL_GOVERNOR off", async () => {
    const settings = {
      SPA_CALL_GOVERNOR: true,
      SPA_CALLS_PER_BOOKING: 11,
      SPA_CALLS_AFTER_HOLD: 6,
      SPA_READ_RESERVE: 6,
    };
    const shared = await createCallGovernorFromEnv({ ...settings, REDIS_URL: redis!.url });
    expect(shared?.kind).toBe("redis");
    await shared?.close();
    expect((await createCallGovernorFromEnv({ ...settings, REDIS_URL: undefined }))?.kind).toBe("memory");
    expect(
      await createCallGovernorFromEnv({ ...settings, SPA_CALL_GOVERNOR: false, REDIS_URL: redis!.url }),
    ).toBeNull();
  });
});
