import { createHash } from "node:crypto";
import { data } from "react-router";
import type { Services } from "../services";

/**
 * Every abuse limit of the site, in one table (decision records 009, 028 and 052). Pages and the
 * JSON API name a limit and give the parts of its keys; they never build a key or a number.
 *
 * A limit is one or more counters, each a fixed window over one key. One attempt counts on every
 * counter of its limit at once (so parallel tries cannot slip past while a password hash is worked
 * out), and is refused when any counter is over: the wait is the longest of those over.
 *
 * The keys are the ones the counters have always had, so counts kept in Redis carry over.
 */

type Counter<Parts> = {
  points: number;
  windowMs: number;
  key: (parts: Parts) => string;
};

type Limit<Parts> = {
  counters: ReadonlyArray<Counter<Parts>>;
  /**
   * Refuse while the shared counters cannot be reached: set on the limits that guard guessing a
   * secret (a password, a one-time code, a promo code, a gift card number); the rest fail open
   * (decision 028).
   */
  failClosed: boolean;
  /** What the visitor is told over the limit. */
  message: (retryAfterSeconds: number) => string;
};

const limit = <Parts>(definition: Limit<Parts>) => definition;

const MINUTE = 60_000;

/** The address an account signs in with, the same in any case. */
const account = (email: string) => email.trim().toLowerCase();

/** Who a one-time code goes to: an account's email (any case) or a back-end guest's id. */
const recipient = (to: string) => to.trim().toLowerCase();

/** The wait in seconds, for limits whose windows are seconds to a minute. */
const waitSeconds = (retryAfterSeconds: number) =>
  `Too many attempts. Please wait ${retryAfterSeconds} seconds and try again.`;

/** The wait in whole minutes, for limits whose windows are ten minutes or more. */
const waitMinutes = (tooMany: string) => (retryAfterSeconds: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many ${tooMany}. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
};

/** The cookie keeps the key of an address's live holds, so it carries a digest, never the address. */
const addressDigest = (ip: string) => createHash("sha256").update(ip).digest("base64url").slice(0, 22);

/** Counters more than one limit counts on. */
const codeSendsPerRecipient: Counter<{ to: string }> = {
  points: 3,
  windowMs: 10 * MINUTE,
  key: ({ to }) => `code-send:${recipient(to)}`,
};
const promoTriesPerAddress: Counter<{ ip: string }> = {
  points: 20,
  windowMs: 60 * MINUTE,
  key: ({ ip }) => `promo-ip:${ip}`,
};

export const LIMITS = {
  /**
   * Sign-in, by the form and the JSON API: one address on one account (the lockout, cleared by a
   * right password), one address over all accounts (credential stuffing), one account from
   * everywhere (guessing spread over many addresses).
   */
  signIn: limit<{ email: string; ip: string }>({
    counters: [
      { points: 5, windowMs: 15 * MINUTE, key: ({ email, ip }) => `login-pair:${account(email)}|${ip}` },
      { points: 20, windowMs: 10 * MINUTE, key: ({ ip }) => `login-ip:${ip}` },
      { points: 100, windowMs: 60 * MINUTE, key: ({ email }) => `login-account:${account(email)}` },
    ],
    failClosed: true,
    message: waitSeconds,
  }),
  /** A password-reset code asked for by email (the form and the JSON API): per address and per recipient. */
  codeSend: limit<{ to: string; ip: string }>({
    counters: [{ points: 10, windowMs: 10 * MINUTE, key: ({ ip }) => `code-send-ip:${ip}` }, codeSendsPerRecipient],
    failClosed: false,
    message: waitSeconds,
  }),
  /** Another code to a recipient already chosen (the reset page, an existing client's check while booking). */
  codeResend: limit<{ to: string }>({
    counters: [codeSendsPerRecipient],
    failClosed: false,
    message: waitSeconds,
  }),
  /** A one-time code checked: password reset (form and JSON API), an existing client's check while booking. */
  codeCheck: limit<{ ip: string }>({
    counters: [{ points: 20, windowMs: 10 * MINUTE, key: ({ ip }) => `code-check-ip:${ip}` }],
    failClosed: true,
    message: waitSeconds,
  }),
  /** Accounts made from one address (the form and the JSON API). */
  registration: limit<{ ip: string }>({
    counters: [{ points: 10, windowMs: 10 * MINUTE, key: ({ ip }) => `register-ip:${ip}` }],
    failClosed: false,
    message: waitSeconds,
  }),
  /** The booking's details step: each submission looks the visitor up in the back end and may send a code. */
  bookingDetails: limit<{ ip: string }>({
    counters: [{ points: 30, windowMs: 10 * MINUTE, key: ({ ip }) => `details-ip:${ip}` }],
    failClosed: false,
    message: waitSeconds,
  }),
  /** Gift card balance checks: guessing card numbers is slowed to a few a minute from one address. */
  giftCardBalance: limit<{ ip: string }>({
    counters: [{ points: 10, windowMs: 10 * MINUTE, key: ({ ip }) => `gift-balance:${ip}` }],
    failClosed: true,
    message: waitMinutes("balance checks"),
  }),
  /** A promo code typed on the payment step: per booking in progress and per address over all its bookings. */
  promoCode: limit<{ bookingId: string; ip: string }>({
    counters: [
      { points: 5, windowMs: 10 * MINUTE, key: ({ bookingId }) => `promo-booking:${bookingId}` },
      promoTriesPerAddress,
    ],
    failClosed: true,
    message: waitMinutes("promo codes tried"),
  }),
  /** A promo code from a link counts against the address's tries too; over the limit it is ignored. */
  linkedPromoCode: limit<{ ip: string }>({
    counters: [promoTriesPerAddress],
    failClosed: true,
    message: waitMinutes("promo codes tried"),
  }),
  /** Times chosen on the time step, per address and per booking in progress (a replayed cookie is one booking). */
  holdAttempt: limit<{ ip: string; bookingId: string }>({
    counters: [
      { points: 10, windowMs: MINUTE, key: ({ ip }) => `hold-ip:${ip}` },
      { points: 10, windowMs: MINUTE, key: ({ bookingId }) => `hold-booking:${bookingId}` },
    ],
    failClosed: false,
    message: waitSeconds,
  }),
  /** Guest records made for new bookings per address, which also bounds the ones a lost race leaves. */
  newGuest: limit<{ ip: string }>({
    counters: [{ points: 5, windowMs: 10 * MINUTE, key: ({ ip }) => `hold-guest-ip:${ip}` }],
    failClosed: false,
    message: liveHoldsMessage,
  }),
  /** Joins of the waitlist of full days from one address (decision 058); each contact has its own cap in the store. */
  waitlistJoin: limit<{ ip: string }>({
    counters: [{ points: 10, windowMs: 60 * MINUTE, key: ({ ip }) => `waitlist-ip:${ip}` }],
    failClosed: false,
    message: waitMinutes("waitlist requests"),
  }),
} as const;

