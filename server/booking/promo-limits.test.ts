import { describe, expect, it, vi } from "vitest";
import { logger } from "../observability/logger.server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import { unreachableRedisRateLimiter } from "../accounts/redis-rate-limit.test-support";
import { LIMITS } from "../limits/policy.server";
import { linkedPromoAllowed, promoAttemptLimit } from "./promo-limits.server";

describe("promo code tries", () => {
  it("lets a booking try five codes, then asks it to wait", async () => {
    const services = { rateLimiter: createMemoryRateLimiter(() => 0) };
    for (let i = 0; i < LIMITS.promoCode.counters[0].points; i++)
      expect(await promoAttemptLimit(services, { clientIp: "a", bookingId: "b1" })).toBeNull();
    expect(await promoAttemptLimit(services, { clientIp: "a", bookingId: "b1" })).toEqual({
      message: "Too many promo codes tried. Please wait 10 minutes and try again.",
      retryAfterSeconds: 600,
    });
  });

  it("limits an address across bookings, so new sessions don't buy more guesses", async () => {
    const services = { rateLimiter: createMemoryRateLimiter(() => 0) };
    for (let i = 0; i < LIMITS.promoCode.counters[1].points; i++)
      expect(await promoAttemptLimit(services, { clientIp: "a", bookingId: `b${i}` })).toBeNull();
    expect((await promoAttemptLimit(services, { clientIp: "a", bookingId: "fresh" }))?.retryAfterSeconds).toBe(3600);
    expect(await linkedPromoAllowed(services, "a")).toBe(false);
    expect(await promoAttemptLimit(services, { clientIp: "b", bookingId: "other" })).toBeNull();
    expect(await linkedPromoAllowed(services, "b")).toBe(true);
  });

  it("takes no code, typed or linked, when the shared counters cannot be reached", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const services = { rateLimiter: await unreachableRedisRateLimiter() };
    try {
      expect(await promoAttemptLimit(services, { clientIp: "a", bookingId: "b1" })).toEqual({
        message: "Too many promo codes tried. Please wait 1 minute and try again.",
        retryAfterSeconds: 30,
      });
      expect(await linkedPromoAllowed(services, "a")).toBe(false);
    } finally {
      await services.rateLimiter.close();
      vi.restoreAllMocks();
    }
  });
});
