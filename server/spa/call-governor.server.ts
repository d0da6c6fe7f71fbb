import { AsyncLocalStorage } from "node:async_hooks";
import type { Env } from "../env.server";
import { logger } from "../observability/logger.server";
import { SpaError } from "./errors.server";

/**
 * The call governor (decision 036): Zenoti meters about 60 calls a minute for the whole
 * organisation, as a token bucket, and answers 429 once it is empty. Every call to the back end
 * takes a token from one bucket the instances share, kept in step with the headers of each answer,
 * and who may take the last tokens depends on who the call is for:
 *
 * - `held`: a booking that holds a slot, for what it still has to do (card page, card list, confirm,
 *   offer code, invoice, charge). It may take the last token, waits for one, and a 429 it meets is
 *   tried again once the bucket has refilled, within the hold and the payment lease.
 * - `booking`: a new booking on its way to a hold (the guest searches, the guest, the booking, the
 *   reserve), and any write nobody marked: only what the bookings under way leave over, using the
 *   calls reserved for it when it was let in.
 * - `browse`: catalog and open-time reads, and any read nobody marked: they leave a further reserve
 *   and are refused at once, without a call, when they cannot; their caches answer instead.
 *
 * A new booking is let in (`admit`) only while the bucket covers its calls besides those reserved
 * for the bookings already under way; it is then told to wait, before it holds anything.
 */
export type CallPriority = "held" | "booking" | "browse";

/** Who the calls made in a piece of work are for; `booking` names the booking in progress (its draft's id). */
export type CallScope = { priority: CallPriority; booking?: string; holdUntil?: number };

// Carried with the work, like the request id of the log lines: no call site passes it on.
const scopes = new AsyncLocalStorage<CallScope>();

