import { describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { countLoginAttempt, LOGIN_LIMITS, loginSucceeded } from "./login-limits.server";
import { createMemoryRateLimiter } from "./rate-limit.server";
import { unreachableRedisRateLimiter } from "./redis-rate-limit.test-support";

function setup() {
  let now = Date.parse("2026-11-02T10:00:00Z");
  const limiter = createMemoryRateLimiter(() => now);
  const attempt = async (email: string, ip: string) => (await countLoginAttempt(limiter, email, ip)).limited;
  return { limiter, attempt, advance: (ms: number) => (now += ms) };
}

const OWNER = "owner@example.com";

describe("sign-in limits", () => {
  it("stops the sixth try from one address on one account", async () => {
    const { attempt } = setup();
    for (let i = 0; i < 5; i++) expect(await attempt(OWNER, "203.0.113.9")).toBe(false);
    expect(await attempt(OWNER, "203.0.113.9")).toBe(true);
  });

  it("lets the owner in from another address after a stranger's failures", async () => {
    const { attempt } = setup();
    for (let i = 0; i < 8; i++) await attempt(OWNER, "203.0.113.9");
    expect(await attempt(OWNER, "198.51.100.4")).toBe(false);
  });

  it("treats the account's address in any case as one account", async () => {
    const { attempt } = setup();
    for (let i = 0; i < 5; i++) await attempt(OWNER, "203.0.113.9");
    expect(await attempt("Owner@Example.com", "203.0.113.9")).toBe(true);
  });

  it("clears an address's failures on the account when the right password comes", async () => {
    const { limiter, attempt } = setup();
    for (let i = 0; i < 4; i++) await attempt(OWNER, "203.0.113.9");
    await loginSucceeded(limiter, OWNER, "203.0.113.9");
    for (let i = 0; i < 5; i++) expect(await attempt(OWNER, "203.0.113.9")).toBe(false);
  });

  it("lets the address try again once the window has passed", async () => {
    const { attempt, advance } = setup();
    for (let i = 0; i < 6; i++) await attempt(OWNER, "203.0.113.9");
    advance(LOGIN_LIMITS.perAccountAndAddress.windowMs);
    expect(await attempt(OWNER, "203.0.113.9")).toBe(false);
  });

  it("stops one address trying many accounts", async () => {
    const { attempt } = setup();
    const limited: boolean[] = [];
    for (let i = 0; i < 21; i++) limited.push(await attempt(`person${i}@example.com`, "203.0.113.9"));
    expect(limited.slice(0, 20)).not.toContain(true);
    expect(limited[20]).toBe(true);
    expect(await attempt("someone.else@example.com", "198.51.100.4")).toBe(false);
  });

  it("has a high ceiling per account for guesses spread over many addresses", async () => {
    const { attempt } = setup();
    const limited: boolean[] = [];
    for (let i = 0; i < 101; i++) limited.push(await attempt(OWNER, `10.0.${Math.floor(i / 250)}.${i % 250}`));
    expect(limited.slice(0, 100)).not.toContain(true);
    expect(limited[100]).toBe(true);
  });

  it("says how long to wait", async () => {
    const { limiter } = setup();
    for (let i = 0; i < 5; i++) await countLoginAttempt(limiter, OWNER, "203.0.113.9");
    expect(await countLoginAttempt(limiter, OWNER, "203.0.113.9")).toEqual({ limited: true, retryAfterSeconds: 15 * 60 });
  });

  it("refuses every try, for a short while, when the shared counters cannot be reached", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const limiter = await unreachableRedisRateLimiter();
    try {
      expect(await countLoginAttempt(limiter, OWNER, "203.0.113.9")).toEqual({ limited: true, retryAfterSeconds: 30 });
      await expect(loginSucceeded(limiter, OWNER, "203.0.113.9")).resolves.toBeUndefined();
    } finally {
      await limiter.close();
      vi.restoreAllMocks();
    }
  });
});
