import { describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import { unreachableRedisRateLimiter } from "../accounts/redis-rate-limit.test-support";
import { LIMITS } from "../limits/policy.server";
import {
  dropHoldClaim,
  keepHoldClaim,
  mayCreateGuest,
  startHoldAttempt,
  tooManyHoldsMessage,
  type HoldClaim,
} from "./hold-limits.server";

function setup() {
  let now = Date.parse("2026-11-02T10:00:00Z");
  const limiter = createMemoryRateLimiter(() => now);
  /** One booking in progress holding a slot that lasts `minutes`. */
  const hold = async (ip: string, booking: string, previous?: HoldClaim, minutes = 10) => {
    const gate = await startHoldAttempt(limiter, ip, booking, previous);
    if (gate.ok) await keepHoldClaim(limiter, gate.claim, new Date(now + minutes * 60_000).toISOString(), now);
    return gate;
  };
  return { limiter, hold, advance: (ms: number) => (now += ms) };
}

const ADDRESS = "203.0.113.9";

describe("hold limits", () => {
  it("lets one address keep three holds alive at once, from any number of bookings", async () => {
    const { hold } = setup();
    for (const booking of ["b1", "b2", "b3"]) expect((await hold(ADDRESS, booking)).ok).toBe(true);
    const fourth = await hold(ADDRESS, "b4");
    expect(fourth).toEqual({ ok: false, reason: "holds", retryAfterSeconds: 600 });
    expect(tooManyHoldsMessage(fourth as Extract<typeof fourth, { ok: false }>)).toBe(
      "Too many times are on hold from your network right now. Please finish or cancel a booking in progress, or try again in 10 minutes.",
    );
    expect((await hold("198.51.100.4", "b5")).ok).toBe(true);
  });

  it("lets a booking change its time at the cap: the new hold replaces its old one", async () => {
    const { hold } = setup();
    const first = await hold(ADDRESS, "b1");
    await hold(ADDRESS, "b2");
    await hold(ADDRESS, "b3");
    expect(first.ok && (await hold(ADDRESS, "b1", first.claim)).ok).toBe(true);
  });

  it("frees a place when a hold runs out or is released", async () => {
    const { limiter, hold, advance } = setup();
    const short = await hold(ADDRESS, "b1", undefined, 2);
    const released = await hold(ADDRESS, "b2");
    await hold(ADDRESS, "b3");
    expect((await hold(ADDRESS, "b4")).ok).toBe(false);
    advance(2 * 60_000);
    expect(short.ok).toBe(true);
    expect((await hold(ADDRESS, "b4")).ok).toBe(true);
    expect((await hold(ADDRESS, "b5")).ok).toBe(false);
    if (released.ok) await dropHoldClaim(limiter, released.claim);
    expect((await hold(ADDRESS, "b5")).ok).toBe(true);
  });

  it("does not count an attempt that did not hold against the live holds", async () => {
    const { limiter } = setup();
    for (let i = 0; i < 5; i++) {
      const gate = await startHoldAttempt(limiter, ADDRESS, `b${i}`);
      expect(gate.ok).toBe(true);
      // The slot was taken by someone else: the place is given back.
      if (gate.ok) await dropHoldClaim(limiter, gate.claim);
    }
  });

  it("allows ten attempts a minute per address and per booking", async () => {
    const { limiter, advance } = setup();
    const attempt = async (ip: string, booking: string) => {
      const gate = await startHoldAttempt(limiter, ip, booking);
      if (gate.ok) await dropHoldClaim(limiter, gate.claim);
      return gate;
    };
    for (let i = 0; i < LIMITS.holdAttempt.counters[0].points; i++)
      expect((await attempt(ADDRESS, `b${i}`)).ok).toBe(true);
    expect(await attempt(ADDRESS, "b-new")).toEqual({ ok: false, reason: "attempts", retryAfterSeconds: 60 });
    // One booking replaying its cookie from many addresses is limited too.
    for (let i = 0; i < LIMITS.holdAttempt.counters[1].points; i++)
      expect((await attempt(`10.9.0.${i + 1}`, "replayed")).ok).toBe(true);
    expect(await attempt("10.9.1.1", "replayed")).toMatchObject({ ok: false, reason: "attempts" });
    advance(60_000);
    expect((await attempt(ADDRESS, "b-new")).ok).toBe(true);
  });

  it("makes at most five new guest records per address in ten minutes", async () => {
    const { limiter, advance } = setup();
    for (let i = 0; i < 5; i++) expect((await mayCreateGuest(limiter, ADDRESS)).ok).toBe(true);
    expect(await mayCreateGuest(limiter, ADDRESS)).toEqual({ ok: false, reason: "holds", retryAfterSeconds: 600 });
    expect((await mayCreateGuest(limiter, "198.51.100.4")).ok).toBe(true);
    advance(10 * 60_000);
    expect((await mayCreateGuest(limiter, ADDRESS)).ok).toBe(true);
  });

  it("keeps no client address in the claim the cookie carries", async () => {
    const { hold } = setup();
    const gate = await hold(ADDRESS, "b1");
    expect(JSON.stringify(gate)).not.toContain(ADDRESS);
  });

  it("lets booking go on when the shared counters cannot be reached", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const limiter = await unreachableRedisRateLimiter();
    try {
      for (let i = 0; i < LIMITS.holdAttempt.counters[0].points + 2; i++) {
        const gate = await startHoldAttempt(limiter, ADDRESS, "b1");
        expect(gate.ok).toBe(true);
        if (gate.ok) await keepHoldClaim(limiter, gate.claim, new Date(Date.now() + 600_000).toISOString());
        if (gate.ok) await dropHoldClaim(limiter, gate.claim);
        expect((await mayCreateGuest(limiter, ADDRESS)).ok).toBe(true);
      }
    } finally {
      await limiter.close();
      vi.restoreAllMocks();
    }
  });
});
