import type { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { createRedisClient, redisReachability } from "../redis/redis-client.server";
import type { RateLimiter, Verdict } from "./rate-limit.server";

/**
 * A `url` is connected to here, with the timeouts below. A `client` is used as it is configured: give
 * it the same (no offline queue, a short command timeout), or a lost Redis makes requests wait.
 */
export type RedisRateLimiterOptions = ({ url: string; client?: undefined } | { client: Redis; url?: undefined }) & {
  /** Keeps these keys apart from anything else in the same database. */
  keyPrefix?: string;
  /** How long one command may take before it counts as an outage (with `url` only). */
  commandTimeoutMs?: number;
};

export const DEFAULT_KEY_PREFIX = "limits";
/** What a fail-closed limit answers during an outage: long enough not to invite hammering, short enough for a person to retry. */
export const FAIL_CLOSED_RETRY_AFTER_SECONDS = 30;

/**
 * KEYS[1]: the set. ARGV: the member, the limit, its lifetime in ms, the member it replaces ("" for
 * none). Redis's own clock scores the members, so instances whose clocks differ still agree.
 * Answers {1, ms until the soonest other member expires} when full, else {0, 0}.
 */
const CLAIM_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local key, member, limit, ttl, replacing = KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if not redis.call('ZSCORE', key, member) then
  local others = redis.call('ZCARD', key)
  if replacing ~= '' and redis.call('ZSCORE', key, replacing) then others = others - 1 end
  if others >= limit then
    local soonest = redis.call('ZRANGE', key, 0, 1, 'WITHSCORES')
    local expiresAt = soonest[2]
    if soonest[1] == replacing then expiresAt = soonest[4] end
    return {1, (tonumber(expiresAt) or (now + ttl)) - now}
  end
end
redis.call('ZADD', key, now + ttl, member)
local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', key, tonumber(last[2]) - now)
return {0, 0}
`;

type ClaimCommand = (
  key: string,
  member: string,
  limit: number,
  ttlMs: number,
  replacing: string,
) => Promise<[number, number]>;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The abuse limits' counters in Redis, shared by every instance of the app (decision record 028).
 * Fixed windows are rate-limiter-flexible's (one script: SET NX EX, INCRBY, PTTL); the sets of
 * live holds are one script of our own on a sorted set scored by expiry.
 *
 * Keys: `<prefix>:hit:<key>` for a window's count, `<prefix>:set:<key>` for a set. Keys hold
 * emails and client addresses: they are never logged.
 *
 * When Redis cannot be reached or answers late, nothing waits or throws: a hit marked
 * `failClosed` is refused for a short while, every other hit and every claim is allowed, and a
 * release or reset is dropped (the entry expires by itself). One line is logged when Redis is
 * lost and one when it is back.
 */
export async function createRedisRateLimiter(options: RedisRateLimiterOptions): Promise<RateLimiter> {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const owned = !options.client;
  const client =
    options.client ??
    // A request never queues behind a lost connection nor waits long for a slow one.
    createRedisClient(options.url!, options.commandTimeoutMs ?? 500);
  const state = redisReachability({
    lost: "rate limits: Redis unreachable; sign-in, code and promo checks refused, browsing and booking allowed until it is back",
    back: "rate limits: Redis reachable again",
    level: "error",
  });
  client.on("error", (error) => state.lost(error));
  client.on("ready", () => state.back());

  client.defineCommand("claimLimitedPlace", { numberOfKeys: 1, lua: CLAIM_SCRIPT });
  const claimPlace = (client as unknown as { claimLimitedPlace: ClaimCommand }).claimLimitedPlace.bind(client);

  // One counter per limit and window (rate-limiter-flexible fixes both per instance); windows are whole seconds there.
  const counters = new Map<string, RateLimiterRedis>();
  function counter(limit: number, windowMs: number): RateLimiterRedis {
    const duration = seconds(windowMs);
    const id = `${limit}/${duration}`;
    let found = counters.get(id);
    if (!found) {
      found = new RateLimiterRedis({
        storeClient: client,
        points: limit,
        duration,
        keyPrefix: `${prefix}:hit`,
        rejectIfRedisNotReady: true,
      });
      counters.set(id, found);
    }
    return found;
  }

  const allowed: Verdict = { limited: false, retryAfterSeconds: 0 };

  if (owned) await client.connect().catch((error: unknown) => state.lost(error));

  return {
    kind: "redis",
    async hit(key, limit, windowMs, hitOptions) {
      try {
        const result = await counter(limit, windowMs).consume(key);
        state.back();
        return { limited: false, retryAfterSeconds: seconds(result.msBeforeNext) };
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          state.back();
          return { limited: true, retryAfterSeconds: seconds(error.msBeforeNext) };
        }
        state.lost(error);
        return hitOptions?.failClosed ? { limited: true, retryAfterSeconds: FAIL_CLOSED_RETRY_AFTER_SECONDS } : allowed;
      }
    },
    async reset(key) {
      try {
        // Any counter names the key the same way; the window does not matter for deleting it.
        await counter(1, 1_000).delete(key);
        state.back();
      } catch (error) {
        state.lost(error);
      }
    },
    async claim(key, member, limit, ttlMs, replacing) {
      try {
        const [full, waitMs] = await claimPlace(
          `${prefix}:set:${key}`,
          member,
          limit,
          Math.max(1, Math.ceil(ttlMs)),
          replacing ?? "",
        );
        state.back();
        return full ? { limited: true, retryAfterSeconds: seconds(waitMs) } : allowed;
      } catch (error) {
        state.lost(error);
        return allowed;
      }
    },
    async release(key, member) {
      try {
        await client.zrem(`${prefix}:set:${key}`, member);
        state.back();
      } catch (error) {
        state.lost(error);
      }
    },
    async ready() {
      try {
        const answer = await client.ping();
        state.back();
        return answer === "PONG";
      } catch (error) {
        state.lost(error);
        return false;
      }
    },
    async close() {
      // A client handed in belongs to its owner, who closes it.
      if (!owned) return;
      if (client.status === "ready") await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
