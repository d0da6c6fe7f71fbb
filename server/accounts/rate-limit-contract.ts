import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RateLimiter } from "./rate-limit.server";

/**
 * What every adapter of the counter port promises, run against each of them (memory in
 * rate-limit.test.ts, Redis against a real redis-server in redis-rate-limit.test.ts). On the real
 * clock, since Redis keeps its own time: windows of a second (Redis counts whole seconds) and
 * lifetimes of a few hundred milliseconds. `open` gives counters that start from nothing.
 */
export function describeRateLimiterContract(name: string, open: () => Promise<RateLimiter>): void {
  describe(`${name}: rate limiter contract`, () => {
    let limiter: RateLimiter;
    beforeEach(async () => {
      limiter = await open();
    });
    afterEach(async () => {
      await limiter.close();
    });

    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    describe("hit and reset", () => {
      it("allows the limit in a window, refuses the next and says when the window ends", async () => {
        expect(await limiter.hit("k", 2, 60_000)).toEqual({ limited: false, retryAfterSeconds: 60 });
        expect((await limiter.hit("k", 2, 60_000)).limited).toBe(false);
        expect(await limiter.hit("k", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 60 });
        expect(await limiter.hit("k", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 60 });
      });

      it("counts each key apart", async () => {
        await limiter.hit("login-ip:203.0.113.9", 1, 60_000);
        expect((await limiter.hit("login-ip:203.0.113.9", 1, 60_000)).limited).toBe(true);
        expect((await limiter.hit("login-ip:198.51.100.4", 1, 60_000)).limited).toBe(false);
      });

      it("starts a new window once the last one has ended", async () => {
        await limiter.hit("k", 1, 1_000);
        expect((await limiter.hit("k", 1, 1_000)).limited).toBe(true);
        await wait(1_100);
        expect((await limiter.hit("k", 1, 1_000)).limited).toBe(false);
        expect((await limiter.hit("k", 1, 1_000)).limited).toBe(true);
      });

      it("forgets a key's count on reset, and only that key's", async () => {
        for (let i = 0; i < 3; i++) await limiter.hit("pair", 2, 60_000);
        await limiter.hit("other", 1, 60_000);
        await limiter.reset("pair");
        expect((await limiter.hit("pair", 2, 60_000)).limited).toBe(false);
        expect((await limiter.hit("other", 1, 60_000)).limited).toBe(true);
        await limiter.reset("never-counted");
      });

      it("lets exactly the limit through when the attempts come at once", async () => {
        const verdicts = await Promise.all(Array.from({ length: 12 }, () => limiter.hit("burst", 5, 60_000)));
        expect(verdicts.filter((v) => !v.limited)).toHaveLength(5);
      });

      it("answers the same with either failure policy while the counters are reachable", async () => {
        await limiter.hit("code-check-ip:a", 1, 60_000, { failClosed: true });
        expect(await limiter.hit("code-check-ip:a", 1, 60_000, { failClosed: true })).toEqual({
          limited: true,
          retryAfterSeconds: 60,
        });
        expect((await limiter.hit("hold-ip:a", 1, 60_000, { failClosed: false })).limited).toBe(false);
      });
    });

    describe("claim and release", () => {
      it("lets at most the limit of members live at once, and says when the soonest leaves", async () => {
        expect(await limiter.claim("set", "a", 2, 5_000)).toEqual({ limited: false, retryAfterSeconds: 0 });
        expect((await limiter.claim("set", "b", 2, 9_000)).limited).toBe(false);
        expect(await limiter.claim("set", "c", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 5 });
        await limiter.release("set", "b");
        expect((await limiter.claim("set", "c", 2, 60_000)).limited).toBe(false);
        expect((await limiter.claim("set", "d", 2, 60_000)).limited).toBe(true);
        expect((await limiter.claim("other-set", "d", 2, 60_000)).limited).toBe(false);
      });

      it("always lets a member in again, with its new lifetime", async () => {
        await limiter.claim("set", "a", 1, 300);
        expect((await limiter.claim("set", "a", 1, 5_000)).limited).toBe(false);
        await wait(400);
        // "a" now lives five seconds: the set is still full.
        expect(await limiter.claim("set", "b", 1, 5_000)).toEqual({ limited: true, retryAfterSeconds: 5 });
      });

      it("lets a member take the place of the one it replaces, and waits only for the others", async () => {
        await limiter.claim("set", "a", 1, 60_000);
        expect((await limiter.claim("set", "b", 1, 60_000)).limited).toBe(true);
        expect((await limiter.claim("set", "b", 1, 60_000, "a")).limited).toBe(false);
        // Two live now (a and b); c replacing a still finds b, whose lifetime is the wait.
        await limiter.claim("set2", "a", 2, 2_000);
        await limiter.claim("set2", "b", 2, 8_000);
        expect(await limiter.claim("set2", "c", 1, 60_000, "a")).toEqual({ limited: true, retryAfterSeconds: 8 });
        // Replacing a member the set does not hold gives no extra room.
        expect((await limiter.claim("set2", "c", 2, 60_000, "gone")).limited).toBe(true);
      });

      it("frees a member's place when its lifetime ends", async () => {
        await limiter.claim("set", "a", 1, 300);
        expect((await limiter.claim("set", "b", 1, 300)).limited).toBe(true);
        await wait(400);
        expect((await limiter.claim("set", "b", 1, 300)).limited).toBe(false);
      });

      it("lets exactly the limit in when the claims come at once", async () => {
        const verdicts = await Promise.all(
          Array.from({ length: 12 }, (_, i) => limiter.claim("set", `m${i}`, 3, 60_000)),
        );
        expect(verdicts.filter((v) => !v.limited)).toHaveLength(3);
      });

      it("releases a member it does not hold without harm", async () => {
        await limiter.release("set", "nobody");
        await limiter.claim("set", "a", 1, 60_000);
        await limiter.release("set", "nobody");
        expect((await limiter.claim("set", "b", 1, 60_000)).limited).toBe(true);
      });
    });

    it("is ready", async () => {
      expect(await limiter.ready()).toBe(true);
    });
  });
}
