import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Service } from "~/domain/catalog";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createMemoryRateLimiter, type RateLimiter } from "../accounts/rate-limit.server";
import type { Services } from "../services";
import { createNoLeadWebhooks } from "../leads/lead-webhooks.server";
import { createNoAnalytics } from "../analytics/analytics.server";
import { parseEnv } from "../env.server";
import { seedGuid } from "../spa-sandbox/db";
import type { NewGuest } from "../spa/booking.server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import type { Draft } from "./draft.server";
import { holdSlot, type HoldOutcome } from "./hold-slot.server";

/**
 * Zenoti has no call to drop a hold: a visitor who changes their time must not be blocked by their
 * own first choice, and the address's count of live holds must follow what is really held.
 */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const NURSE = seedGuid("therapist:ATX:3");
const ZONE = "America/Chicago";
const MONDAY = "2026-12-07";
const TUESDAY = "2026-12-08";
const ADDRESS = "203.0.113.40";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let services: Services;
let facial: Service;
let limiter: RateLimiter;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.parse("2026-11-30T15:00:00Z"), holdSeconds: 600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    leads: createNoLeadWebhooks(),
    analytics: createNoAnalytics(),
  } as unknown as Services;
  facial = (await spa.listServices(AUSTIN))!.find((s) => s.id === FACIAL)!;
});
beforeEach(() => {
  // Each case counts its own address's holds from nothing.
  limiter = createMemoryRateLimiter();
  services.rateLimiter = limiter;
});
afterAll(async () => {
  await sandbox.stop();
});

let visitors = 0;

/** A guest's real details: the organisation requires an email and a mobile number. */
function newGuest(firstName: string): NewGuest {
  visitors += 1;
  return {
    centerId: AUSTIN,
    firstName,
    lastName: "Visitor",
    email: `visitor.${visitors}.${Date.now()}@example.com`,
    phone: `51255502${String(visitors).padStart(2, "0")}`,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  };
}

/** Holds as the details step does for a new visitor (their guest made from their details), then as the time step does for a known one. */
async function hold(draft: Draft, slot: string): Promise<HoldOutcome> {
  return holdSlot(services, {
    draft,
    centerId: AUSTIN,
    service: facial,
    slot,
    date: slot.slice(0, 10),
    timeZone: ZONE,
    clientIp: ADDRESS,
    user: null,
    newGuest: newGuest("Ana"),
  });
}

/** Whether someone else, with the same nurse, can hold the time now. */
async function othersCanHold(slot: string): Promise<boolean> {
  const guest = await spa.createGuest(newGuest("Other"));
  const bookingId = await spa.createBooking({
    centerId: AUSTIN,
    date: slot.slice(0, 10),
    guestId: guest.id,
    serviceId: FACIAL,
    therapistId: NURSE,
    addOnIds: [],
  });
  return (await spa.reserveSlot(bookingId, slot, ZONE)) !== null;
}

/** How many live holds the address is counted for (a probe with room for any number). */
async function liveHoldsOfAddress(draft: Draft): Promise<number> {
  const key = draft.hold!.claim!.key;
  let count = 0;
  while ((await limiter.claim(key, `probe-${count}`, count + 1, 1_000)).limited) count += 1;
  for (let i = 0; i <= count; i++) await limiter.release(key, `probe-${i}`);
  return count;
}

describe("changing the held time", () => {
  it("another time that day moves the hold on the same booking: the first time is free at once, one hold counted", async () => {
    const start: Draft = { centerId: AUSTIN, serviceId: FACIAL, addOnIds: [], therapistId: NURSE };
    const first = await hold(start, `${MONDAY}T10:00:00`);
    expect(first.kind).toBe("held");
    const second = await hold(first.draft, `${MONDAY}T13:00:00`);
    expect(second.kind).toBe("held");
    expect(second.draft.hold!.bookingId).toBe(first.draft.hold!.bookingId);
    expect(Date.parse(second.draft.hold!.expiresAt)).toBe(Date.parse("2026-11-30T15:10:00Z"));
    expect(await othersCanHold(`${MONDAY}T10:00:00`)).toBe(true);
    expect(await liveHoldsOfAddress(second.draft)).toBe(1);
  });

  it("the same time picked again is held again, not refused as taken by the visitor's own hold", async () => {
    const start: Draft = { centerId: AUSTIN, serviceId: FACIAL, addOnIds: [], therapistId: NURSE };
    const first = await hold(start, `${MONDAY}T16:00:00`);
    const again = await hold(first.draft, `${MONDAY}T16:00:00`);
    expect(again.kind).toBe("held");
    expect(await liveHoldsOfAddress(again.draft)).toBe(1);
  });

  it("a time on another day is a new booking; the first hold runs out by itself, but its place is given back", async () => {
    const start: Draft = { centerId: AUSTIN, serviceId: FACIAL, addOnIds: [], therapistId: NURSE };
    const first = await hold(start, `${TUESDAY}T10:00:00`);
    const moved = await hold(first.draft, `${MONDAY}T17:00:00`);
    expect(moved.kind).toBe("held");
    expect(moved.draft.hold!.bookingId).not.toBe(first.draft.hold!.bookingId);
    expect(await othersCanHold(`${TUESDAY}T10:00:00`)).toBe(false);
    expect(await liveHoldsOfAddress(moved.draft)).toBe(1);
  });
});
