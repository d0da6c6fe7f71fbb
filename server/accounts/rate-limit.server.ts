/**
 * Counters for the abuse limits, in memory (the embedded default; several instances would share
 * Redis). Kept to what a Redis adapter can do in one round trip each: a fixed-window counter
 * (INCR + PEXPIRE) and a set of members that expire by themselves (a sorted set scored by expiry).
 */
export type Verdict = { limited: boolean; retryAfterSeconds: number };

export type RateLimiter = {
  /** Counts one attempt: limited once the window's count passes the limit. */
  hit(key: string, limit: number, windowMs: number): Verdict;
  reset(key: string): void;
  /**
   * Adds `member` to the set at `key` for `ttlMs`, unless the set already holds `limit` live
   * members other than `replacing` (the one this member takes the place of). A member already in
   * the set is always let in again, with the new lifetime.
   */
  claim(key: string, member: string, limit: number, ttlMs: number, replacing?: string): Verdict;
  release(key: string, member: string): void;
};

export function createMemoryRateLimiter(clock: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sets = new Map<string, Map<string, number>>();
  let lastSweep = clock();

  function sweep(now: number) {
    if (now - lastSweep <= 60_000) return;
    for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    for (const [k, members] of sets) {
      for (const [m, expiresAt] of members) if (expiresAt <= now) members.delete(m);
      if (members.size === 0) sets.delete(k);
    }
    lastSweep = now;
  }

  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  return {
    hit(key, limit, windowMs) {
      const now = clock();
      sweep(now);
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { limited: window.count > limit, retryAfterSeconds: seconds(window.resetAt - now) };
    },
    reset(key) {
      windows.delete(key);
    },
    claim(key, member, limit, ttlMs, replacing) {
      const now = clock();
      sweep(now);
      let members = sets.get(key);
      if (!members) {
        members = new Map();
        sets.set(key, members);
      }
      for (const [m, expiresAt] of members) if (expiresAt <= now) members.delete(m);
      if (!members.has(member)) {
        const others = [...members].filter(([m]) => m !== replacing).map(([, expiresAt]) => expiresAt);
        if (others.length >= limit) return { limited: true, retryAfterSeconds: seconds(Math.min(...others) - now) };
      }
      members.set(member, now + ttlMs);
      return { limited: false, retryAfterSeconds: 0 };
    },
    release(key, member) {
      const members = sets.get(key);
      members?.delete(member);
      if (members?.size === 0) sets.delete(key);
    },
  };
}
