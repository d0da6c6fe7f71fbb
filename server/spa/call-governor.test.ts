import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createTestGuest,
  rejection,
  startSandbox,
  TEST_API_KEY,
  type TestSandbox,
} from "../../tests/helpers/sandbox-server";
import { seedGuid } from "../spa-sandbox/db";
import { orUnavailable } from "../unavailable.server";
import { describeCallBucketContract } from "./call-bucket-contract";
import {
  createCallGovernor,
  createMemoryCallBucket,
  NO_LIMIT,
  parseLimitHeader,
  readRateLimitHeaders,
  withCallPriority,
  type CallBucket,
  type CallGovernor,
} from "./call-governor.server";
import { createCachedCatalog } from "./catalog-cache.server";
import { createSpaClient, type SpaClient } from "./client.server";
import { SpaError } from "./errors.server";

describeCallBucketContract("memory", async (clock) => createMemoryCallBucket(clock));

const AUSTIN = seedGuid("center:ATX");
/** The settings the governor's figures below are worked out with (11 calls a booking, 6 after its hold, 6 for reads), whatever the defaults are. */
const SETTINGS = { callsPerBooking: 11, callsAfterHold: 6, readReserve: 6 };
const DALLAS = seedGuid("center:DAL");
const ZONE = "America/Chicago";
const FACIAL = seedGuid("service:FT-NEW");

/** A clock that moves only when the governor sleeps (or the test says): nothing here waits for real. */
function fakeTime(start = Date.parse("2026-11-30T15:00:00Z")) {
  let now = start;
  const sleep = vi.fn(async (ms: number) => {
    now += ms;
  });
  return { clock: () => now, sleep, advance: (ms: number) => (now += ms) };
}

describe("the rate-limit headers", () => {
  it("reads Zenoti's organisation limit: limit, window and burst", () => {
    expect(parseLimitHeader("60;w=60;b=60")).toEqual({ limit: 60, windowSeconds: 60, burst: 60 });
    expect(parseLimitHeader("120; w=60; b=30")).toEqual({ limit: 120, windowSeconds: 60, burst: 30 });
    expect(parseLimitHeader("100")).toEqual({ limit: 100, windowSeconds: 60, burst: 100 });
    for (const bad of [null, "", "many", "0;w=60", "60;w=0"]) expect(parseLimitHeader(bad)).toBeNull();
  });

  it("reads an answer's remaining calls, reset and, on a 429, Retry-After", () => {
    const headers = new Headers({
      "Organization-RateLimit-Limit": "60;w=60;b=60",
      "RateLimit-Remaining": "48",
      "RateLimit-Reset": "50",
    });
    expect(readRateLimitHeaders(200, headers)).toEqual({
      shape: { limit: 60, windowSeconds: 60, burst: 60 },
      remaining: 48,
      limited: false,
      retryAfterSeconds: null,
      resetSeconds: 50,
    });
    const empty = new Headers({
      "Organization-RateLimit-Limit": "60;w=60;b=60",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "60",
      "Retry-After": "1",
    });
    expect(readRateLimitHeaders(429, empty)).toMatchObject({
      limited: true,
      remaining: 0,
      retryAfterSeconds: 1,
      resetSeconds: 60,
    });
    // With an API-level limit too, Zenoti names the one that runs out first.
    expect(
      readRateLimitHeaders(200, new Headers({ "RateLimit-Limit": "30;w=60", "RateLimit-Remaining": "3" })).shape,
    ).toEqual({ limit: 30, windowSeconds: 60, burst: 30 });
  });

  it("takes a successful answer without any rate-limit header as no limit, and a gateway's error page as saying nothing", () => {
    expect(readRateLimitHeaders(200, new Headers()).shape).toEqual(NO_LIMIT);
    expect(readRateLimitHeaders(502, new Headers()).shape).toBeNull();
  });
});