/**
 * How many waitlist entries one email or mobile may have at once (decision 058): a guest waits for a
 * few bookings, never a whole calendar. Counted by the store with the entry's write.
 */
export const WAITLIST_ENTRIES_PER_CONTACT = 3;

/**
 * Holds alive at once from one address: not a count of tries but a set of places that expire with
 * their holds (`RateLimiter.claim`). A household or a front desk books a few at a time.
 */
export const LIVE_HOLDS = {
  places: 3,
  /** How long a place is kept before the back end names the hold's expiry (Zenoti holds for 10 minutes). */
  lifetimeMs: 10 * MINUTE,
  key: ({ ip }: { ip: string }) => `live-holds:${addressDigest(ip)}`,
  message: liveHoldsMessage,
} as const;

function liveHoldsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many times are on hold from your network right now. Please finish or cancel a booking in progress, or try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export type LimitName = keyof typeof LIMITS;
export type LimitParts<Name extends LimitName> = (typeof LIMITS)[Name] extends Limit<infer Parts> ? Parts : never;

export type LimitOutcome = { ok: true } | { ok: false; limit: LimitName; retryAfterSeconds: number; message: string };

/** Counts one attempt on every counter of the named limit; over any of them, how long to wait and what to say. */
export async function consume<Name extends LimitName>(
  services: Pick<Services, "rateLimiter">,
  name: Name,
  parts: LimitParts<Name>,
): Promise<LimitOutcome> {
  const { counters, failClosed, message } = LIMITS[name] as Limit<LimitParts<Name>>;
  const verdicts = await Promise.all(
    counters.map((counter) =>
      services.rateLimiter.hit(counter.key(parts), counter.points, counter.windowMs, { failClosed }),
    ),
  );
  const over = verdicts.filter((verdict) => verdict.limited);
  if (over.length === 0) return { ok: true };
  const retryAfterSeconds = Math.max(...over.map((verdict) => verdict.retryAfterSeconds));
  return { ok: false, limit: name, retryAfterSeconds, message: message(retryAfterSeconds) };
}

/**
 * A success that wipes the slate: a right password clears that address's failures on the account
 * (its first counter), never the address's or the account's totals.
 */
export async function clearSignInFailures(
  services: Pick<Services, "rateLimiter">,
  parts: LimitParts<"signIn">,
): Promise<void> {
  await services.rateLimiter.reset(LIMITS.signIn.counters[0].key(parts));
}

/** The answer over a limit, for a page or the JSON API: 429, Retry-After and the limit's message. */
export function tooManyAttempts(outcome: Extract<LimitOutcome, { ok: false }>) {
  return data(
    { rateLimited: true, message: outcome.message },
    { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
  );
}

/** Counts one attempt; over the limit, throws the 429 of `tooManyAttempts`. */
export async function enforceLimit<Name extends LimitName>(
  services: Pick<Services, "rateLimiter">,
  name: Name,
  parts: LimitParts<Name>,
): Promise<void> {
  const outcome = await consume(services, name, parts);
  if (!outcome.ok) throw tooManyAttempts(outcome);
}
