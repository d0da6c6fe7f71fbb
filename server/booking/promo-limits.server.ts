import type { Services } from "../services";
import { consume } from "../limits/policy.server";

/**
 * Counts one promo-code try (the `promoCode` limit: per booking and per address); over it, the
 * message to show next to the field. Guessing codes is then a matter of hours per handful, not
 * dozens a second.
 */
export async function promoAttemptLimit(
  services: Pick<Services, "rateLimiter">,
  who: { clientIp: string; bookingId: string },
): Promise<{ message: string; retryAfterSeconds: number } | null> {
  const outcome = await consume(services, "promoCode", { bookingId: who.bookingId, ip: who.clientIp });
  return outcome.ok ? null : { message: outcome.message, retryAfterSeconds: outcome.retryAfterSeconds };
}

/** A promo code from a link counts against the address's tries too; over the limit it is ignored. */
export async function linkedPromoAllowed(services: Pick<Services, "rateLimiter">, clientIp: string): Promise<boolean> {
  return (await consume(services, "linkedPromoCode", { ip: clientIp })).ok;
}
