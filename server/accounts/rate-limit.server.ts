/**
 * Fixed-window counters in memory (the embedded default; several instances would share Redis).
 * `hit` counts one attempt and says whether it is over the limit and when the window ends.
 */
export type RateLimiter = {
  hit(key: string, limit: number, windowMs: number): { limited: boolean; retryAfterSeconds: number };
  reset(key: string): void;
};

export function createMemoryRateLimiter(clock: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = clock();
  return {
    hit(key, limit, windowMs) {
      const now = clock();
      if (now - lastSweep > 60_000) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        lastSweep = now;
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { limited: window.count > limit, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
    },
    reset(key) {
      windows.delete(key);
    },
  };
}
