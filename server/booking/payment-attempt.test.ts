import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Center } from "~/domain/catalog";
import { startFaultProxy, type FaultMode, type FaultProxy } from "../../tests/helpers/fault-proxy";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import type { Services } from "../services";
import { createRecordingAnalytics } from "../../tests/helpers/recording-analytics";
import { parseEnv } from "../env.server";
import { createOutboxNotifier } from "../notify/notifier.server";
import { seedGuid } from "../spa-sandbox/db";
import { CHARGE_DECLINED_TEST_CARD, THREE_DS_TEST_CARD } from "../spa-sandbox/payments";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { PaymentAttempt, Stores } from "../store/stores.server";
import {
  backEndQuote,
  checkout,
  declineBackEndPrice,
  finishVerification,
  type CheckoutOutcome,
  type Quote,
} from "./checkout.server";
import type { Draft } from "./draft.server";
import { PACKAGE_PAYMENT_FAILED_COMMENT, PAYMENT_FAILED_COMMENT, type AttemptTiming } from "./payment-attempt.server";
import { reconcilePaymentAttempts } from "./reconcile.server";

/**
 * Every cut point of confirm-and-pay, with the answer of each back-end call dropped, lost after the
 * back end acted, hung past the timeout, or replaced by a gateway error: no case may end with a
 * charge and no booking, or with two charges, and the guest always ends up knowing which it is.
 */

const DALLAS = seedGuid("center:DAL"); // takes payment when booking
const AUSTIN = seedGuid("center:ATX"); // holds the card
const FACIAL = seedGuid("service:FT-NEW");
const GOOD_CARD = "4242424242424242";
const TIMING: AttemptTiming = { leaseMs: 5_000, settleMs: 10_000 };
const RETURN_TO = "http://shop.example/appointment/payment";

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let proxy: FaultProxy;
let direct: SpaClient;
let services: Services;
let stores: Stores;
let sandboxNow = Date.parse("2026-11-30T15:00:00Z");
let clock = Date.now();
const centers = new Map<string, Center>();
let dayIndex = 0;
const analytics = createRecordingAnalytics();

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => sandboxNow, holdSeconds: 3600 });
  proxy = await startFaultProxy(sandbox.baseUrl);
  direct = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  const spa = createSpaClient({
    baseUrl: proxy.baseUrl,
    auth: { type: "apikey", apiKey: TEST_API_KEY },
    timeoutMs: 500,
    retryDelayMs: 1,
  });
  stores = createSqliteStores(":memory:");
  services = {
    env: parseEnv({ NODE_ENV: "test", SPA_TIMEOUT_MS: "500" }),
    spa,
    stores,
    catalog: createCachedCatalog(spa, { ttlMs: 600_000, staleMs: 0 }),
    notifier: createOutboxNotifier(":memory:"),
    rateLimiter: createMemoryRateLimiter(),
    analytics,
  } as unknown as Services;
  for (const center of (await direct.listCenters()).centers) centers.set(center.id, center);
});
afterAll(async () => {
  await proxy.stop();
  await sandbox.stop();
  await stores.close();
});
afterEach(() => proxy.clear());

/** A new weekday for each booking, so no two cases compete for a time. */
function nextDay(): string {
  for (;;) {
    dayIndex += 1;
    const day = new Date(Date.parse("2026-12-01T12:00:00Z") + dayIndex * 86_400_000);
    if (day.getUTCDay() !== 0) return day.toISOString().slice(0, 10);
  }
}

/** The back end's clock moves past every hold made so far (Zenoti has no call to drop one). */
function expireHolds() {
  sandboxNow += 3_601_000;
}

