import type { RateLimiter, Verdict } from "./rate-limit.server";

/**
 * Sign-in limits (decision record 009). The lockout counts the attempts of one address on one
 * account since its last success there, so a stranger's wrong guesses lock out the stranger, not
 * the owner signing in from elsewhere. One address trying many accounts (credential stuffing) has
 * its own limit, and a high ceiling per account stops guessing spread over many addresses.
 */
export const LOGIN_LIMITS = {
  perAccountAndAddress: { limit: 5, windowMs: 15 * 60_000 },
  perAddress: { limit: 20, windowMs: 10 * 60_000 },
  perAccount: { limit: 100, windowMs: 60 * 60_000 },
} as const;

const keys = (email: string, clientIp: string) => {
  const account = email.trim().toLowerCase();
  return { pair: `login-pair:${account}|${clientIp}`, address: `login-ip:${clientIp}`, account: `login-account:${account}` };
};

/**
 * Counts a sign-in attempt before the password is checked; every attempt counts at once, so
 * parallel guesses cannot slip past the limit while the password hash is computed. These limits
 * guard a secret, so they refuse while the shared counters are unreachable (decision 028).
 */
export async function countLoginAttempt(limiter: RateLimiter, email: string, clientIp: string): Promise<Verdict> {
  const k = keys(email, clientIp);
  const failClosed = { failClosed: true };
  const verdicts = (
    await Promise.all([
      limiter.hit(k.pair, LOGIN_LIMITS.perAccountAndAddress.limit, LOGIN_LIMITS.perAccountAndAddress.windowMs, failClosed),
      limiter.hit(k.address, LOGIN_LIMITS.perAddress.limit, LOGIN_LIMITS.perAddress.windowMs, failClosed),
      limiter.hit(k.account, LOGIN_LIMITS.perAccount.limit, LOGIN_LIMITS.perAccount.windowMs, failClosed),
    ])
  ).filter((verdict) => verdict.limited);
  if (verdicts.length === 0) return { limited: false, retryAfterSeconds: 0 };
  return { limited: true, retryAfterSeconds: Math.max(...verdicts.map((verdict) => verdict.retryAfterSeconds)) };
}

/** A right password clears that address's failures on the account. */
export async function loginSucceeded(limiter: RateLimiter, email: string, clientIp: string): Promise<void> {
  await limiter.reset(keys(email, clientIp).pair);
}
