import type { Redis } from "ioredis";
import { createRedisClient, redisReachability } from "../redis/redis-client.server";
import {
  createMemoryCallBucket,
  DEFAULT_BUCKET,
  type AdmitAnswer,
  type BucketState,
  type CallBucket,
  type Observation,
  type TakeAnswer,
} from "./call-governor.server";

export type RedisCallBucketOptions = {
  url: string;
  /** Keeps these keys apart from anything else in the same database. */
  keyPrefix?: string;
  /** How long one command may take before it counts as an outage. */
  commandTimeoutMs?: number;
  /** The time in ms passed to the script; unset, Redis's own clock is used, so instances whose clocks differ agree. Tests set it. */
  clock?: () => number;
};

export const DEFAULT_KEY_PREFIX = "glow:calls:v1";

/**
 * One script for every operation, so each is one atomic step for all the instances: it refills the
 * bucket, drops the reservations that ran out, then does what ARGV[1] says. The steps are those of
 * `takeToken`, `admitBooking`, `commitBooking` and `observeAnswer` in call-governor.server.ts.
 *
 * KEYS[1]: the bucket (a hash: tokens, at, limit, window, burst, sized). KEYS[2]: the reservations
 * (a hash: booking -> "calls:expiresAt"). ARGV[1]: the operation; ARGV[2]: now in ms, or "" for TIME.
 */
const SCRIPT = `
local bucketKey, reservationsKey = KEYS[1], KEYS[2]
local op = ARGV[1]
local now = tonumber(ARGV[2])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local b = redis.call('HMGET', bucketKey, 'tokens', 'at', 'limit', 'window', 'burst', 'sized')
local limit = tonumber(b[3]) or ${DEFAULT_BUCKET.limit}
local window = tonumber(b[4]) or ${DEFAULT_BUCKET.windowSeconds}
local burst = tonumber(b[5]) or ${DEFAULT_BUCKET.burst}
local sized = b[6] == '1'
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
if limit > 0 and now > at then tokens = math.min(burst, tokens + (now - at) * limit / (window * 1000)) end
if now > at then at = now end

local reserved = 0
local calls, expiries = {}, {}
local entries = redis.call('HGETALL', reservationsKey)
for i = 1, #entries, 2 do
  local c, e = string.match(entries[i + 1], '^(%d+):(%d+)$')
  c, e = tonumber(c), tonumber(e)
  if (not c) or e <= now then
    redis.call('HDEL', reservationsKey, entries[i])
  else
    calls[entries[i]], expiries[entries[i]] = c, e
    reserved = reserved + c
  end
end

local function save()
  redis.call('HSET', bucketKey, 'tokens', string.format('%.6f', tokens), 'at', string.format('%.0f', at),
    'limit', tostring(limit), 'window', tostring(window), 'burst', tostring(burst), 'sized', sized and '1' or '0')
  redis.call('PEXPIRE', bucketKey, 86400000)
end
local function reserve(booking, n, expiresAt)
  redis.call('HSET', reservationsKey, booking, string.format('%.0f:%.0f', n, expiresAt))
  redis.call('PEXPIRE', reservationsKey, 3600000)
end
local function waitFor(needed)
  return math.max(1, math.ceil((needed - tokens) / (limit / (window * 1000))))
end

if op == 'take' then
  local priority, booking, readReserve = ARGV[3], ARGV[4], tonumber(ARGV[5])
  if limit <= 0 then save() return {1, 0} end
  local own = 0
  if booking ~= '' and calls[booking] then own = calls[booking] end
  local floor = 0
  if priority == 'booking' then floor = reserved - own elseif priority == 'browse' then floor = reserved + readReserve end
  if tokens - 1 < floor - 1e-9 then save() return {0, waitFor(floor + 1)} end
  tokens = tokens - 1
  if own == 1 then redis.call('HDEL', reservationsKey, booking)
  elseif own > 1 then reserve(booking, own - 1, expiries[booking]) end
  save()
  return {1, 0}
elseif op == 'admit' then
  local booking, n, ttl = ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
  if limit <= 0 or calls[booking] then save() return {1, 0} end
  if tokens < reserved + n - 1e-9 then save() return {0, waitFor(reserved + n)} end
  reserve(booking, n, now + ttl)
  save()
  return {1, 0}
elseif op == 'commit' then
  reserve(ARGV[3], tonumber(ARGV[4]), now + tonumber(ARGV[5]))
  save()
  return {1, 0}
elseif op == 'release' then
  redis.call('HDEL', reservationsKey, ARGV[3])
  return {1, 0}
elseif op == 'observe' then
  local sl, sw, sb = string.match(ARGV[3], '^([%d.]+):([%d.]+):([%d.]+)$')
  sl, sw, sb = tonumber(sl), tonumber(sw), tonumber(sb)
  if sl and (sl > 0 or not sized) then
    local wasUnlimited = limit <= 0
    limit, window, burst = sl, sw, sb
    sized = sl > 0
    if wasUnlimited then tokens = burst else tokens = math.min(tokens, burst) end
  end
  if limit > 0 then
    if ARGV[5] == '1' then
      local rate = limit / window
      local cap = 0
      local retryAfter, reset = tonumber(ARGV[6]), tonumber(ARGV[7])
      if retryAfter then cap = 1 - retryAfter * rate elseif reset then cap = burst - reset * rate end
      tokens = math.min(tokens, cap, 0)
    else
      local remaining = tonumber(ARGV[4])
      if remaining then tokens = math.min(tokens, remaining) end
    end
  end
  save()
  return {1, 0}
end
save()
return {string.format('%.6f', tokens), tostring(limit), tostring(window), tostring(burst), tostring(reserved)}
`;