/** A guest with a saved card and a held time, as the payment step has them. */
async function heldBooking(centerId: string, card = GOOD_CARD) {
  const email = `pay.${randomUUID().slice(0, 8)}@example.com`;
  const guest = await direct.createGuest({
    centerId,
    firstName: "Ana",
    lastName: "Lopez",
    email,
    phone: "5125550199",
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });
  const date = nextDay();
  const bookingId = await direct.createBooking({
    centerId,
    date,
    guestId: guest.id,
    serviceId: FACIAL,
    therapistId: null,
    addOnIds: [],
  });
  const { times } = await direct.listSlots(bookingId, date);
  const hold = (await direct.reserveSlot(bookingId, times[0], centers.get(centerId)!.timeZone))!;
  const uri = await direct.startCardCapture(guest.id, centerId, "http://shop.example/appointment/payment");
  await fetch(uri, {
    method: "POST",
    body: new URLSearchParams({ name: "Ana Lopez", number: card, expiry: "12/30", cvc: "123" }),
    redirect: "manual",
  });
  const [saved] = await direct.listCards(guest.id, centerId);
  const draft: Draft = {
    centerId,
    serviceId: FACIAL,
    addOnIds: [],
    therapistId: null,
    date,
    guestId: guest.id,
    details: { firstName: "Ana", lastName: "Lopez", email, phone: "5125550199" },
    hold: {
      bookingId,
      slot: times[0],
      reservationId: hold.reservationId,
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    },
  };
  return { draft, guestId: guest.id, accountId: saved.accountId, center: centers.get(centerId)! };
}

function quoteFor(prepaid: boolean, promo: Quote["promo"] = null): Quote {
  return {
    lines: [{ name: "Signature Laser Facial - New Client", price: 27500, discount: 0 }],
    subtotal: 27500,
    discount: 0,
    total: 27500,
    prepaid,
    dueNow: prepaid ? 27500 : 0,
    dueInClinic: prepaid ? 0 : 27500,
    promo,
    member: null,
    package: null,
  };
}

/** What the back end holds for the guest: live appointments and charges. */
function ledger(guestId: string) {
  const live = sandbox.db
    .prepare("SELECT COUNT(*) AS n FROM appointments WHERE guest_id = ? AND status = 0")
    .get(guestId) as { n: number };
  const charges = sandbox.db
    .prepare(
      "SELECT COUNT(*) AS n, COALESCE(SUM(t.amount), 0) AS total FROM transactions t JOIN invoices i ON i.id = t.invoice_id WHERE i.guest_id = ?",
    )
    .get(guestId) as { n: number; total: number };
  return { live: live.n, charges: charges.n, charged: charges.total };
}

/** Presses "Pay and book" again after each "not known yet", as a guest would, a little later each time. */
async function payUntilKnown(
  booking: Awaited<ReturnType<typeof heldBooking>>,
  payKey: string,
  prepaid: boolean,
): Promise<{ first: CheckoutOutcome; last: CheckoutOutcome }> {
  const press = () =>
    checkout(
      services,
      {
        payKey,
        draft: booking.draft,
        center: booking.center,
        quote: quoteFor(prepaid),
        accountId: booking.accountId,
        returnTo: RETURN_TO,
      },
      { clock: () => clock, timing: TIMING, busyWaitMs: 0 },
    );
  const first = await press();
  let last = first;
  for (let i = 0; i < 4 && (last.kind === "pending" || last.kind === "busy"); i++) {
    clock += TIMING.settleMs + TIMING.leaseMs;
    last = await press();
  }
  return { first, last };
}

function expectConsistent(outcome: CheckoutOutcome, guestId: string, prepaid: boolean) {
  const { live, charges, charged } = ledger(guestId);
  expect(charges, "never two charges").toBeLessThanOrEqual(1);
  expect(charges > 0 && live === 0, "never a charge without a booking").toBe(false);
  if (outcome.kind === "booked") {
    expect(live).toBe(1);
    // The sandbox keeps Zenoti's decimal dollars.
    expect(charged).toBe(prepaid ? 275 : 0);
  } else {
    expect(live).toBe(0);
    expect(charges).toBe(0);
  }
}

const MODES: FaultMode[] = ["reset-before", "reset-after", "hang-after", "error-after"];
const PREPAID_CALLS = [
  { name: "confirm", method: "POST", path: /\/slots\/confirm$/ },
  { name: "invoice read", method: "GET", path: /\/v1\/invoices\/[^/]+$/ },
  { name: "charge", method: "POST", path: /\/online_payments$/ },
];