/** Runs `work`, and every back-end call it makes, as `scope`. */
export function withCallPriority<T>(scope: CallScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** Runs `work` as `priority` unless it is already part of a booking (an open-times read inside a booking keeps the booking's priority). */
export function withDefaultCallPriority<T>(priority: CallPriority, work: () => T): T {
  return scopes.getStore() ? work() : scopes.run({ priority }, work);
}

export function currentCallScope(): CallScope | undefined {
  return scopes.getStore();
}

/** The organisation's bucket as `Organization-RateLimit-Limit` says it: `limit` calls per `windowSeconds`, at most `burst` kept. `limit` 0: no limit. */
export type BucketShape = { limit: number; windowSeconds: number; burst: number };

/** Zenoti's standard plan, assumed until an answer says otherwise. */
export const DEFAULT_BUCKET: BucketShape = { limit: 60, windowSeconds: 60, burst: 60 };
/** An answer without any rate-limit header: the organisation has no limit switched on. */
export const NO_LIMIT: BucketShape = { limit: 0, windowSeconds: 0, burst: 0 };

export type TakeRequest = { priority: CallPriority; booking?: string; readReserve: number };
export type TakeAnswer = { granted: true } | { granted: false; waitMs: number };
export type AdmitAnswer = { admitted: true } | { admitted: false; waitMs: number };

/** What one answer said about the bucket. */
export type Observation = {
  /** The shape named by the answer; `NO_LIMIT` for a successful answer without any rate-limit header; null when it said nothing. */
  shape: BucketShape | null;
  /** `RateLimit-Remaining`. */
  remaining: number | null;
  /** A 429: the bucket was empty. */
  limited: boolean;
  /** `Retry-After` (seconds until a call may go again) and `RateLimit-Reset` (seconds until the bucket is full again). */
  retryAfterSeconds: number | null;
  resetSeconds: number | null;
};

export type BucketState = { shape: BucketShape; tokens: number; reserved: number };

/**
 * Where the bucket lives: this process's memory (one instance), or Redis for every instance. Each
 * operation is one atomic step. None of them throws: a store that cannot be reached answers as this
 * instance's own bucket would.
 */
export type CallBucket = {
  readonly kind: "memory" | "redis";
  /** Takes a token for a call, or says how long until the call's priority could have one. */
  take(request: TakeRequest): Promise<TakeAnswer>;
  /**
   * Lets a new booking in, reserving `calls` for it for `ttlMs`, if the bucket covers them besides
   * what is reserved for the bookings already under way. A booking with a live reservation is let in again as it is.
   */
  admit(booking: string, calls: number, ttlMs: number): Promise<AdmitAnswer>;
  /** Reserves `calls` for a booking that holds a slot, for `ttlMs` (until its hold runs out). */
  commit(booking: string, calls: number, ttlMs: number): Promise<void>;
  /** The booking ended (booked, or not): nothing is reserved for it any more. */
  release(booking: string): Promise<void>;
  /** Keeps the bucket in step with an answer's headers. */
  observe(observation: Observation): Promise<void>;
  /** Now, for tests and readiness. */
  state(): Promise<BucketState>;
  close(): Promise<void>;
};

// --- The bucket's arithmetic. The Redis adapter runs the same steps in one Lua script. ---

type Reservation = { calls: number; expiresAt: number };

/** The state of one bucket; `at` is when `tokens` was true (ms); `sized` once an answer named its shape. */
export type BucketData = {
  tokens: number;
  at: number;
  shape: BucketShape;
  sized: boolean;
  reservations: Map<string, Reservation>;
};

export function newBucketData(now: number, shape: BucketShape = DEFAULT_BUCKET): BucketData {
  return { tokens: shape.burst, at: now, shape, sized: false, reservations: new Map() };
}

/** Tokens per millisecond. */
const ratePerMs = (shape: BucketShape) => shape.limit / (shape.windowSeconds * 1000);

/** Refills continuously at limit/window up to the burst, and drops reservations that ran out; answers the reserved total. */
function settle(data: BucketData, now: number): number {
  if (data.shape.limit > 0 && now > data.at)
    data.tokens = Math.min(data.shape.burst, data.tokens + (now - data.at) * ratePerMs(data.shape));
  if (now > data.at) data.at = now;
  let reserved = 0;
  for (const [booking, reservation] of data.reservations) {
    if (reservation.expiresAt <= now) data.reservations.delete(booking);
    else reserved += reservation.calls;
  }
  return reserved;
}

/** How long until the bucket holds `needed` tokens, refilling alone. */
const waitFor = (data: BucketData, needed: number) =>
  Math.max(1, Math.ceil((needed - data.tokens) / ratePerMs(data.shape)));

export function takeToken(data: BucketData, request: TakeRequest, now: number): TakeAnswer {
  const reserved = settle(data, now);
  if (data.shape.limit <= 0) return { granted: true };
  const own = request.booking ? (data.reservations.get(request.booking)?.calls ?? 0) : 0;
  // What must be left after this call: nothing for a held booking; the others' reservations for a
  // new booking (it spends its own); those and a further reserve for a read.
  const floor =
    request.priority === "held" ? 0 : request.priority === "booking" ? reserved - own : reserved + request.readReserve;
  if (data.tokens - 1 < floor - 1e-9) return { granted: false, waitMs: waitFor(data, floor + 1) };
  data.tokens -= 1;
  if (own > 0 && request.booking) {
    const reservation = data.reservations.get(request.booking)!;
    if (own === 1) data.reservations.delete(request.booking);
    else reservation.calls = own - 1;
  }
  return { granted: true };
}

export function admitBooking(
  data: BucketData,
  booking: string,
  calls: number,
  ttlMs: number,
  now: number,
): AdmitAnswer {
  const reserved = settle(data, now);
  if (data.shape.limit <= 0 || data.reservations.has(booking)) return { admitted: true };
  if (data.tokens < reserved + calls - 1e-9) return { admitted: false, waitMs: waitFor(data, reserved + calls) };
  data.reservations.set(booking, { calls, expiresAt: now + ttlMs });
  return { admitted: true };
}

export function commitBooking(data: BucketData, booking: string, calls: number, ttlMs: number, now: number): void {
  settle(data, now);
  data.reservations.set(booking, { calls, expiresAt: now + ttlMs });
}

export function observeAnswer(data: BucketData, observation: Observation, now: number): void {
  settle(data, now);
  // "No limit" is believed only before any answer named a shape: one answer without headers (an
  // endpoint outside the limit) must not switch off an organisation's bucket.
  if (observation.shape && (observation.shape.limit > 0 || !data.sized)) {
    const wasUnlimited = data.shape.limit <= 0;
    data.shape = observation.shape;
    data.sized = observation.shape.limit > 0;
    // Back from "no limit": a full bucket of the new size, then what the answer says.
    data.tokens = wasUnlimited ? data.shape.burst : Math.min(data.tokens, data.shape.burst);
  }
  if (data.shape.limit <= 0) return;
  if (observation.limited) {
    // Empty at Zenoti: the next token when Retry-After says, else when RateLimit-Reset (the time to a full bucket) implies.
    const rate = data.shape.limit / data.shape.windowSeconds;
    const cap =
      observation.retryAfterSeconds !== null
        ? 1 - observation.retryAfterSeconds * rate
        : observation.resetSeconds !== null
          ? data.shape.burst - observation.resetSeconds * rate
          : 0;
    data.tokens = Math.min(data.tokens, cap, 0);
  } else if (observation.remaining !== null) {
    // Never more than Zenoti says is left; calls still in flight were taken here already.
    data.tokens = Math.min(data.tokens, observation.remaining);
  }
}

export function bucketState(data: BucketData, now: number): BucketState {
  const reserved = settle(data, now);
  return { shape: { ...data.shape }, tokens: data.tokens, reserved };
}

/** The bucket in this process's memory: exact for one instance. */
export function createMemoryCallBucket(clock: () => number = Date.now): CallBucket {
  const data = newBucketData(clock());
  return {
    kind: "memory",
    take: async (request) => takeToken(data, request, clock()),
    admit: async (booking, calls, ttlMs) => admitBooking(data, booking, calls, ttlMs, clock()),
    commit: async (booking, calls, ttlMs) => commitBooking(data, booking, calls, ttlMs, clock()),
    release: async (booking) => {
      data.reservations.delete(booking);
    },
    observe: async (observation) => observeAnswer(data, observation, clock()),
    state: async () => bucketState(data, clock()),
    close: async () => {},
  };
}

// --- The headers. ---

/** `60;w=60;b=60`: limit, window in seconds, burst (the limit when not said). */
export function parseLimitHeader(value: string | null): BucketShape | null {
  if (!value) return null;
  const [first, ...parameters] = value.split(";").map((part) => part.trim());
  const limit = Number(first);
  if (!Number.isFinite(limit) || limit <= 0) return null;
  const named = new Map(parameters.map((p) => p.split("=").map((s) => s.trim()) as [string, string]));
  const windowSeconds = Number(named.get("w") ?? 60);
  const burst = Number(named.get("b") ?? limit);
  if (!(windowSeconds > 0) || !(burst > 0)) return null;
  return { limit, windowSeconds, burst };
}

const numberHeader = (headers: Headers, name: string) => {
  const value = headers.get(name);
  if (value === null || value.trim() === "") return null;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : null;
};

/**
 * What an answer's headers say. The organisation's limit is `Organization-RateLimit-Limit`; where an
 * API has a limit of its own too, Zenoti sends `RateLimit-Limit` and a `RateLimit-Remaining` for
 * whichever runs out first, which only makes this bucket more careful.
 */
export function readRateLimitHeaders(status: number, headers: Headers): Observation {
  const shape = parseLimitHeader(headers.get("organization-ratelimit-limit") ?? headers.get("ratelimit-limit"));
  const remaining = numberHeader(headers, "ratelimit-remaining");
  const limited = status === 429;
  const saysNothing = !shape && remaining === null && !limited;
  return {
    // Only a successful answer without any header says "no limit": an error page of a gateway says nothing.
    shape: shape ?? (saysNothing && status >= 200 && status < 300 ? NO_LIMIT : null),
    remaining,
    limited,
    retryAfterSeconds: numberHeader(headers, "retry-after"),
    resetSeconds: numberHeader(headers, "ratelimit-reset"),
  };
}

// --- The governor: the policy on top of a bucket. ---

export type CallGovernorSettings = {
  /** Calls a new booking makes from choosing its time to its confirmation (admission needs this many free). */
  callsPerBooking: number;
  /** Calls reserved for a booking that holds a slot. */
  callsAfterHold: number;
  /** Tokens reads leave free besides what bookings have reserved. */
  readReserve: number;
  /** How long an admitted booking's calls stay reserved before it holds a slot. */
  admissionMs: number;
};

export const DEFAULT_GOVERNOR_SETTINGS: CallGovernorSettings = {
  callsPerBooking: 13,
  callsAfterHold: 8,
  readReserve: 6,
  admissionMs: 2 * 60_000,
};

/** What the client needs to know of the call it is about to make. */
export type CallTicket = { priority: CallPriority; holdUntil: number | null };

export type CallGovernor = {
  readonly kind: CallBucket["kind"];
  /**
   * A token for a call, waited for as its priority allows (up to `maxWaitMs`; a read never waits).
   * Throws SpaError "rate-limited" when none can be had: no call is made.
   */
  beforeCall(request: { method: string; path: string }, maxWaitMs: number): Promise<CallTicket>;
  /** Keeps the bucket in step with an answer. */
  afterAnswer(status: number, headers: Headers): Promise<void>;
  /** Lets a new booking in before it takes a hold, or says in how many seconds to try again. */
  admit(booking: string): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
  /** The booking holds a slot until `expiresAt` (ms): its remaining calls are reserved until then. */
  holding(booking: string, expiresAt: number): Promise<void>;
  /** The booking ended: nothing is reserved for it any more. */
  release(booking: string): Promise<void>;
  state(): Promise<BucketState>;
  close(): Promise<void>;
};

export type CallGovernorOptions = Partial<CallGovernorSettings> & {
  bucket: CallBucket;
  clock?: () => number;
  /** Injectable so tests can move a clock instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
};

/** A reservation lives at most this long, whatever the hold says (Zenoti holds 10 minutes). */
const MAX_RESERVATION_MS = 15 * 60_000;

export function createCallGovernor(options: CallGovernorOptions): CallGovernor {
  const { bucket } = options;
  const settings: CallGovernorSettings = {
    callsPerBooking: options.callsPerBooking ?? DEFAULT_GOVERNOR_SETTINGS.callsPerBooking,
    callsAfterHold: options.callsAfterHold ?? DEFAULT_GOVERNOR_SETTINGS.callsAfterHold,
    readReserve: options.readReserve ?? DEFAULT_GOVERNOR_SETTINGS.readReserve,
    admissionMs: options.admissionMs ?? DEFAULT_GOVERNOR_SETTINGS.admissionMs,
  };
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let refusing = false;

  function refused(path: string, waitMs: number, priority: CallPriority): SpaError {
    if (!refusing) {
      refusing = true;
      logger.warn("spa calls held back to keep the organisation's call limit for bookings", { priority });
    }
    const error = new SpaError({
      kind: "rate-limited",
      status: 429,
      message: "The organisation's call limit is kept for bookings",
      path,
    });
    error.retryAfterMs = waitMs;
    return error;
  }

  return {
    kind: bucket.kind,
    async beforeCall(request, maxWaitMs) {
      const scope = currentCallScope();
      const priority = scope?.priority ?? (request.method === "GET" ? "browse" : "booking");
      const holdUntil = priority === "held" ? (scope?.holdUntil ?? null) : null;
      const start = clock();
      const waitUntil = priority === "browse" ? start : Math.min(start + Math.max(0, maxWaitMs), holdUntil ?? Infinity);
      for (;;) {
        const answer = await bucket.take({ priority, booking: scope?.booking, readReserve: settings.readReserve });
        if (answer.granted) {
          if (refusing && priority === "browse") {
            refusing = false;
            logger.info("spa calls no longer held back");
          }
          return { priority, holdUntil };
        }
        if (clock() + answer.waitMs > waitUntil) throw refused(request.path, answer.waitMs, priority);
        await sleep(answer.waitMs);
      }
    },
    async afterAnswer(status, headers) {
      await bucket.observe(readRateLimitHeaders(status, headers));
    },
    async admit(booking) {
      const answer = await bucket.admit(booking, settings.callsPerBooking, settings.admissionMs);
      return answer.admitted
        ? { ok: true }
        : { ok: false, retryAfterSeconds: Math.min(600, Math.max(1, Math.ceil(answer.waitMs / 1000))) };
    },
    async holding(booking, expiresAt) {
      await bucket.commit(
        booking,
        settings.callsAfterHold,
        Math.min(MAX_RESERVATION_MS, Math.max(1_000, expiresAt - clock())),
      );
    },
    release: (booking) => bucket.release(booking),
    state: () => bucket.state(),
    close: () => bucket.close(),
  };
}

/** Settings the governor reads from the environment. */
export type CallGovernorEnv = Pick<
  Env,
  "REDIS_URL" | "SPA_CALL_GOVERNOR" | "SPA_CALLS_PER_BOOKING" | "SPA_CALLS_AFTER_HOLD" | "SPA_READ_RESERVE"
>;
