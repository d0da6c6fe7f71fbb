import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANCELLATION_POLICY } from "~/domain/booking";
import { PAGE_OUT_OF_DATE } from "~/domain/booking-forms";
import { PAYMENT_MESSAGES } from "~/domain/payment";
import { PROMO_MESSAGES } from "~/domain/discounts";
import {
  createTestGuest,
  saveTestCard,
  startSandbox,
  TEST_API_KEY,
  type TestSandbox,
} from "../../tests/helpers/sandbox-server";
import { seededServices } from "../../tests/helpers/seeded-services";
import { createMemoryRateLimiter } from "../accounts/rate-limit.server";
import type { Services } from "../services";
import { createOutboxNotifier } from "../notify/notifier.server";
import { seedGuid } from "../spa-sandbox/db";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import type { Draft } from "./draft.server";
import {
  PACKAGE_GONE,
  paymentStepAction,
  paymentStepPage,
  type PaymentActionRequest,
  type PaymentForm,
} from "./payment-page.server";

/**
 * The payment step's two use cases against the sandbox and the SQLite stores: what the page shows
 * and the draft it keeps, and each press's typed outcome (a refusal with its status, a page to go
 * to, or an exit with the draft to keep).
 */

const AUSTIN = seedGuid("center:ATX"); // holds the card; nothing is due now
const FACIAL = seedGuid("service:FT-NEW");
const RETURN_TO = "http://shop.example/appointment/payment";
const NOBODY = { user: null, attribution: {} };
const BILLING = { address: "1 Main St", city: "Austin", state: "TX", zip: "78701" };

let sandbox: TestSandbox;
let spa: SpaClient;
let stores: Stores;
let services: Services;
let dayIndex = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.parse("2026-11-30T15:00:00Z"), holdSeconds: 3600 });
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  stores = createSqliteStores(":memory:");
  services = await seededServices(spa, stores, {
    notifier: createOutboxNotifier(":memory:"),
    rateLimiter: createMemoryRateLimiter(),
    // The sandbox stands for the back end's own payment origin.
    hostedPaymentOrigins: [new URL(sandbox.baseUrl).origin],
    embeddedHostedPath: null,
  });
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});