describe("a prepaid clinic: each back-end answer of confirm and pay goes missing once", () => {
  for (const call of PREPAID_CALLS) {
    for (const mode of MODES) {
      it(`${call.name}, ${mode}: booked once, charged once`, async () => {
        const booking = await heldBooking(DALLAS);
        proxy.fail({ method: call.method, path: call.path, mode, times: call.method === "GET" ? 2 : 1 });
        const { last } = await payUntilKnown(booking, randomUUID(), true);
        expect(last.kind).toBe("booked");
        expectConsistent(last, booking.guestId, true);
        // However many presses it took, the funnel saw one payment start and one booking.
        const ofThisBooking = analytics.events
          .filter((event) => event.properties.bookingId === booking.draft.hold!.bookingId)
          .map((event) => event.name);
        expect(ofThisBooking).toEqual(["payment_started", "booked"]);
      });
    }
  }

  it("a booked guest carries the spec's payment tag in the back end: PPD-A where it is paid when booking, PPD-B where the clinic holds the card", async () => {
    const prepaid = await heldBooking(DALLAS);
    expect((await payUntilKnown(prepaid, randomUUID(), true)).last.kind).toBe("booked");
    const held = await heldBooking(AUSTIN);
    expect((await payUntilKnown(held, randomUUID(), false)).last.kind).toBe("booked");
    const tagsOf = (guestId: string) => {
      const row = sandbox.db.prepare("SELECT payload FROM guests WHERE id = ?").get(guestId) as { payload: string };
      return (JSON.parse(row.payload) as { tags?: string[] }).tags ?? [];
    };
    expect(tagsOf(prepaid.guestId)).toContain("PPD-A");
    expect(tagsOf(prepaid.guestId)).not.toContain("PPD-B");
    expect(tagsOf(held.guestId)).toContain("PPD-B");
  });

  it("the charge's answer is lost and the invoice can't be read either: not known yet, then booked on the next press", async () => {
    const booking = await heldBooking(DALLAS);
    proxy.fail({ method: "POST", path: /\/online_payments$/, mode: "reset-after" });
    proxy.fail({ method: "GET", path: /\/v1\/invoices\/[^/]+$/, mode: "reset-before", times: 4 });
    const { first, last } = await payUntilKnown(booking, randomUUID(), true);
    expect(first.kind).toBe("pending");
    // While "not known", the charge stands and the appointment stays: nothing was removed.
    expect(last.kind).toBe("booked");
    expectConsistent(last, booking.guestId, true);
  });

  it("a charge sent with no answer is not sent again before it could have landed", async () => {
    const booking = await heldBooking(DALLAS);
    proxy.fail({ method: "POST", path: /\/online_payments$/, mode: "reset-before" });
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
        { clock: () => clock, timing: TIMING, busyWaitMs: 0 },
      );
    expect((await press()).kind).toBe("pending");
    clock += TIMING.leaseMs;
    const before = proxy.calls.filter((c) => c.endsWith("/online_payments")).length;
    expect((await press()).kind).toBe("pending");
    expect(proxy.calls.filter((c) => c.endsWith("/online_payments")).length).toBe(before);
    clock += TIMING.settleMs;
    const after = await press();
    expect(after.kind).toBe("booked");
    expectConsistent(after, booking.guestId, true);
  });
});

describe("a pay-in-clinic clinic: the confirm's answer goes missing once", () => {
  for (const mode of MODES) {
    it(`confirm, ${mode}: booked, nothing charged`, async () => {
      const booking = await heldBooking(AUSTIN);
      proxy.fail({ method: "POST", path: /\/slots\/confirm$/, mode });
      const { last } = await payUntilKnown(booking, randomUUID(), false);
      expect(last.kind).toBe("booked");
      expectConsistent(last, booking.guestId, false);
    });
  }
});

