import { afterEach, describe, expect, it, vi } from "vitest";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";
import { enforceRateLimit } from "./current-user.server";
import { createMemoryRateLimiter, type RateLimiter } from "./rate-limit.server";
import { unreachableRedisRateLimiter } from "./redis-rate-limit.test-support";

/** The 429 a limit throws, or null when the attempt may go on. */
async function refusal(attempt: Promise<void>): Promise<{ status: number; retryAfter: string | null } | null> {
  try {
    await attempt;
    return null;
  } catch (thrown) {
    const { init } = thrown as { init: ResponseInit };
    return { status: init.status!, retryAfter: new Headers(init.headers).get("Retry-After") };
  }
}

describe("enforceRateLimit", () => {
  let limiter: RateLimiter;
  afterEach(async () => {
    await limiter.close();
    vi.restoreAllMocks();
  });

  it("answers 429 with Retry-After over the limit", async () => {
    limiter = createMemoryRateLimiter();
    const services = { rateLimiter: limiter } as Services;
    expect(await refusal(enforceRateLimit(services, "code-send:ana@example.com", 1, 600_000))).toBeNull();
    expect(await refusal(enforceRateLimit(services, "code-send:ana@example.com", 1, 600_000))).toEqual({ status: 429, retryAfter: "600" });
  });

  it("refuses a code check but lets a code send through when the shared counters cannot be reached", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    limiter = await unreachableRedisRateLimiter();
    const services = { rateLimiter: limiter } as Services;
    expect(await refusal(enforceRateLimit(services, "code-check-ip:203.0.113.9", 20, 600_000, { failClosed: true }))).toEqual({ status: 429, retryAfter: "30" });
    expect(await refusal(enforceRateLimit(services, "code-send-ip:203.0.113.9", 10, 600_000))).toBeNull();
  });
});