/** A new guest holding a time at Austin, with a card saved or not, as the payment step has them. */
async function heldDraft({ card = true } = {}): Promise<Draft> {
  const guestId = await createTestGuest(spa, AUSTIN, "Ana", "Lopez");
  if (card) await saveTestCard(spa, guestId, AUSTIN);
  // Each test its own day, past the days the clinic is closed.
  let date: string, bookingId: string, times: string[];
  do {
    dayIndex += 1;
    date = `2026-12-${String(dayIndex + 1).padStart(2, "0")}`;
    bookingId = await spa.createBooking({
      centerId: AUSTIN,
      date,
      guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [],
    });
    ({ times } = await spa.listSlots(bookingId, date));
  } while (times.length === 0);
  const hold = (await spa.reserveSlot(bookingId, times[0], "America/Chicago"))!;
  return {
    id: randomUUID(),
    centerId: AUSTIN,
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
}

/** The draft as the payment step keeps it after its first showing (a pay key). */
async function shownDraft(draft: Draft): Promise<Draft> {
  const shown = await paymentStepPage(services, draft, NOBODY);
  if (shown.kind !== "page" || !shown.draft) throw new Error("the payment step was not shown");
  return shown.draft;
}

const press = (
  draft: Draft,
  form: Partial<PaymentForm> & Pick<PaymentForm, "intent">,
): Promise<Awaited<ReturnType<typeof paymentStepAction>>> => {
  const request: PaymentActionRequest = {
    ...NOBODY,
    draft,
    form: form as PaymentForm,
    clientIp: "203.0.113.9",
    returnTo: RETURN_TO,
  };
  return paymentStepAction(services, request);
};

describe("the payment step's page", () => {
  it("is shown with the guest's cards and a new pay key to keep; shown again, it keeps nothing new", async () => {
    const draft = await heldDraft();
    const first = await paymentStepPage(services, draft, NOBODY);
    expect(first.kind).toBe("page");
    if (first.kind !== "page") return;
    expect(first.page).toMatchObject({
      clinic: expect.any(String),
      cardError: null,
      cardFailed: false,
      notice: null,
      repriced: null,
      // Not back from the card page: the page opens at its top.
      arrival: null,
      policy: CANCELLATION_POLICY,
    });
    expect(first.page.clinicPhone).toMatch(/^\d{10}$/);
    expect(first.page.cards).toHaveLength(1);
    expect(first.page.cards[0].label).toMatch(/ending 4242$/);
    expect(first.draft?.payKey).toBe(first.page.payKey);

    const again = await paymentStepPage(services, first.draft!, NOBODY);
    expect(again).toMatchObject({ kind: "page", draft: null, page: { payKey: first.page.payKey } });
  });

  it("says a card was not added when the guest comes back from the card page with the same cards", async () => {
    const draft = await shownDraft(await heldDraft());
    const added = await press(draft, { intent: "add-card", ...BILLING });
    expect(added.kind).toBe("card-page");
    if (added.kind !== "card-page") return;
    expect(added.draft).toMatchObject({ billing: BILLING, cardsBefore: { count: 1 } });
    const back = await paymentStepPage(services, added.draft, NOBODY);
    expect(back).toMatchObject({
      kind: "page",
      // No card added: the guest is put on the card's message, not on the address typed before.
      page: { cardFailed: true, arrival: "card" },
      draft: { cardsBefore: undefined },
    });
  });
});

describe("a press on the payment step", () => {
  it("refuses a promo code the chain does not have next to its field, keeping nothing", async () => {
    const draft = await shownDraft(await heldDraft());
    expect(await press(draft, { intent: "apply-promo", promo: "NOSUCHCODE" })).toEqual({
      kind: "refused",
      status: 400,
      fieldErrors: { promo: [PROMO_MESSAGES.unknown] },
    });
  });

  it("removes a code and keeps the billing address typed, showing the step again", async () => {
    const draft = await shownDraft({ ...(await heldDraft()), promoCode: "GLOW50" });
    expect(await press(draft, { intent: "remove-promo", ...BILLING })).toEqual({
      kind: "again",
      draft: { ...draft, promoCode: undefined, billing: BILLING },
    });
  });

  it("refuses a package session the guest does not have with 409", async () => {
    const draft = await shownDraft(await heldDraft());
    expect(await press(draft, { intent: "use-package" })).toEqual({
      kind: "refused",
      status: 409,
      formErrors: [PACKAGE_GONE],
    });
  });

  it("refuses a confirm from a page out of date with 409", async () => {
    const draft = await shownDraft(await heldDraft());
    expect(await press(draft, { intent: "confirm", payKey: randomUUID(), policy: "agreed", ...BILLING })).toEqual({
      kind: "refused",
      status: 409,
      formErrors: [PAGE_OUT_OF_DATE],
    });
  });

  it("refuses a confirm with no card to charge, keeping the address typed", async () => {
    const draft = await shownDraft(await heldDraft({ card: false }));
    const outcome = await press(draft, { intent: "confirm", payKey: draft.payKey, policy: "agreed", ...BILLING });
    expect(outcome).toMatchObject({
      kind: "refused",
      status: 400,
      formErrors: [PAYMENT_MESSAGES.card],
      draft: { billing: BILLING },
    });
  });

  it("books with the saved card: the appointment to confirm, and the draft left behind", async () => {
    const draft = await shownDraft(await heldDraft());
    const outcome = await press(draft, { intent: "confirm", payKey: draft.payKey, policy: "agreed", ...BILLING });
    expect(outcome).toMatchObject({
      kind: "booked",
      appointmentId: expect.any(String),
      confirmed: { guestId: draft.guestId, centerId: AUSTIN },
    });
    // Pressed again (a double tap): the same booking, not a second one.
    const again = await press(draft, { intent: "confirm", payKey: draft.payKey, policy: "agreed", ...BILLING });
    expect(again).toMatchObject({
      kind: "booked",
      appointmentId: outcome.kind === "booked" ? outcome.appointmentId : "",
    });
  });
});
