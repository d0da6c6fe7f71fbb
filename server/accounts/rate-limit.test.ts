import { describe, expect, it } from "vitest";
import { describeRateLimiterContract } from "./rate-limit-contract";
import { createRateLimiter } from "../compose.server";
import { createMemoryRateLimiter } from "./rate-limit.server";

function setup() {
  let now = Date.parse("2026-11-02T10:00:00Z");
  return { limiter: createMemoryRateLimiter(() => now), advance: (ms: number) => (now += ms) };
}

describeRateLimiterContract("memory", async () => createMemoryRateLimiter());

describe("memory rate limiter", () => {
  it("counts attempts in a window and says when it ends", async () => {
    const { limiter, advance } = setup();
    expect(await limiter.hit("k", 2, 60_000)).toEqual({ limited: false, retryAfterSeconds: 60 });
    advance(15_000);
    expect((await limiter.hit("k", 2, 60_000)).limited).toBe(false);
    expect(await limiter.hit("k", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 45 });
    advance(45_000);
    expect((await limiter.hit("k", 2, 60_000)).limited).toBe(false);
    await limiter.hit("k", 2, 60_000);
    await limiter.reset("k");
    expect((await limiter.hit("k", 2, 60_000)).limited).toBe(false);
  });

  it("lets at most the limit of members live in a set at once", async () => {
    const { limiter, advance } = setup();
    expect((await limiter.claim("set", "a", 2, 60_000)).limited).toBe(false);
    advance(10_000);
    expect((await limiter.claim("set", "b", 2, 60_000)).limited).toBe(false);
    // Full until the first member runs out, 50 seconds on.
    expect(await limiter.claim("set", "c", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 50 });
    advance(50_000);
    expect((await limiter.claim("set", "c", 2, 60_000)).limited).toBe(false);
    expect((await limiter.claim("set", "d", 2, 60_000)).limited).toBe(true);
    await limiter.release("set", "b");
    expect((await limiter.claim("set", "d", 2, 60_000)).limited).toBe(false);
  });

  it("lets a member in again, and one that takes another's place", async () => {
    const { limiter, advance } = setup();
    await limiter.claim("set", "a", 1, 60_000);
    expect((await limiter.claim("set", "a", 1, 120_000)).limited).toBe(false);
    advance(90_000);
    // "a" was renewed for two minutes, so the set is still full...
    expect((await limiter.claim("set", "b", 1, 60_000)).limited).toBe(true);
    // ...except for the member that replaces it.
    expect((await limiter.claim("set", "b", 1, 60_000, "a")).limited).toBe(false);
    expect((await limiter.claim("other", "b", 1, 60_000)).limited).toBe(false);
  });

  it("is what the app uses without REDIS_URL", async () => {
    const limiter = await createRateLimiter({ REDIS_URL: undefined });
    expect(limiter.kind).toBe("memory");
    expect(await limiter.ready()).toBe(true);
    await limiter.hit("k", 1, 60_000);
    expect((await limiter.hit("k", 1, 60_000, { failClosed: true })).limited).toBe(true);
    await limiter.close();
  });
});
