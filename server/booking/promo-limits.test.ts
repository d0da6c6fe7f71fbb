import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import { linkedPromoAllowed, promoAttemptLimit, PROMO_TRIES_PER_ADDRESS, PROMO_TRIES_PER_BOOKING } from "./promo-limits.server";

describe("promo code tries", () => {
  it("lets a booking try five codes, then asks it to wait", () => {
    const services = { rateLimiter: createMemoryRateLimiter(() => 0) };
    for (let i = 0; i < PROMO_TRIES_PER_BOOKING.limit; i++) expect(promoAttemptLimit(services, { clientIp: "a", bookingId: "b1" })).toBeNull();
    expect(promoAttemptLimit(services, { clientIp: "a", bookingId: "b1" })).toEqual({
      message: "Too many promo codes tried. Please wait 10 minutes and try again.",
      retryAfterSeconds: 600,
    });
  });

  it("limits an address across bookings, so new sessions don't buy more guesses", () => {
    const services = { rateLimiter: createMemoryRateLimiter(() => 0) };
    for (let i = 0; i < PROMO_TRIES_PER_ADDRESS.limit; i++) expect(promoAttemptLimit(services, { clientIp: "a", bookingId: `b${i}` })).toBeNull();
    expect(promoAttemptLimit(services, { clientIp: "a", bookingId: "fresh" })?.retryAfterSeconds).toBe(3600);
    expect(linkedPromoAllowed(services, "a")).toBe(false);
    expect(promoAttemptLimit(services, { clientIp: "b", bookingId: "other" })).toBeNull();
    expect(linkedPromoAllowed(services, "b")).toBe(true);
  });
});