describe("explicit answers", () => {
  it("a refused charge removes the appointment; pressing again shows the refusal, never a booking", async () => {
    const booking = await heldBooking(DALLAS, CHARGE_DECLINED_TEST_CARD);
    const payKey = randomUUID();
    const { last } = await payUntilKnown(booking, payKey, true);
    expect(last.kind).toBe("declined");
    expectConsistent(last, booking.guestId, true);
    const again = await payUntilKnown(booking, payKey, true);
    expect(again.last.kind).toBe("declined");
    expectConsistent(again.last, booking.guestId, true);
  });

  it("a hold that is gone books nothing", async () => {
    const booking = await heldBooking(AUSTIN);
    expireHolds();
    const { last } = await payUntilKnown(booking, randomUUID(), false);
    expect(last.kind).toBe("hold-lost");
    expectConsistent(last, booking.guestId, false);
  });
});

/** Stores that die (like the process) at the first write of the given state. */
function crashingAt(state: PaymentAttempt["state"]): Services {
  let crashed = false;
  const paymentAttempts: Stores["paymentAttempts"] = {
    ...stores.paymentAttempts,
    async save(attempt) {
      if (!crashed && attempt.state === state) {
        crashed = true;
        throw new Error("process killed");
      }
      return stores.paymentAttempts.save(attempt);
    },
  };
  return { ...services, stores: { ...stores, paymentAttempts } };
}

describe("a request that dies between two steps", () => {
  async function dieAt(state: PaymentAttempt["state"]) {
    const booking = await heldBooking(DALLAS);
    const payKey = randomUUID();
    await expect(
      checkout(
        crashingAt(state),
        {
          payKey,
          draft: booking.draft,
          center: booking.center,
          quote: quoteFor(true),
          accountId: booking.accountId,
          returnTo: RETURN_TO,
        },
        { clock: () => clock, timing: TIMING },
      ),
    ).rejects.toThrow("process killed");
    return { booking, payKey };
  }

  it("after the confirm, before the charge: a retry at once waits for nothing long and finishes it", async () => {
    const { booking, payKey } = await dieAt("charging");
    expect(ledger(booking.guestId)).toMatchObject({ live: 1, charges: 0 });
    clock += TIMING.leaseMs;
    const { last } = await payUntilKnown(booking, payKey, true);
    expect(last.kind).toBe("booked");
    expectConsistent(last, booking.guestId, true);
  });

  it("after the confirm, before the charge, and nobody comes back: the reconciler removes the unpaid booking", async () => {
    const { booking, payKey } = await dieAt("charging");
    clock += 10 * 60_000;
    await reconcilePaymentAttempts(services, { clock: () => clock, timing: TIMING });
    expect(ledger(booking.guestId)).toMatchObject({ live: 0, charges: 0 });
    // The guest who comes back later is told, and nothing is charged.
    const { last } = await payUntilKnown(booking, payKey, true);
    expect(last.kind).toBe("undone");
    expectConsistent(last, booking.guestId, true);
  });

  it("after the charge, before its answer was written: the reconciler keeps the paid booking", async () => {
    const { booking, payKey } = await dieAt("booked");
    expect(ledger(booking.guestId)).toMatchObject({ live: 1, charges: 1 });
    clock += 10 * 60_000;
    await reconcilePaymentAttempts(services, { clock: () => clock, timing: TIMING });
    const attempt = await stores.paymentAttempts.get(payKey);
    expect(attempt).toMatchObject({ state: "booked", notified: true });
    expectConsistent({ kind: "booked", attempt: attempt! }, booking.guestId, true);
  });
});

