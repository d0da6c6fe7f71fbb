import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestGuest, startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { createRecordingAnalytics } from "../../tests/helpers/recording-analytics";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import type { Services } from "../services";
import { parseEnv } from "../env.server";
import { createOutboxNotifier } from "../notify/notifier.server";
import { seedGuid } from "../spa-sandbox/db";
import { createCallGovernor, createMemoryCallBucket, type CallGovernor } from "../spa/call-governor.server";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import { checkout, type Quote } from "./checkout.server";
import type { Draft } from "./draft.server";

/**
 * Confirm and pay at the chain's call limit (decisions 008 and 036): a 429 did nothing, so the
 * governor tries the call again once the bucket has a token; when it cannot within the hold and the
 * lease, the attempt is handed back as it was and the guest is told plainly. Never a hold lost
 * without a word, never a second charge.
 */

const DALLAS = seedGuid("center:DAL"); // takes payment when booking
const AUSTIN = seedGuid("center:ATX"); // holds the card
const FACIAL = seedGuid("service:FT-NEW");
const RETURN_TO = "http://shop.example/appointment/payment";

let now = Date.parse("2026-11-30T15:00:00Z");
const clock = () => now;
let sandbox: TestSandbox;
let elsewhere: SpaClient;
let stores: Stores;
let governor: CallGovernor;
let services: Services;
/** Zenoti's 429 for this many of the next charges, before the back end sees them. */
let refuseCharges = 0;
let dayIndex = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 60, now: clock, holdSeconds: 600 });
  elsewhere = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, clock });
  stores = createSqliteStores(":memory:");
});
beforeEach(() => {
  now += 60_000;
  refuseCharges = 0;
  governor = createCallGovernor({
    bucket: createMemoryCallBucket(clock),
    clock,
    sleep: async (ms) => {
      now += ms;
    },
  });
  const limited: typeof fetch = async (input, init) => {
    if (refuseCharges > 0 && String(input).endsWith("/online_payments")) {
      refuseCharges -= 1;
      const headers = {
        "Organization-RateLimit-Limit": "60;w=60;b=60",
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": "60",
        "Retry-After": "1",
      };
      return new Response(
        JSON.stringify({ error: { code: 429, message: "API calls quota exceeded! maximum admitted 60 per 1m." } }),
        { status: 429, headers },
      );
    }
    return fetch(input, init);
  };
  const spa = createSpaClient({
    baseUrl: sandbox.baseUrl,
    auth: { type: "apikey", apiKey: TEST_API_KEY },
    clock,
    fetch: limited,
    governor,
  });
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    stores,
    catalog: createCachedCatalog(spa, { ttlMs: 600_000, staleMs: 0, clock }),
    notifier: createOutboxNotifier(":memory:"),
    rateLimiter: createMemoryRateLimiter(),
    analytics: createRecordingAnalytics(),
    callGovernor: governor,
  } as unknown as Services;
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});

/** A guest with a saved card holding a time, as the payment step has them. */
async function heldBooking(centerId: string) {
  dayIndex += 1;
  const date = `2026-12-${String(dayIndex + 1).padStart(2, "0")}`;
  const guestId = await createTestGuest(elsewhere, centerId, "Ana", "Lopez");
  const bookingId = await elsewhere.createBooking({
    centerId,
    date,
    guestId,
    serviceId: FACIAL,
    therapistId: null,
    addOnIds: [],
  });
  const { times } = await elsewhere.listSlots(bookingId, date);
  const hold = (await elsewhere.reserveSlot(bookingId, times[0], "America/Chicago"))!;
  const uri = await elsewhere.startCardCapture(guestId, centerId, RETURN_TO);
  await fetch(uri, {
    method: "POST",
    body: new URLSearchParams({ name: "Ana Lopez", number: "4242424242424242", expiry: "12/30", cvc: "123" }),
    redirect: "manual",
  });
  const [card] = await elsewhere.listCards(guestId, centerId);
  const draft: Draft = {
    id: randomUUID(),
    centerId,
    serviceId: FACIAL,
    addOnIds: [],
    therapistId: null,
    date,
    guestId,
    details: {
      firstName: "Ana",
      lastName: "Lopez",
      email: `ana.${randomUUID().slice(0, 8)}@example.com`,
      phone: "5125550199",
    },
    hold: { bookingId, slot: times[0], reservationId: hold.reservationId, expiresAt: hold.expiresAt },
  };
  const center = (await services.catalog.getCenter(centerId))!;
  return { draft, guestId, center, accountId: card.accountId };
}

