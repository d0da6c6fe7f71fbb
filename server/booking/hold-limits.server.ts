import { createHash, randomUUID } from "node:crypto";
import type { RateLimiter } from "../accounts/rate-limit.server";

/**
 * Limits on holding slots (decision record 009). A booking in progress holds one slot at a time
 * (choosing another replaces the old one, whose place is given back here even though Zenoti lets
 * that hold run out by itself), but a client that drops its cookie starts a new booking each time,
 * so the cap on live holds is per client address.
 */
export const HOLD_LIMITS = {
  /** Times chosen, per address and per booking in progress. */
  attemptsPerAddress: { limit: 10, windowMs: 60_000 },
  attemptsPerBooking: { limit: 10, windowMs: 60_000 },
  /** Holds alive at once from one address: a household or a front desk books a few at a time. */
  liveHoldsPerAddress: 3,
  /** Guest records made for new bookings per address, which also bounds the ones a lost race leaves. */
  newGuestsPerAddress: { limit: 5, windowMs: 10 * 60_000 },
  /** How long a place is kept before the back end names the hold's expiry (Zenoti holds for 10 minutes). */
  holdLifetimeMs: 10 * 60_000,
} as const;

/** A place among an address's live holds, kept with the hold in the booking draft. */
export type HoldClaim = { key: string; id: string };

export type HoldGate = { ok: true; claim: HoldClaim } | { ok: false; reason: "attempts" | "holds"; retryAfterSeconds: number };

/** The cookie keeps the key of the address's set, so it carries a digest, never the address. */
function liveHoldsKey(clientIp: string): string {
  return `live-holds:${createHash("sha256").update(clientIp).digest("base64url").slice(0, 22)}`;
}

/**
 * Checks the limits before anything is made in the back end, and takes a place among the
 * address's live holds. `previous` is the booking's current hold, which the new one replaces.
 */
export async function startHoldAttempt(limiter: RateLimiter, clientIp: string, bookingKey: string, previous?: HoldClaim): Promise<HoldGate> {
  const [perAddress, perBooking] = await Promise.all([
    limiter.hit(`hold-ip:${clientIp}`, HOLD_LIMITS.attemptsPerAddress.limit, HOLD_LIMITS.attemptsPerAddress.windowMs),
    limiter.hit(`hold-booking:${bookingKey}`, HOLD_LIMITS.attemptsPerBooking.limit, HOLD_LIMITS.attemptsPerBooking.windowMs),
  ]);
  if (perAddress.limited || perBooking.limited) {
    return { ok: false, reason: "attempts", retryAfterSeconds: Math.max(perAddress.limited ? perAddress.retryAfterSeconds : 0, perBooking.limited ? perBooking.retryAfterSeconds : 0) };
  }
  const key = liveHoldsKey(clientIp);
  const claim = { key, id: randomUUID() };
  const replacing = previous?.key === key ? previous.id : undefined;
  const place = await limiter.claim(key, claim.id, HOLD_LIMITS.liveHoldsPerAddress, HOLD_LIMITS.holdLifetimeMs, replacing);
  if (place.limited) return { ok: false, reason: "holds", retryAfterSeconds: place.retryAfterSeconds };
  return { ok: true, claim };
}

/** Counts a guest record about to be made for a new booking; false over the limit. */
export async function mayCreateGuest(limiter: RateLimiter, clientIp: string): Promise<{ ok: true } | Extract<HoldGate, { ok: false }>> {
  const verdict = await limiter.hit(`hold-guest-ip:${clientIp}`, HOLD_LIMITS.newGuestsPerAddress.limit, HOLD_LIMITS.newGuestsPerAddress.windowMs);
  return verdict.limited ? { ok: false, reason: "holds", retryAfterSeconds: verdict.retryAfterSeconds } : { ok: true };
}

/** The hold is taken: its place lasts as long as the hold. */
export async function keepHoldClaim(limiter: RateLimiter, claim: HoldClaim, expiresAt: string, now = Date.now()): Promise<void> {
  await limiter.claim(claim.key, claim.id, HOLD_LIMITS.liveHoldsPerAddress, Math.max(1, Date.parse(expiresAt) - now));
}

/** The hold was not taken, was replaced, or the booking was left: its place is free again. */
export async function dropHoldClaim(limiter: RateLimiter, claim: HoldClaim | undefined): Promise<void> {
  if (claim) await limiter.release(claim.key, claim.id);
}

export function tooManyHoldsMessage(gate: Extract<HoldGate, { ok: false }>): string {
  if (gate.reason === "holds") {
    const minutes = Math.max(1, Math.ceil(gate.retryAfterSeconds / 60));
    return `Too many times are on hold from your network right now. Please finish or cancel a booking in progress, or try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  return `Too many attempts. Please wait ${gate.retryAfterSeconds} seconds and try again.`;
}