describe("the governor", () => {
  let time: ReturnType<typeof fakeTime>;
  let bucket: CallBucket;
  let governor: CallGovernor;
  beforeEach(async () => {
    time = fakeTime();
    bucket = createMemoryCallBucket(time.clock);
    governor = createCallGovernor({ bucket, clock: time.clock, sleep: time.sleep, ...SETTINGS });
    await governor.afterAnswer(
      200,
      new Headers({ "Organization-RateLimit-Limit": "60;w=60;b=60", "RateLimit-Remaining": "20" }),
    );
  });
  const read = { method: "GET", path: "/v1/centers" };
  const write = { method: "POST", path: "/v1/bookings/b1/slots/confirm" };

  it("refuses a read at once, without a call, once only the bookings' calls and the read reserve are left", async () => {
    await governor.holding("held-1", time.clock() + 600_000);
    // 20 left, 6 kept for the held booking and 6 for the read reserve: 8 reads.
    for (let i = 0; i < 8; i++) await governor.beforeCall(read, 8_000);
    const error = await rejection(governor.beforeCall(read, 8_000));
    expect(error).toMatchObject({ kind: "rate-limited", status: 429 });
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(time.sleep).not.toHaveBeenCalled();
  });

  it("reads an unmarked read as browsing and an unmarked write as a booking's, and lets a held booking take the last call", async () => {
    await governor.holding("held-1", time.clock() + 600_000);
    await bucket.observe({ shape: null, remaining: 8, limited: false, retryAfterSeconds: null, resetSeconds: null });
    await rejection(governor.beforeCall(read, 8_000));
    // A write of nobody's booking leaves what the held booking needs: it waits for the bucket.
    await governor.beforeCall(write, 8_000);
    await governor.beforeCall(write, 8_000);
    expect(time.sleep).not.toHaveBeenCalled();
    await governor.beforeCall(write, 8_000);
    expect(time.sleep).toHaveBeenCalledTimes(1);
    const held = await withCallPriority({ priority: "held", booking: "held-1" }, async () => {
      const tickets = [];
      for (let i = 0; i < 6; i++) tickets.push(await governor.beforeCall(write, 8_000));
      return tickets;
    });
    expect(held.every((ticket) => ticket.priority === "held")).toBe(true);
    expect((await governor.state()).reserved).toBe(0);
  });

  it("lets a new booking in only while the bucket covers it besides the held bookings, and says when to try again", async () => {
    await governor.holding("held-1", time.clock() + 600_000);
    expect(await governor.admit("new-1")).toEqual({ ok: true });
    expect(await governor.admit("new-2")).toEqual({ ok: false, retryAfterSeconds: 8 });
    await governor.release("held-1");
    time.advance(2_000);
    expect(await governor.admit("new-2")).toEqual({ ok: true });
  });

  it("a held call waits for its token up to its budget and the hold, then is refused without a call", async () => {
    await withCallPriority({ priority: "held", booking: "b" }, async () => {
      for (let i = 0; i < 20; i++) await governor.beforeCall(write, 8_000);
      await governor.beforeCall(write, 8_000);
      expect(time.sleep).toHaveBeenCalledWith(1_000);
    });
    const until = time.clock() + 500;
    await rejection(
      withCallPriority({ priority: "held", booking: "b", holdUntil: until }, () => governor.beforeCall(write, 8_000)),
    );
  });
});