describe("a once-per-guest promo code", () => {
  it("is used by only one of two bookings confirmed at once", async () => {
    const first = await heldBooking(AUSTIN);
    const second = await heldBooking(AUSTIN);
    second.draft.details = first.draft.details;
    const promo = { code: "GLOW50", kind: "promo" as const, applied: true, message: null, maxUsesPerGuest: 1 };
    const pay = (b: typeof first) =>
      checkout(
        services,
        {
          payKey: randomUUID(),
          draft: b.draft,
          center: b.center,
          quote: quoteFor(false, promo),
          accountId: b.accountId,
          returnTo: RETURN_TO,
        },
        { clock: () => clock, timing: TIMING },
      );
    const outcomes = await Promise.all([pay(first), pay(second)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["booked", "promo-used"]);
    expect((await stores.guestDetails.get(first.draft.details!.email))?.promo_codes.GLOW50).toBe(1);
  });

  it("is given back when the booking does not happen", async () => {
    const booking = await heldBooking(AUSTIN);
    expireHolds();
    const promo = { code: "GLOW50", kind: "promo" as const, applied: true, message: null, maxUsesPerGuest: 1 };
    const outcome = await checkout(
      services,
      {
        payKey: randomUUID(),
        draft: booking.draft,
        center: booking.center,
        quote: quoteFor(false, promo),
        accountId: booking.accountId,
        returnTo: RETURN_TO,
      },
      { clock: () => clock, timing: TIMING },
    );
    expect(outcome.kind).toBe("hold-lost");
    expect((await stores.guestDetails.get(booking.draft.details!.email))?.promo_codes.GLOW50).toBe(0);
  });
});

/** The guest's answer on the 3-D Secure page. */
async function answerCheck(uri: string, result: "approve" | "refuse") {
  const answer = await fetch(uri, { method: "POST", body: new URLSearchParams({ result }), redirect: "manual" });
  expect(answer.status).toBe(303);
}

describe("a card that needs 3-D Secure", () => {
  const press = (booking: Awaited<ReturnType<typeof heldBooking>>, payKey: string) =>
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
      { clock: () => clock, timing: TIMING, busyWaitMs: 0 },
    );

  it("sends the guest to the check; passed, the booking stands and is charged once", async () => {
    const booking = await heldBooking(DALLAS, THREE_DS_TEST_CARD);
    const payKey = randomUUID();
    const first = await press(booking, payKey);
    expect(first.kind).toBe("verify");
    const uri = (first as { uri: string }).uri;
    expect(ledger(booking.guestId)).toMatchObject({ live: 1, charges: 0 });
    // A second press (a double tap, a replayed form) sends the guest to the same check, and charges nothing.
    expect(await press(booking, payKey)).toEqual({ kind: "verify", uri });
    expect(await finishVerification(services, randomUUID())).toBeNull();

    await answerCheck(uri, "approve");
    const back = await finishVerification(services, payKey, { clock: () => clock, timing: TIMING });
    expect(back?.kind).toBe("booked");
    expectConsistent(back!, booking.guestId, true);
    expect((await press(booking, payKey)).kind).toBe("booked");
  });

  it("failed or left, the appointment is removed and the guest told the payment failed", async () => {
    const booking = await heldBooking(DALLAS, THREE_DS_TEST_CARD);
    const payKey = randomUUID();
    const first = (await press(booking, payKey)) as { uri: string };
    await answerCheck(first.uri, "refuse");
    const back = await finishVerification(services, payKey, { clock: () => clock, timing: TIMING });
    expect(back?.kind).toBe("declined");
    expectConsistent(back!, booking.guestId, true);
  });

  it("nobody comes back: the reconciler removes the unpaid booking, or keeps the paid one", async () => {
    const unpaid = await heldBooking(DALLAS, THREE_DS_TEST_CARD);
    const paid = await heldBooking(DALLAS, THREE_DS_TEST_CARD);
    const unpaidKey = randomUUID();
    const paidKey = randomUUID();
    await press(unpaid, unpaidKey);
    const check = (await press(paid, paidKey)) as { uri: string };
    await answerCheck(check.uri, "approve");
    clock += 10 * 60_000;
    await reconcilePaymentAttempts(services, { clock: () => clock, timing: TIMING });
    expect(await stores.paymentAttempts.get(unpaidKey)).toMatchObject({ state: "undone" });
    expect(await stores.paymentAttempts.get(paidKey)).toMatchObject({ state: "booked" });
    expectConsistent({ kind: "undone" }, unpaid.guestId, true);
    expectConsistent({ kind: "booked", attempt: (await stores.paymentAttempts.get(paidKey))! }, paid.guestId, true);
  });
});

