import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Service } from "~/domain/catalog";
import { createTestGuest, startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import { createNoAnalytics } from "../analytics/analytics.server";
import type { Services } from "../services";
import { parseEnv } from "../env.server";
import { createNoLeadWebhooks } from "../leads/lead-webhooks.server";
import { seedGuid } from "../spa-sandbox/db";
import {
  createCallGovernor,
  createMemoryCallBucket,
  type CallBucket,
  type CallGovernor,
} from "../spa/call-governor.server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { bookingScope } from "./call-priority.server";
import type { Draft } from "./draft.server";
import { chooseTime, holdSlot } from "./hold-slot.server";
import { forgetOpenTimes, openTimes, type SlotQuery } from "./holds.server";

/**
 * The booking use cases under the call governor (decision 036), against the sandbox at Zenoti's 60
 * calls a minute, on a clock that moves only when the test says.
 */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const ZONE = "America/Chicago";

let now = Date.parse("2026-11-30T15:00:00Z");
const clock = () => now;
let sandbox: TestSandbox;
let elsewhere: SpaClient;
let facial: Service;
let bucket: CallBucket;
let governor: CallGovernor;
let services: Services;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 60, now: clock, holdSeconds: 600 });
  elsewhere = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock });
  facial = (await elsewhere.listServices(AUSTIN))!.find((s) => s.id === FACIAL)!;
});
beforeEach(() => {
  // A minute later: Zenoti's bucket is full again, and this case's governor starts from nothing.
  now += 60_000;
  bucket = createMemoryCallBucket(clock);
  // The figures below are worked out for 11 calls a booking and 6 after its hold, whatever the defaults are.
  governor = createCallGovernor({
    bucket,
    clock,
    sleep: async (ms) => {
      now += ms;
    },
    callsPerBooking: 11,
    callsAfterHold: 6,
    readReserve: 6,
  });
  const spa = createSpaClient({
    baseUrl: sandbox.baseUrl,
    auth: { type: "apikey", apiKey: TEST_API_KEY },
    clock,
    governor,
  });
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    rateLimiter: createMemoryRateLimiter(),
    callGovernor: governor,
    leads: createNoLeadWebhooks(),
    analytics: createNoAnalytics(),
  } as unknown as Services;
});
afterAll(async () => {
  await sandbox.stop();
});

/** What Zenoti's last answer said is left of the organisation's calls. */
const leftAtZenoti = (remaining: number) =>
  bucket.observe({ shape: null, remaining, limited: false, retryAfterSeconds: null, resetSeconds: null });

const query = (date: string): SlotQuery => ({
  centerId: AUSTIN,
  serviceId: FACIAL,
  addOnIds: [],
  therapistId: null,
  date,
});

describe("a new booking at the call limit", () => {
  it("is told at the time step when to try again, with its day kept, before anything is made; then let in", async () => {
    const date = "2026-12-02";
    const { times } = await openTimes(services, query(date));
    await leftAtZenoti(10);
    const calls = sandbox.callCount();
    const draft: Draft = { centerId: AUSTIN, serviceId: FACIAL, addOnIds: [], therapistId: null };

    const busy = await chooseTime(services, { draft, centerId: AUSTIN, service: facial, slot: times[0], date });
    expect(busy).toMatchObject({ kind: "busy", retryAfterSeconds: 1, draft: { date, centerId: AUSTIN } });
    expect(sandbox.callCount()).toBe(calls);

    now += 1_000;
    const chosen = await chooseTime(services, {
      draft: busy.kind === "busy" ? busy.draft : draft,
      centerId: AUSTIN,
      service: facial,
      slot: times[0],
      date,
    });
    expect(chosen).toMatchObject({ kind: "chosen", draft: { slot: times[0] } });
    // Its calls to its confirmation are kept for it now.
    expect((await governor.state()).reserved).toBe(11);
  });

  it("a known guest's hold is refused before anything is made, then held, and what it still needs is kept for it", async () => {
    const guestId = await createTestGuest(elsewhere, AUSTIN, "Kept", "Guest");
    const date = "2026-12-03";
    const { times } = await openTimes(services, query(date));
    const draft: Draft = {
      centerId: AUSTIN,
      serviceId: FACIAL,
      addOnIds: [],
      therapistId: null,
      guestId,
      details: { firstName: "Kept", lastName: "Guest", email: "kept.guest@example.com", phone: "5125550123" },
    };
    const request = {
      draft,
      centerId: AUSTIN,
      service: facial,
      slot: times[0],
      date,
      timeZone: ZONE,
      clientIp: "203.0.113.61",
      user: null,
    };
    await governor.holding("someone-paying", now + 600_000);
    await leftAtZenoti(12);
    const calls = sandbox.callCount();

    const busy = await holdSlot(services, request);
    expect(busy).toMatchObject({ kind: "busy", retryAfterSeconds: 5 });
    expect(sandbox.callCount()).toBe(calls);

    await governor.release("someone-paying");
    const held = await holdSlot(services, { ...request, draft: busy.draft });
    expect(held.kind).toBe("held");
    expect((await governor.state()).reserved).toBe(6);
  });
});

describe("open times at the call limit", () => {
  it("are answered from the list kept after a hold, without a call, when reads are held back", async () => {
    const slots = query("2026-12-04");
    const first = await openTimes(services, slots);
    forgetOpenTimes(slots);
    await leftAtZenoti(3);
    const calls = sandbox.callCount();
    expect(await openTimes(services, slots)).toEqual(first);
    expect(sandbox.callCount()).toBe(calls);
  });
});

describe("whose calls a booking step makes", () => {
  it("holds: the booking's, first in line, until the hold runs out; on its way to a hold: a new booking's; else nobody's", () => {
    const hold = {
      bookingId: "b",
      slot: "2026-12-07T10:00:00",
      reservationId: "r",
      expiresAt: new Date(now + 600_000).toISOString(),
    };
    expect(bookingScope({ id: "d1", hold }, now)).toEqual({
      priority: "held",
      booking: "d1",
      holdUntil: now + 600_000,
    });
    expect(bookingScope({ id: "d1", hold }, now + 600_001)).toEqual({
      priority: "held",
      booking: "d1",
      holdUntil: undefined,
    });
    expect(bookingScope({ id: "d1" }, now)).toEqual({ priority: "booking", booking: "d1" });
    expect(bookingScope({}, now)).toBeNull();
    expect(bookingScope(null, now)).toBeNull();
  });
});
