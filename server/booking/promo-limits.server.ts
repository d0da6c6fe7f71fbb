import type { Services } from "../services";

/** Promo codes a booking may try in a window, and a client address across all its bookings. */
export const PROMO_TRIES_PER_BOOKING = { limit: 5, windowMs: 10 * 60_000 };
export const PROMO_TRIES_PER_ADDRESS = { limit: 20, windowMs: 60 * 60_000 };

/** Codes are secrets worth guessing: these limits refuse while the shared counters are unreachable (decision 028). */
const failClosed = { failClosed: true };

/**
 * Counts one promo-code try; over either limit, the message to show next to the field. Guessing
 * codes is then a matter of hours per handful, not dozens a second.
 */
export async function promoAttemptLimit(
  services: Pick<Services, "rateLimiter">,
  who: { clientIp: string; bookingId: string },
): Promise<{ message: string; retryAfterSeconds: number } | null> {
  const [byBooking, byAddress] = await Promise.all([
    services.rateLimiter.hit(`promo-booking:${who.bookingId}`, PROMO_TRIES_PER_BOOKING.limit, PROMO_TRIES_PER_BOOKING.windowMs, failClosed),
    services.rateLimiter.hit(`promo-ip:${who.clientIp}`, PROMO_TRIES_PER_ADDRESS.limit, PROMO_TRIES_PER_ADDRESS.windowMs, failClosed),
  ]);
  const over = [byBooking, byAddress].filter((r) => r.limited);
  if (over.length === 0) return null;
  const retryAfterSeconds = Math.max(...over.map((r) => r.retryAfterSeconds));
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return {
    message: `Too many promo codes tried. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    retryAfterSeconds,
  };
}

/** A promo code from a link counts against the address's tries too; over the limit it is ignored. */
export async function linkedPromoAllowed(services: Pick<Services, "rateLimiter">, clientIp: string): Promise<boolean> {
  return !(await services.rateLimiter.hit(`promo-ip:${clientIp}`, PROMO_TRIES_PER_ADDRESS.limit, PROMO_TRIES_PER_ADDRESS.windowMs, failClosed)).limited;
}