describe("the client with the governor, against the sandbox at 60 calls a minute", () => {
  let sandbox: TestSandbox;
  let time: ReturnType<typeof fakeTime>;
  let bucket: CallBucket;
  let governor: CallGovernor;
  let spa: SpaClient;
  /** The same organisation's calls made elsewhere: neither counted here nor governed. */
  let elsewhere: SpaClient;
  let calls: string[];
  beforeEach(async () => {
    time = fakeTime();
    sandbox = await startSandbox({ rateLimitPerMinute: 60, now: time.clock, holdSeconds: 600 });
    bucket = createMemoryCallBucket(time.clock);
    governor = createCallGovernor({ bucket, clock: time.clock, sleep: time.sleep, ...SETTINGS });
    calls = [];
    const counted: typeof fetch = (input, init) => {
      calls.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname.replace(/^\/api/, "")}`);
      return fetch(input, init);
    };
    spa = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      fetch: counted,
      clock: time.clock,
      governor,
    });
    elsewhere = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      clock: time.clock,
    });
  });
  afterEach(async () => {
    await sandbox.stop();
  });

  /** A guest holding the first open time on 2026-12-01, made elsewhere: a booking at the payment step. */
  async function heldBooking(): Promise<{ bookingId: string; guestId: string; expiresAt: number }> {
    const guestId = await createTestGuest(elsewhere, AUSTIN, "Held", "Guest");
    const bookingId = await elsewhere.createBooking({
      centerId: AUSTIN,
      date: "2026-12-01",
      guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [],
    });
    const { times } = await elsewhere.listSlots(bookingId, "2026-12-01");
    const hold = (await elsewhere.reserveSlot(bookingId, times[0], ZONE))!;
    return { bookingId, guestId, expiresAt: Date.parse(hold.expiresAt) };
  }

  /** Spends what is left of the organisation's bucket from elsewhere, until Zenoti answers 429. */
  async function drainElsewhere() {
    for (let i = 0; i < 70; i++) {
      try {
        await elsewhere.listTherapists(DALLAS);
      } catch (error) {
        if (error instanceof SpaError && error.kind === "rate-limited") return;
        throw error;
      }
    }
    throw new Error("the bucket never ran out");
  }

  it("keeps in step with the sandbox's headers", async () => {
    await spa.listTherapists(AUSTIN);
    expect(await governor.state()).toMatchObject({ shape: { limit: 60, windowSeconds: 60, burst: 60 }, tokens: 59 });
    await elsewhere.listTherapists(AUSTIN);
    await elsewhere.listTherapists(AUSTIN);
    await spa.listTherapists(AUSTIN);
    expect((await governor.state()).tokens).toBe(56);
  });

  it("confirms a held booking while reads and new bookings are refused", async () => {
    const { bookingId, expiresAt } = await heldBooking();
    await governor.holding("held-1", expiresAt);
    await bucket.observe({ shape: null, remaining: 5, limited: false, retryAfterSeconds: null, resetSeconds: null });

    const refused = await rejection(withCallPriority({ priority: "browse" }, () => spa.listTherapists(AUSTIN)));
    expect(refused).toMatchObject({ kind: "rate-limited" });
    expect(await governor.admit("new-1")).toMatchObject({ ok: false });
    expect(calls).toEqual([]);

    const confirmed = await withCallPriority({ priority: "held", booking: "held-1", holdUntil: expiresAt }, () =>
      spa.confirmBooking(bookingId, ZONE),
    );
    expect(confirmed?.invoiceId).toBeTruthy();
    expect(calls).toEqual([`POST /v1/bookings/${bookingId}/slots/confirm`]);
  });

  it("tries a held booking's confirm again once the bucket has refilled after Zenoti's 429, and confirms it once", async () => {
    const { bookingId, guestId, expiresAt } = await heldBooking();
    await drainElsewhere();
    const confirmed = await withCallPriority({ priority: "held", booking: "held-1", holdUntil: expiresAt }, () =>
      spa.confirmBooking(bookingId, ZONE),
    );
    expect(confirmed?.invoiceId).toBeTruthy();
    const confirm = `POST /v1/bookings/${bookingId}/slots/confirm`;
    expect(calls).toEqual([confirm, confirm]);
    expect(time.sleep).toHaveBeenCalled();
    time.advance(60_000);
    const visits = await elsewhere.listGuestAppointments(guestId, { size: 100 });
    expect(visits).toHaveLength(1);
  });

  it("never tries a write again when it goes unanswered: only a 429 says nothing was done", async () => {
    const { bookingId, expiresAt } = await heldBooking();
    const quick = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      fetch: (input, init) => {
        calls.push(String(init?.method));
        return fetch(input, init);
      },
      clock: time.clock,
      governor,
      timeoutMs: 200,
    });
    sandbox.faults.delayMs = 1_000;
    sandbox.faults.remaining = 1;
    const error = await rejection(
      withCallPriority({ priority: "held", booking: "held-1", holdUntil: expiresAt }, () =>
        quick.confirmBooking(bookingId, ZONE),
      ),
    );
    expect(error.kind).toBe("timeout");
    expect(calls).toEqual(["POST"]);
  });

  it("answers a refused read from the catalog's copy without a call, and a read with no copy as 'very busy'", async () => {
    const catalog = createCachedCatalog(spa, { ttlMs: 60_000, staleMs: 0, clock: time.clock });
    const nurses = await catalog.listTherapists(AUSTIN);
    expect(calls).toHaveLength(1);
    time.advance(61_000);
    await bucket.observe({ shape: null, remaining: 3, limited: false, retryAfterSeconds: null, resetSeconds: null });
    expect(await catalog.listTherapists(AUSTIN)).toEqual(nurses);
    expect(calls).toHaveLength(1);

    const busy = await orUnavailable(() => catalog.listTherapists(DALLAS)).then(
      () => null,
      (error: unknown) => error as { data: { busy: boolean; retryAfterSeconds: number }; init: ResponseInit },
    );
    expect(busy?.init.status).toBe(503);
    expect(busy?.data).toMatchObject({ busy: true });
    expect(calls).toHaveLength(1);
  });
});
