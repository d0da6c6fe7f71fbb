import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "./rate-limit.server";

function setup() {
  let now = Date.parse("2026-11-02T10:00:00Z");
  return { limiter: createMemoryRateLimiter(() => now), advance: (ms: number) => (now += ms) };
}

describe("memory rate limiter", () => {
  it("counts attempts in a window and says when it ends", () => {
    const { limiter, advance } = setup();
    expect(limiter.hit("k", 2, 60_000)).toEqual({ limited: false, retryAfterSeconds: 60 });
    advance(15_000);
    expect(limiter.hit("k", 2, 60_000).limited).toBe(false);
    expect(limiter.hit("k", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 45 });
    advance(45_000);
    expect(limiter.hit("k", 2, 60_000).limited).toBe(false);
    limiter.hit("k", 2, 60_000);
    limiter.reset("k");
    expect(limiter.hit("k", 2, 60_000).limited).toBe(false);
  });

  it("lets at most the limit of members live in a set at once", () => {
    const { limiter, advance } = setup();
    expect(limiter.claim("set", "a", 2, 60_000).limited).toBe(false);
    advance(10_000);
    expect(limiter.claim("set", "b", 2, 60_000).limited).toBe(false);
    // Full until the first member runs out, 50 seconds on.
    expect(limiter.claim("set", "c", 2, 60_000)).toEqual({ limited: true, retryAfterSeconds: 50 });
    advance(50_000);
    expect(limiter.claim("set", "c", 2, 60_000).limited).toBe(false);
    expect(limiter.claim("set", "d", 2, 60_000).limited).toBe(true);
    limiter.release("set", "b");
    expect(limiter.claim("set", "d", 2, 60_000).limited).toBe(false);
  });

  it("lets a member in again, and one that takes another's place", () => {
    const { limiter, advance } = setup();
    limiter.claim("set", "a", 1, 60_000);
    expect(limiter.claim("set", "a", 1, 120_000).limited).toBe(false);
    advance(90_000);
    // "a" was renewed for two minutes, so the set is still full...
    expect(limiter.claim("set", "b", 1, 60_000).limited).toBe(true);
    // ...except for the member that replaces it.
    expect(limiter.claim("set", "b", 1, 60_000, "a").limited).toBe(false);
    expect(limiter.claim("other", "b", 1, 60_000).limited).toBe(false);
  });
});