type GovernCommand = (bucketKey: string, reservationsKey: string, ...args: string[]) => Promise<(number | string)[]>;

/**
 * The call bucket in Redis, shared by every instance (decision 036): one Zenoti bucket for the
 * organisation, one here. Keys: `<prefix>:bucket` and `<prefix>:reservations`; the reservations
 * name bookings by their draft's random id, nothing personal.
 *
 * When Redis cannot be reached or answers late, nothing waits or throws: this instance goes on with
 * a bucket of its own in memory, kept in step with Zenoti's headers like the shared one (each
 * answer's `RateLimit-Remaining` bounds it), so priorities still hold within the instance. One line
 * is logged when Redis is lost and one when it is back.
 */
export async function createRedisCallBucket(options: RedisCallBucketOptions): Promise<CallBucket> {
  const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const client: Redis = createRedisClient(options.url, options.commandTimeoutMs ?? 250);
  const state = redisReachability({
    lost: "call governor: Redis unreachable; each instance keeps its own bucket until it is back",
    back: "call governor: Redis reachable again",
    level: "warn",
  });
  client.on("error", (error) => state.lost(error));
  client.on("ready", () => state.back());
  client.defineCommand("governSpaCalls", { numberOfKeys: 2, lua: SCRIPT });
  const govern = (client as unknown as { governSpaCalls: GovernCommand }).governSpaCalls.bind(client);
  const local = createMemoryCallBucket(options.clock);
  await client.connect().catch((error: unknown) => state.lost(error));

  async function run<T>(
    args: string[],
    read: (answer: (number | string)[]) => T,
    fallback: () => Promise<T>,
  ): Promise<T> {
    try {
      const answer = await govern(
        `${prefix}:bucket`,
        `${prefix}:reservations`,
        args[0],
        options.clock ? String(options.clock()) : "",
        ...args.slice(1),
      );
      state.back();
      return read(answer);
    } catch (error) {
      state.lost(error);
      return fallback();
    }
  }
  const granted = (answer: (number | string)[]): TakeAnswer =>
    Number(answer[0]) === 1 ? { granted: true } : { granted: false, waitMs: Number(answer[1]) };
  const admitted = (answer: (number | string)[]): AdmitAnswer =>
    Number(answer[0]) === 1 ? { admitted: true } : { admitted: false, waitMs: Number(answer[1]) };
  const done = () => undefined;

  return {
    kind: "redis",
    take: (request) =>
      run(["take", request.priority, request.booking ?? "", String(request.readReserve)], granted, () =>
        local.take(request),
      ),
    admit: (booking, calls, ttlMs) =>
      run(["admit", booking, String(calls), String(Math.ceil(ttlMs))], admitted, () =>
        local.admit(booking, calls, ttlMs),
      ),
    commit: (booking, calls, ttlMs) =>
      run(["commit", booking, String(calls), String(Math.ceil(ttlMs))], done, () =>
        local.commit(booking, calls, ttlMs),
      ),
    release: (booking) => run(["release", booking], done, () => local.release(booking)),
    async observe(o: Observation) {
      // The instance's own bucket follows the headers too, ready for an outage.
      await local.observe(o);
      await run(
        [
          "observe",
          o.shape ? `${o.shape.limit}:${o.shape.windowSeconds}:${o.shape.burst}` : "",
          o.remaining === null ? "" : String(o.remaining),
          o.limited ? "1" : "0",
          o.retryAfterSeconds === null ? "" : String(o.retryAfterSeconds),
          o.resetSeconds === null ? "" : String(o.resetSeconds),
        ],
        done,
        async () => {},
      );
    },
    state: () =>
      run(
        ["state"],
        (a): BucketState => ({
          tokens: Number(a[0]),
          shape: { limit: Number(a[1]), windowSeconds: Number(a[2]), burst: Number(a[3]) },
          reserved: Number(a[4]),
        }),
        () => local.state(),
      ),
    async close() {
      if (client.status === "ready") await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