describe("what is shown is what is charged", () => {
  const press = (booking: Awaited<ReturnType<typeof heldBooking>>, payKey: string, shownDue?: number) =>
    checkout(
      services,
      {
        payKey,
        draft: booking.draft,
        center: booking.center,
        quote: quoteFor(true),
        accountId: booking.accountId,
        returnTo: RETURN_TO,
        shownDue,
      },
      { clock: () => clock, timing: TIMING, busyWaitMs: 0 },
    );

  it("an invoice asking another amount is not charged; agreed to, it is", async () => {
    const booking = await heldBooking(DALLAS);
    const payKey = randomUUID();
    expect(await press(booking, payKey, 20_000)).toEqual({ kind: "price-changed", shown: 20_000, due: 27_500 });
    expect(ledger(booking.guestId)).toMatchObject({ live: 1, charges: 0 });
    expect(await stores.paymentAttempts.get(payKey)).toMatchObject({ state: "confirmed", backEndDue: 27_500 });
    // The same old page sent again is asked again.
    expect((await press(booking, payKey, 20_000)).kind).toBe("price-changed");
    const agreed = await press(booking, payKey, 27_500);
    expect(agreed.kind).toBe("booked");
    expectConsistent(agreed, booking.guestId, true);
  });

  it("not agreed to, the booking is cancelled and nothing is charged", async () => {
    const booking = await heldBooking(DALLAS);
    const payKey = randomUUID();
    expect(await declineBackEndPrice(services, payKey)).toBeNull();
    await press(booking, payKey, 20_000);
    const cancelled = await declineBackEndPrice(services, payKey, { clock: () => clock, timing: TIMING });
    expect(cancelled?.kind).toBe("undone");
    expectConsistent(cancelled!, booking.guestId, true);
  });

  it("a price that agrees is charged at once, and the back end's summary is its invoice", async () => {
    const booking = await heldBooking(DALLAS);
    const payKey = randomUUID();
    await press(booking, payKey, 1);
    const attempt = (await stores.paymentAttempts.get(payKey))!;
    const summary = await backEndQuote(services, attempt, quoteFor(true));
    expect(summary).toMatchObject({
      total: 27_500,
      dueNow: 27_500,
      lines: [{ name: "Signature Laser Facial - New Client", price: 27_500, discount: 0 }],
    });
    const booked = await press(booking, payKey, summary!.dueNow);
    expectConsistent(booked, booking.guestId, true);
    expect(booked.kind).toBe("booked");
    // What the confirmation shows is kept from the charge, as the back end's invoice now has it.
    if (booked.kind !== "booked") return;
    const invoice = await services.spa.getInvoice(booked.attempt.invoiceId!);
    expect(booked.attempt.bookedInvoice).toEqual({
      paid: invoice.paid,
      due: invoice.balance,
      reference: invoice.reference,
    });
    expect(booked.attempt.bookedInvoice).toMatchObject({
      paid: 27_500,
      due: 0,
      reference: expect.stringMatching(/^DAL\d+$/),
    });
  });
});