const quoteFor = (prepaid: boolean): Quote => ({
  lines: [{ name: "Signature Laser Facial - New Client", price: 27500, discount: 0 }],
  subtotal: 27500,
  discount: 0,
  total: 27500,
  prepaid,
  dueNow: prepaid ? 27500 : 0,
  dueInClinic: prepaid ? 0 : 27500,
  promo: null,
  member: null,
  package: null,
});

function ledger(guestId: string) {
  const live = sandbox.db
    .prepare("SELECT COUNT(*) AS n FROM appointments WHERE guest_id = ? AND status = 0")
    .get(guestId) as { n: number };
  const charges = sandbox.db
    .prepare("SELECT COUNT(*) AS n FROM transactions t JOIN invoices i ON i.id = t.invoice_id WHERE i.guest_id = ?")
    .get(guestId) as { n: number };
  return { live: live.n, charges: charges.n };
}

describe("confirm and pay at the call limit", () => {
  it("a charge Zenoti refused with 429 is sent again once the bucket has a token: booked, charged once", async () => {
    const booking = await heldBooking(DALLAS);
    refuseCharges = 1;
    const outcome = await checkout(
      services,
      {
        payKey: randomUUID(),
        draft: booking.draft,
        center: booking.center,
        quote: quoteFor(true),
        accountId: booking.accountId,
        returnTo: RETURN_TO,
      },
      { clock },
    );
    expect(outcome.kind).toBe("booked");
    expect(ledger(booking.guestId)).toEqual({ live: 1, charges: 1 });
  });

  it("a charge still refused after the retries leaves the booking confirmed and unpaid, says so, and is paid once on the next press", async () => {
    const booking = await heldBooking(DALLAS);
    const payKey = randomUUID();
    const press = () =>
      checkout(
        services,
        {
          payKey,
          draft: booking.draft,
          center: booking.center,
          quote: quoteFor(true),
          accountId: booking.accountId,
          returnTo: RETURN_TO,
        },
        { clock },
      );
    refuseCharges = 10;
    const first = await press();
    expect(first).toMatchObject({ kind: "pending", busyRetryAfterSeconds: expect.any(Number) });
    expect(ledger(booking.guestId)).toEqual({ live: 1, charges: 0 });
    expect(await stores.paymentAttempts.get(payKey)).toMatchObject({
      state: "confirmed",
      chargeSentAt: null,
      leaseUntil: 0,
    });

    refuseCharges = 0;
    now += 60_000;
    expect((await press()).kind).toBe("booked");
    expect(ledger(booking.guestId)).toEqual({ live: 1, charges: 1 });
  });

  it("a confirm that cannot have a token in time is not sent: the hold stays, the guest is told when to press again", async () => {
    const booking = await heldBooking(AUSTIN);
    const payKey = randomUUID();
    const press = () =>
      checkout(
        services,
        {
          payKey,
          draft: booking.draft,
          center: booking.center,
          quote: quoteFor(false),
          accountId: booking.accountId,
          returnTo: RETURN_TO,
        },
        { clock },
      );
    // Zenoti said: nothing for 30 seconds, longer than a call may wait.
    await governor.afterAnswer(
      429,
      new Headers({ "Organization-RateLimit-Limit": "60;w=60;b=60", "RateLimit-Remaining": "0", "Retry-After": "30" }),
    );
    expect(await press()).toEqual({ kind: "pending", busyRetryAfterSeconds: 30 });
    expect(ledger(booking.guestId)).toEqual({ live: 0, charges: 0 });
    expect(await stores.paymentAttempts.get(payKey)).toMatchObject({ state: "started", leaseUntil: 0 });

    now += 30_000;
    expect((await press()).kind).toBe("booked");
    expect(ledger(booking.guestId)).toEqual({ live: 1, charges: 0 });
  });
});
