import { randomUUID } from "node:crypto";
import type { RateLimiter } from "../accounts/rate-limit.server";
import { consume, LIMITS, LIVE_HOLDS } from "../limits/policy.server";

/**
 * Limits on holding slots (decision record 009; the numbers are in `server/limits/policy.server.ts`).
 * A booking in progress holds one slot at a time (choosing another replaces the old one, whose
 * place is given back here even though Zenoti lets that hold run out by itself), but a client that
 * drops its cookie starts a new booking each time, so the cap on live holds is per client address.
 */

/** A place among an address's live holds, kept with the hold in the booking draft. */
export type HoldClaim = { key: string; id: string };

export type HoldGate =
  | { ok: true; claim: HoldClaim }
  | { ok: false; reason: "attempts" | "holds"; retryAfterSeconds: number };

/**
 * Checks the limits before anything is made in the back end, and takes a place among the
 * address's live holds. `previous` is the booking's current hold, which the new one replaces.
 */
export async function startHoldAttempt(
  limiter: RateLimiter,
  clientIp: string,
  bookingKey: string,
  previous?: HoldClaim,
): Promise<HoldGate> {
  const attempt = await consume({ rateLimiter: limiter }, "holdAttempt", { ip: clientIp, bookingId: bookingKey });
  if (!attempt.ok) return { ok: false, reason: "attempts", retryAfterSeconds: attempt.retryAfterSeconds };
  const key = LIVE_HOLDS.key({ ip: clientIp });
  const claim = { key, id: randomUUID() };
  const replacing = previous?.key === key ? previous.id : undefined;
  const place = await limiter.claim(key, claim.id, LIVE_HOLDS.places, LIVE_HOLDS.lifetimeMs, replacing);
  if (place.limited) return { ok: false, reason: "holds", retryAfterSeconds: place.retryAfterSeconds };
  return { ok: true, claim };
}

/** Counts a guest record about to be made for a new booking; false over the limit. */
export async function mayCreateGuest(
  limiter: RateLimiter,
  clientIp: string,
): Promise<{ ok: true } | Extract<HoldGate, { ok: false }>> {
  const outcome = await consume({ rateLimiter: limiter }, "newGuest", { ip: clientIp });
  return outcome.ok ? { ok: true } : { ok: false, reason: "holds", retryAfterSeconds: outcome.retryAfterSeconds };
}

/** The hold is taken: its place lasts as long as the hold. */
export async function keepHoldClaim(
  limiter: RateLimiter,
  claim: HoldClaim,
  expiresAt: string,
  now = Date.now(),
): Promise<void> {
  await limiter.claim(claim.key, claim.id, LIVE_HOLDS.places, Math.max(1, Date.parse(expiresAt) - now));
}

/** The hold was not taken, was replaced, or the booking was left: its place is free again. */
export async function dropHoldClaim(limiter: RateLimiter, claim: HoldClaim | undefined): Promise<void> {
  if (claim) await limiter.release(claim.key, claim.id);
}

export function tooManyHoldsMessage(gate: Extract<HoldGate, { ok: false }>): string {
  return gate.reason === "holds"
    ? LIVE_HOLDS.message(gate.retryAfterSeconds)
    : LIMITS.holdAttempt.message(gate.retryAfterSeconds);
}