describe("a treatment paid by a package session", () => {
  const PEEL = seedGuid("service:PEEL-GLOW");
  const NECK = seedGuid("service:PEEL-ADD-NECK");
  const PEEL_SERIES = seedGuid("package:PKG-PEEL-4");

  /** A guest at the prepaid clinic who bought the peel series, then saved the card this booking is charged to. */
  async function packageOwner(card: string) {
    const email = `pkg.${randomUUID().slice(0, 8)}@example.com`;
    const guest = await direct.createGuest({
      centerId: DALLAS,
      firstName: "Ana",
      lastName: "Lopez",
      email,
      phone: "5125550199",
      consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: [],
    });
    const saveCard = async (number: string) => {
      const uri = await direct.startCardCapture(guest.id, DALLAS, RETURN_TO);
      await fetch(uri, {
        method: "POST",
        body: new URLSearchParams({ name: "Ana Lopez", number, expiry: "12/30", cvc: "123" }),
        redirect: "manual",
      });
      return (await direct.listCards(guest.id, DALLAS)).at(-1)!.accountId;
    };
    const { invoiceId } = await direct.sellPackage(DALLAS, guest.id, PEEL_SERIES);
    await direct.payInvoice(invoiceId, DALLAS, await saveCard(GOOD_CARD), RETURN_TO);
    expect(await direct.closeInvoice(invoiceId)).toBe("closed");
    const [owned] = await direct.guestPackages(guest.id, { centerId: DALLAS });
    return { guest, email, userPackageId: owned.userPackageId, accountId: await saveCard(card) };
  }

  it("a failed payment removes the line the session paid as the package's, and gives the session back", async () => {
    const { guest, email, userPackageId, accountId } = await packageOwner(CHARGE_DECLINED_TEST_CARD);
    const date = nextDay();
    const bookingId = await direct.createBooking({
      centerId: DALLAS,
      date,
      guestId: guest.id,
      serviceId: PEEL,
      therapistId: null,
      addOnIds: [NECK],
    });
    const { times } = await direct.listSlots(bookingId, date);
    const hold = (await direct.reserveSlot(bookingId, times[0], centers.get(DALLAS)!.timeZone))!;
    const draft: Draft = {
      centerId: DALLAS,
      serviceId: PEEL,
      addOnIds: [NECK],
      therapistId: null,
      date,
      guestId: guest.id,
      pkg: 1,
      details: { firstName: "Ana", lastName: "Lopez", email, phone: "5125550199" },
      hold: {
        bookingId,
        slot: times[0],
        reservationId: hold.reservationId,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
    };
    const menu = (await direct.listServices(DALLAS))!;
    const price = (id: string) => menu.find((s) => s.id === id)!.price;
    const quote: Quote = {
      lines: [
        { name: "Glow Peel", price: price(PEEL), discount: 0 },
        { name: "Peel Area - Neck", price: price(NECK), discount: 0 },
      ],
      subtotal: price(PEEL) + price(NECK),
      discount: 0,
      total: price(NECK),
      prepaid: true,
      dueNow: price(NECK),
      dueInClinic: 0,
      promo: null,
      member: null,
      package: { userPackageId, name: "Glow Peel Series: 4 sessions", covers: price(PEEL) },
    };
    const outcome = await checkout(
      services,
      { payKey: randomUUID(), draft, center: centers.get(DALLAS)!, quote, accountId, returnTo: RETURN_TO },
      { clock: () => clock, timing: TIMING, busyWaitMs: 0 },
    );

    expect(outcome.kind).toBe("declined");
    const lines = sandbox.db
      .prepare(
        "SELECT i.service_id, i.removed, i.comments FROM invoice_items i JOIN appointments a ON a.invoice_item_id = i.id WHERE a.guest_id = ? ORDER BY i.position",
      )
      .all(guest.id) as { service_id: string; removed: number; comments: string }[];
    expect(lines).toEqual([
      { service_id: PEEL, removed: 1, comments: PACKAGE_PAYMENT_FAILED_COMMENT },
      { service_id: NECK, removed: 1, comments: PAYMENT_FAILED_COMMENT },
    ]);
    const [owned] = await direct.guestPackages(guest.id, { centerId: DALLAS });
    expect(owned.services[0]).toMatchObject({ redeemed: 0, left: 4 });
    // The package's own sale was paid; the visit's invoice was not charged.
    expect(ledger(guest.id).charges).toBe(1);
    const visitCharges = sandbox.db
      .prepare(
        "SELECT COUNT(*) AS n FROM transactions t JOIN appointments a ON a.invoice_id = t.invoice_id WHERE a.guest_id = ?",
      )
      .get(guest.id) as { n: number };
    expect(visitCharges.n).toBe(0);
  });
});
