/**
 * Counters for the abuse limits (decision records 009 and 028): in this process's memory by
 * default, in Redis when several instances must share them. Kept to what Redis does in one round
 * trip each: a fixed-window counter and a set of members that expire by themselves (a sorted set
 * scored by expiry). Asynchronous because the shared counters are across the network.
 */
export type Verdict = { limited: boolean; retryAfterSeconds: number };

export type HitOptions = {
  /**
   * When the shared counters cannot be reached, refuse (limited, retry shortly) instead of
   * allowing. Set by the limits that guard guessing a secret: passwords, one-time codes, promo
   * codes. Browsing and booking leave it unset and carry on through an outage.
   */
  failClosed?: boolean;
};

export type RateLimiter = {
  /** Where the counts live: "redis" is shared by every instance, "memory" by this process only. */
  readonly kind: "memory" | "redis";
  /** Counts one attempt: limited once the window's count passes the limit. */
  hit(key: string, limit: number, windowMs: number, options?: HitOptions): Promise<Verdict>;
  reset(key: string): Promise<void>;
  /**
   * Adds `member` to the set at `key` for `ttlMs`, unless the set already holds `limit` live
   * members other than `replacing` (the one this member takes the place of). A member already in
   * the set is always let in again, with the new lifetime. Holds only: never refused for an outage.
   */
  claim(key: string, member: string, limit: number, ttlMs: number, replacing?: string): Promise<Verdict>;
  release(key: string, member: string): Promise<void>;
  /** Whether the counters can be reached now, for a readiness check. */
  ready(): Promise<boolean>;
  /** At shutdown: lets go of any connection. */
  close(): Promise<void>;
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

  // Each method runs to its end without awaiting, so a check and its count are one step.
  return {
    kind: "memory",
    async hit(key, limit, windowMs) {
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
    async reset(key) {
      windows.delete(key);
    },
    async claim(key, member, limit, ttlMs, replacing) {
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
    async release(key, member) {
      const members = sets.get(key);
      members?.delete(member);
      if (members?.size === 0) sets.delete(key);
    },
    async ready() {
      return true;
    },
    async close() {},
  };
}
