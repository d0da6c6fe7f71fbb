import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Center } from "~/domain/catalog";
import { clinicToday } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { createRecordingAnalytics } from "../../tests/helpers/recording-analytics";
import { createTestGuest, startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { reconcilePurchases } from "./reconcile.server";
import type { Services } from "../services";
import { parseEnv } from "../env.server";
import { normalizeId, seedGuid } from "../spa-sandbox/db";
import { CHARGE_DECLINED_TEST_CARD, DECLINED_TEST_CARD, THREE_DS_TEST_CARD } from "../spa-sandbox/payments";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { SpaError } from "../spa/errors.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Purchase, Stores } from "../store/stores.server";
import { guestMembershipList } from "../guests/member-prices.server";
import { redeemablePackages } from "../guests/packages.server";
import { giftCardOffer } from "./gift-cards.server";
import { findItemOffer } from "./offers.server";
import {
  cardReturned,
  PRICE_CHANGED_COMMENT,
  PURCHASE_OUTCOME_MESSAGES,
  purchaseLeaseMs,
  purchaseStatus,
  purchaseView,
  retryPurchase,
  startPurchase,
  verificationReturned,
  type Offer,
  type StepOutcome,
} from "./purchase.server";

/**
 * One online purchase from the Buy button to the closed sale, against the sandbox's sale invoices,
 * hosted card page and bank check, with the purchases in SQLite: never two sales for one form,
 * never two charges, never a charge without the sale being finished, and the guest always told
 * where the purchase stands.
 */

const AUSTIN = seedGuid("center:ATX");
const MONTHLY = seedGuid("membership:GLOW-MONTHLY");
const GLOW_PLUS = seedGuid("membership:GLOW-PLUS");
const FACIAL_SERIES = seedGuid("package:PKG-FACIAL-3");
const GC_ANY = seedGuid("giftcard-template:GC-ANY");
const BIRTHDAY = seedGuid("giftcard-occasion:Birthday");
const GOOD_CARD = "4242424242424242";
const TIMEOUT_MS = 500;

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let spa: SpaClient;
let stores: Stores;
let services: Services;
/** The app's own origin as the guest uses it: the embedded sandbox's hosted pages are served there. */
let origin: string;
let austin: Center;
let clock = Date.now();
const at = () => clock;
const analytics = createRecordingAnalytics();

beforeAll(async () => {
  sandbox = await startSandbox({ hostedPagesOnCallerOrigin: true });
  origin = new URL(sandbox.baseUrl).origin;
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  stores = createSqliteStores(":memory:");
  services = {
    env: parseEnv({ NODE_ENV: "test", SPA_TIMEOUT_MS: String(TIMEOUT_MS) }),
    spa,
    stores,
    analytics,
    hostedPaymentOrigins: [],
    embeddedHostedPath: `${new URL(sandbox.baseUrl).pathname}/hosted/`,
  } as unknown as Services;
  austin = (await spa.listCenters()).centers.find((c) => normalizeId(c.id) === normalizeId(AUSTIN))!;
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});
beforeEach(() => {
  analytics.events.length = 0;
  clock += 60_000;
});

/* ---------- the guest's side ---------- */

/** A signed-in user and their guest record at the clinic. */
async function newBuyer() {
  return { userId: randomUUID(), guestId: await createTestGuest(spa, AUSTIN, "Pat", "Buyer") };
}
type Buyer = Awaited<ReturnType<typeof newBuyer>>;

async function itemOffer(kind: "membership" | "package", itemId: string): Promise<Offer> {
  const offer = await findItemOffer(services, kind, austin, itemId);
  if (!offer) throw new Error(`the sandbox does not sell ${itemId}`);
  return offer;
}

/** "Buy" pressed on a page with a fresh form key. */
async function start(offer: Offer, options: { buyer?: Buyer; via?: Services } = {}) {
  const buyer = options.buyer ?? (await newBuyer());
  const formKey = randomUUID();
  const outcome = await startPurchase(options.via ?? services, {
    userId: buyer.userId,
    guestId: buyer.guestId,
    formKey,
    offer,
    origin,
    clock: at,
  });
  const [purchase] = await stores.purchases.listForUser(buyer.userId, 1);
  return { buyer, formKey, outcome, purchase };
}

function pageOf(outcome: StepOutcome | null): string {
  expect(outcome?.kind, JSON.stringify(outcome)).toBe("redirect");
  return (outcome as { uri: string }).uri;
}

/** The hosted card page filled in and sent, as the guest's browser does: where it sends them back. */
async function fillCardPage(uri: string, number: string): Promise<URL> {
  const answer = await fetch(uri, {
    method: "POST",
    body: new URLSearchParams({ name: "Pat Buyer", number, expiry: "12/30", cvc: "123" }),
    redirect: "manual",
  });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get("location")!);
}

/** The bank's 3-D Secure page answered: where it sends the guest back. */
async function answerBank(uri: string, result: "approve" | "refuse"): Promise<URL> {
  const answer = await fetch(uri, { method: "POST", body: new URLSearchParams({ result }), redirect: "manual" });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get("location")!);
}

/** Back on our card-return address with the status the card page put on it. */
function backFromCardPage(id: string, back: URL, via = services) {
  expect(`${back.origin}${back.pathname}`).toBe(`${origin}/purchases/${id}/card`);
  return cardReturned(via, id, back.searchParams.get("status"), origin, at);
}

/** Bought with one card from the Buy button to the return from the card page. */
async function buyWith(offer: Offer, number: string, options: { via?: Services } = {}) {
  const started = await start(offer);
  const back = await fillCardPage(pageOf(started.outcome), number);
  const returned = await backFromCardPage(started.purchase.id, back, options.via);
  return { ...started, returned };
}

const stored = async (id: string): Promise<Purchase> => (await stores.purchases.get(id))!;

/* ---------- the back end's side ---------- */

function salesOf(guestId: string) {
  return sandbox.db
    .prepare(
      "SELECT i.id, i.is_closed FROM invoices i JOIN guests g ON g.id = i.guest_id WHERE g.id_key = ? ORDER BY i.number",
    )
    .all(normalizeId(guestId)) as { id: string; is_closed: number }[];
}

/** Charges on an invoice: how many, and their sum in Zenoti's dollars. */
function chargesOn(invoiceId: string) {
  return sandbox.db
    .prepare(
      "SELECT COUNT(*) AS n, COALESCE(SUM(t.amount), 0) AS total FROM transactions t JOIN invoices i ON i.id = t.invoice_id WHERE i.id_key = ?",
    )
    .get(normalizeId(invoiceId)) as { n: number; total: number };
}

function cardPagesOpenedFor(guestId: string): number {
  return (
    sandbox.db
      .prepare("SELECT COUNT(*) AS n FROM card_sessions s JOIN guests g ON g.id = s.guest_id WHERE g.id_key = ?")
      .get(normalizeId(guestId)) as { n: number }
  ).n;
}

async function membershipsOf(guestId: string, planId: string) {
  return (await spa.guestMemberships(guestId)).filter((m) => normalizeId(m.membershipId) === normalizeId(planId));
}

async function giftCardEmailsTo(email: string) {
  const answer = await fetch(`${sandbox.baseUrl}/v1/sandbox/giftcard_emails?email=${encodeURIComponent(email)}`, {
    headers: { authorization: `apikey ${TEST_API_KEY}` },
  });
  return (
    (await answer.json()) as {
      emails: {
        to: { name: string; email: string };
        card_number: string;
        value: number;
        occasion: string;
        message: string;
      }[];
    }
  ).emails;
}

/* ---------- faults ---------- */

/** What the client throws when the back end's answer does not come back in time. */
const lostAnswer = (path: string) =>
  new SpaError({ kind: "timeout", status: 504, message: "The back end did not answer in time", path });

/** The services with some back-end calls replaced (the rest as they are). */
const withSpa = (overrides: Partial<SpaClient>): Services => ({ ...services, spa: { ...spa, ...overrides } });

/** The services with every back-end call counted by name. */
function counted(): { via: Services; calls: string[] } {
  const calls: string[] = [];
  const wrapped = Object.fromEntries(
    Object.entries(spa).map(([name, call]) => [
      name,
      (...args: unknown[]) => (calls.push(name), (call as (...a: unknown[]) => unknown)(...args)),
    ]),
  ) as SpaClient;
  return { via: { ...services, spa: wrapped }, calls };
}

const eventNames = () => analytics.events.map((e) => e.name);

/* ---------- the cases ---------- */

describe("starting a purchase", () => {
  it("asks the back end for one sale invoice and sends the guest to its hosted card page; the same form pressed again gets the same purchase", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, formKey, outcome, purchase } = await start(offer);
    const page = new URL(pageOf(outcome));
    expect(page.origin).toBe(origin);
    expect(page.pathname).toMatch(/^\/api\/hosted\/card\/[\w-]+$/);
    const sales = salesOf(buyer.guestId);
    expect(sales).toHaveLength(1);
    expect(purchase).toMatchObject({
      state: "invoiced",
      kind: "membership",
      itemId: offer.itemId,
      shownCents: offer.priceCents,
      closed: false,
      paidCents: null,
      declineMessage: null,
    });
    expect(normalizeId(purchase.invoiceId!)).toBe(normalizeId(sales[0].id));
    expect(purchase.reference).toMatch(/^[A-Z]+\d+$/);
    expect(purchase.knownCards).toMatchObject({ count: 0 });
    // Nobody holds the purchase while the guest is on the card page.
    expect(purchase.leaseUntil).toBe(0);
    expect(purchaseView(purchase)).toMatchObject({
      state: "card",
      message: null,
      price: formatMoney(offer.priceCents),
      paid: null,
    });

    const again = await startPurchase(services, {
      userId: buyer.userId,
      guestId: buyer.guestId,
      formKey,
      offer,
      origin,
      clock: at,
    });
    expect(again).toEqual({ kind: "status", purchase });
    expect(salesOf(buyer.guestId)).toHaveLength(1);
    expect(await stores.purchases.listForUser(buyer.userId, 10)).toHaveLength(1);
    expect(eventNames()).toEqual(["purchase_started"]);
    expect(analytics.events[0].properties).toEqual({
      kind: "membership",
      centerId: austin.id,
      amountCents: offer.priceCents,
    });
  });

  it("tells the guest the sale could not start when the back end refuses it, and sells on the next try", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const refusing = withSpa({
      sellMembership: () =>
        Promise.reject(
          new SpaError({
            kind: "rejected",
            status: 200,
            code: 400,
            message: "Invalid membership_ids",
            path: "/v1/invoices/memberships",
          }),
        ),
    });
    const { buyer, outcome, purchase } = await start(offer, { via: refusing });
    expect(outcome).toMatchObject({
      kind: "status",
      purchase: {
        id: purchase.id,
        state: "started",
        invoiceId: null,
        declineMessage: PURCHASE_OUTCOME_MESSAGES.notStarted,
      },
    });
    expect(purchaseView(purchase)).toMatchObject({
      state: "not-started",
      message: PURCHASE_OUTCOME_MESSAGES.notStarted,
    });
    expect(salesOf(buyer.guestId)).toHaveLength(0);
    expect(pageOf(await retryPurchase(services, purchase.id, origin, at))).toContain("/api/hosted/card/");
    expect(salesOf(buyer.guestId)).toHaveLength(1);
    expect(await stored(purchase.id)).toMatchObject({ state: "invoiced", declineMessage: null });
  });
});

describe("what the booking steps keep of a buyer's memberships and packages", () => {
  it("is read again once a membership is bought", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, outcome, purchase } = await start(offer);
    expect(await guestMembershipList(services, buyer.guestId)).toEqual([]);
    await fillCardPage(pageOf(outcome), GOOD_CARD);
    await cardReturned(services, purchase.id, "successful", origin, at);
    const kept = await guestMembershipList(services, buyer.guestId);
    expect(kept.map((m) => normalizeId(m.membershipId))).toEqual([normalizeId(MONTHLY)]);
  });

  it("is read again at that clinic once a package is bought there", async () => {
    const offer = await itemOffer("package", FACIAL_SERIES);
    const buyer = await newBuyer();
    expect(await redeemablePackages(services, buyer.guestId, AUSTIN)).toEqual([]);
    const { purchase, outcome } = await start(offer, { buyer });
    await fillCardPage(pageOf(outcome), GOOD_CARD);
    await cardReturned(services, purchase.id, "successful", origin, at);
    const kept = await redeemablePackages(services, buyer.guestId, AUSTIN);
    expect(kept.map((p) => normalizeId(p.packageId))).toEqual([normalizeId(FACIAL_SERIES)]);
  });
});

describe("paying with a card saved on the hosted card page", () => {
  it("charges that card once, closes the sale and gives the guest the membership; coming back again charges nothing more", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, outcome, purchase } = await start(offer);
    const back = await fillCardPage(pageOf(outcome), GOOD_CARD);
    expect(back.toString()).toBe(`${origin}/purchases/${purchase.id}/card?status=successful`);

    const returned = await cardReturned(services, purchase.id, "successful", origin, at);
    expect(returned).toMatchObject({
      kind: "status",
      purchase: {
        id: purchase.id,
        state: "completed",
        paidCents: offer.priceCents,
        closed: true,
        declineMessage: null,
      },
    });
    expect(salesOf(buyer.guestId)).toEqual([{ id: expect.any(String), is_closed: 1 }]);
    expect(chargesOn(purchase.invoiceId!)).toEqual({ n: 1, total: offer.priceCents / 100 });
    const [card] = await spa.listCards(buyer.guestId, AUSTIN);
    expect((await stored(purchase.id)).accountId).toBe(card.accountId);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);

    // A reload of the return address, and the purchase's page, find it done.
    expect(await cardReturned(services, purchase.id, "successful", origin, at)).toMatchObject({
      kind: "status",
      purchase: { state: "completed" },
    });
    expect((await purchaseStatus(services, purchase.id, origin, at))?.state).toBe("completed");
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
    expect(purchaseView(await stored(purchase.id))).toMatchObject({
      state: "completed",
      paid: formatMoney(offer.priceCents),
      reference: purchase.reference,
      message: null,
    });

    expect(eventNames()).toEqual(["purchase_started", "purchase_completed"]);
    expect(analytics.events[1].properties).toEqual({
      kind: "membership",
      centerId: austin.id,
      amountCents: offer.priceCents,
    });
  });

  it("sells a package the same way: the guest has its sessions once the sale is closed", async () => {
    const offer = await itemOffer("package", FACIAL_SERIES);
    const { buyer, returned, purchase } = await buyWith(offer, GOOD_CARD);
    expect(returned).toMatchObject({
      kind: "status",
      purchase: { state: "completed", paidCents: offer.priceCents, closed: true },
    });
    const packages = await spa.guestPackages(buyer.guestId);
    expect(packages.map((p) => normalizeId(p.packageId))).toEqual([normalizeId(FACIAL_SERIES)]);
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
  });

  it("a card refused on the card page charges nothing; another card on the same sale then completes it", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, outcome, purchase } = await start(offer);
    const firstPage = pageOf(outcome);
    const back = await fillCardPage(firstPage, DECLINED_TEST_CARD);
    expect(back.searchParams.get("status")).toBe("declined");

    const refused = await backFromCardPage(purchase.id, back);
    expect(refused).toMatchObject({
      kind: "status",
      purchase: { state: "declined", declineMessage: PURCHASE_OUTCOME_MESSAGES.declined },
    });
    expect(purchaseView(await stored(purchase.id))).toMatchObject({
      state: "declined",
      message: PURCHASE_OUTCOME_MESSAGES.declined,
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);
    expect(analytics.events.at(-1)).toMatchObject({
      name: "purchase_failed",
      properties: { kind: "membership", centerId: austin.id, reason: "declined" },
    });

    // "Try another card": a new card page, on the same sale.
    const secondPage = pageOf(await retryPurchase(services, purchase.id, origin, at));
    expect(secondPage).not.toBe(firstPage);
    expect(new URL(secondPage).pathname).toMatch(/^\/api\/hosted\/card\//);
    expect(await stored(purchase.id)).toMatchObject({
      state: "invoiced",
      invoiceId: purchase.invoiceId,
      declineMessage: null,
    });
    expect(salesOf(buyer.guestId)).toHaveLength(1);

    const completed = await backFromCardPage(purchase.id, await fillCardPage(secondPage, GOOD_CARD));
    expect(completed).toMatchObject({
      kind: "status",
      purchase: { state: "completed", invoiceId: purchase.invoiceId, paidCents: offer.priceCents },
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(salesOf(buyer.guestId)).toEqual([{ id: expect.any(String), is_closed: 1 }]);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
    expect(eventNames()).toEqual(["purchase_started", "purchase_failed", "purchase_completed"]);
  });

  it("a card saved but whose charge is declined leaves the sale unpaid and open, and gives no membership", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, returned, purchase } = await buyWith(offer, CHARGE_DECLINED_TEST_CARD);
    expect(returned).toMatchObject({
      kind: "status",
      purchase: {
        state: "declined",
        declineMessage: PURCHASE_OUTCOME_MESSAGES.declined,
        paidCents: null,
        closed: false,
      },
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);
    const invoice = await spa.getInvoice(purchase.invoiceId!);
    expect(invoice).toMatchObject({ closed: false, paid: 0, balance: offer.priceCents });
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toEqual([]);
    expect(eventNames()).toEqual(["purchase_started", "purchase_failed"]);
  });

  it("a return from the card page with no new card charges nothing and says no card came back", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { outcome, purchase } = await start(offer);
    pageOf(outcome);
    const { via, calls } = counted();
    expect(await cardReturned(via, purchase.id, "successful", origin, at)).toMatchObject({
      kind: "status",
      purchase: { state: "declined", declineMessage: PURCHASE_OUTCOME_MESSAGES.noCard },
    });
    expect(calls).not.toContain("payInvoice");
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);
  });

  it("after a refused charge, coming back from the next card page without a new card charges nothing", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { outcome, purchase } = await start(offer);
    const firstBack = await fillCardPage(pageOf(outcome), CHARGE_DECLINED_TEST_CARD);
    expect(await backFromCardPage(purchase.id, firstBack)).toMatchObject({ purchase: { state: "declined" } });
    pageOf(await retryPurchase(services, purchase.id, origin, at));
    // The card saved the first time is among the cards known before this page, not "added" on it.
    expect((await stored(purchase.id)).knownCards).toMatchObject({ count: 1 });
    // The guest adds no card: their browser's back button takes them to the first page's return address.
    const { via, calls } = counted();
    const again = await cardReturned(via, purchase.id, firstBack.searchParams.get("status"), origin, at);
    expect(calls).not.toContain("payInvoice");
    expect(again).toMatchObject({
      kind: "status",
      purchase: { state: "declined", declineMessage: PURCHASE_OUTCOME_MESSAGES.noCard },
    });
  });
});

describe("the same card saved again", () => {
  it("is listed once, and the purchase that saved it again is charged to it once", async () => {
    const buyer = await newBuyer();
    const first = await start(await itemOffer("membership", MONTHLY), { buyer });
    await backFromCardPage(first.purchase.id, await fillCardPage(pageOf(first.outcome), GOOD_CARD));
    clock += 1_000;
    const second = await start(await itemOffer("package", FACIAL_SERIES), { buyer });
    const returned = await backFromCardPage(second.purchase.id, await fillCardPage(pageOf(second.outcome), GOOD_CARD));
    expect(returned).toMatchObject({ purchase: { state: "completed" } });

    // The back end holds two accounts for the one card; the guest has one card.
    const accounts = sandbox.db
      .prepare(
        "SELECT c.account_id FROM cards c JOIN guests g ON g.id = c.guest_id WHERE g.id_key = ? ORDER BY c.created_at",
      )
      .all(normalizeId(buyer.guestId)) as { account_id: string }[];
    expect(accounts).toHaveLength(2);
    const cards = await spa.listCards(buyer.guestId, AUSTIN);
    expect(cards).toEqual([expect.objectContaining({ lastFour: GOOD_CARD.slice(-4) })]);
    expect(normalizeId(cards[0].accountId)).toBe(normalizeId(accounts[1].account_id));
    expect((await stored(second.purchase.id)).accountId).toBe(cards[0].accountId);
    expect(chargesOn(second.purchase.invoiceId!).n).toBe(1);
  });
});

describe("a card that asks for 3-D Secure", () => {
  it("sends the guest to their bank's page; approved there, the purchase is completed with one charge", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, returned, purchase } = await buyWith(offer, THREE_DS_TEST_CARD);
    const bankPage = new URL(pageOf(returned));
    expect(bankPage.origin).toBe(origin);
    expect(bankPage.pathname).toMatch(/^\/api\/hosted\/verify\/[\w-]+$/);
    const verifying = await stored(purchase.id);
    expect(verifying).toMatchObject({ state: "verifying", verifyUri: bankPage.toString(), leaseUntil: 0 });
    expect(purchaseView(verifying)).toMatchObject({
      state: "checking",
      message: PURCHASE_OUTCOME_MESSAGES.atBank,
      atBank: true,
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);

    const back = await answerBank(bankPage.toString(), "approve");
    expect(`${back.origin}${back.pathname}`).toBe(`${origin}/purchases/${purchase.id}/verified`);
    const done = await verificationReturned(services, purchase.id, origin, at);
    expect(done).toMatchObject({
      kind: "status",
      purchase: { state: "completed", paidCents: offer.priceCents, closed: true, verifyUri: null },
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
    // Coming back again charges nothing more.
    expect(await verificationReturned(services, purchase.id, origin, at)).toMatchObject({
      purchase: { state: "completed" },
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(eventNames()).toEqual(["purchase_started", "purchase_completed"]);
  });

  it("refused at the bank, the purchase is declined with the bank's message and nothing is charged", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, returned, purchase } = await buyWith(offer, THREE_DS_TEST_CARD);
    await answerBank(pageOf(returned), "refuse");
    const refused = await verificationReturned(services, purchase.id, origin, at);
    expect(refused).toMatchObject({
      kind: "status",
      purchase: { state: "declined", declineMessage: PURCHASE_OUTCOME_MESSAGES.verifyFailed, verifyUri: null },
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);
    expect(salesOf(buyer.guestId)).toEqual([{ id: expect.any(String), is_closed: 0 }]);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toEqual([]);
    expect(eventNames()).toEqual(["purchase_started", "purchase_failed"]);
  });

  // A bank's approval whose redirect back never arrived (a closed tab): the purchase's page reads the invoice.
  it("a charge approved at the bank whose return never arrived is finished when the purchase's page is opened", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { buyer, returned, purchase } = await buyWith(offer, THREE_DS_TEST_CARD);
    await answerBank(pageOf(returned), "approve");
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    clock += 10 * 60_000;
    expect(await purchaseStatus(services, purchase.id, origin, at)).toMatchObject({ state: "completed", closed: true });
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
  });

  // "Try again" while the bank's page is still open sends the guest back to it; a late approval is still found.
  it('a charge approved at the bank after "Try again" was pressed is not left declined', async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { returned, purchase } = await buyWith(offer, THREE_DS_TEST_CARD);
    const bankPage = pageOf(returned);
    await retryPurchase(services, purchase.id, origin, at);
    await answerBank(bankPage, "approve");
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(await verificationReturned(services, purchase.id, origin, at)).toMatchObject({
      purchase: { state: "completed" },
    });
  });
});

describe("a charge whose answer is lost", () => {
  it("that reached the back end: the invoice says it was paid, and the purchase is completed with one charge", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const lostAfterCharging = withSpa({
      async payInvoice(...args) {
        await spa.payInvoice(...args);
        throw lostAnswer(`/v1/invoices/${args[0]}/online_payments`);
      },
    });
    const { buyer, returned, purchase } = await buyWith(offer, GOOD_CARD, { via: lostAfterCharging });
    expect(returned).toMatchObject({
      kind: "status",
      purchase: { state: "completed", paidCents: offer.priceCents, closed: true },
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
    expect(eventNames()).toEqual(["purchase_started", "purchase_completed"]);
  });

  it('that never landed: "checking" until a charge could no longer land (twice the back-end timeout), then not charged, never "declined"', async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const neverLanded = withSpa({
      payInvoice: (invoiceId) => Promise.reject(lostAnswer(`/v1/invoices/${invoiceId}/online_payments`)),
    });
    const sentAt = clock;
    const { returned, purchase } = await buyWith(offer, GOOD_CARD, { via: neverLanded });
    expect(returned).toMatchObject({
      kind: "status",
      purchase: { state: "charging", chargeSentAt: sentAt, leaseUntil: 0 },
    });
    expect(purchaseView(await stored(purchase.id))).toMatchObject({
      state: "checking",
      message: PURCHASE_OUTCOME_MESSAGES.checking,
    });

    // The page opened while the charge might still land: still checking, nothing sent again.
    const { via, calls } = counted();
    expect(await purchaseStatus(via, purchase.id, origin, () => sentAt + 2 * TIMEOUT_MS)).toMatchObject({
      state: "charging",
    });
    expect(calls).toEqual(["getInvoice"]);
    expect(await cardReturned(via, purchase.id, "successful", origin, () => sentAt + 2 * TIMEOUT_MS)).toMatchObject({
      purchase: { state: "charging" },
    });
    expect(calls).not.toContain("payInvoice");
    expect(eventNames()).toEqual(["purchase_started"]);

    clock = Math.max(clock, sentAt + 2 * TIMEOUT_MS + 1);
    expect(await purchaseStatus(services, purchase.id, origin, at)).toMatchObject({
      state: "not-charged",
      declineMessage: PURCHASE_OUTCOME_MESSAGES.notCharged,
      paidCents: null,
    });
    expect(purchaseView(await stored(purchase.id))).toMatchObject({
      state: "not-charged",
      message: PURCHASE_OUTCOME_MESSAGES.notCharged,
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);
    expect(eventNames()).toEqual(["purchase_started", "purchase_failed"]);
    expect(analytics.events[1].properties).toMatchObject({ reason: "not_charged" });
  });
});

/** What a process killed in the middle of a step leaves: no answer, no write after it. */
const killed = () => new Error("process killed");

/**
 * The back end's call `name` with the process killed just before it is sent ("before") or just
 * after the back end acted on it ("after"): whatever was written before it is all the record says.
 */
function dyingAt<K extends keyof SpaClient>(name: K, when: "before" | "after"): Services {
  const call = spa[name] as (...args: unknown[]) => Promise<unknown>;
  return withSpa({
    [name]: async (...args: unknown[]) => {
      if (when === "after") await call(...args);
      throw killed();
    },
  } as Partial<SpaClient>);
}

describe("a request that dies between two steps", () => {
  /** Bought with a good card up to the return from the card page, on services that die at one point. */
  async function dieWhilePaying(dying: Services, number = GOOD_CARD) {
    const buyer = await newBuyer();
    const { outcome, purchase } = await start(await itemOffer("membership", MONTHLY), { buyer });
    const back = await fillCardPage(pageOf(outcome), number);
    await expect(backFromCardPage(purchase.id, back, dying)).rejects.toThrow("process killed");
    return { buyer, purchase: await stored(purchase.id) };
  }
  /** Past the dead request's lease: the next request may take the purchase over. */
  const pastTheLease = () => {
    clock += purchaseLeaseMs(services) + 1;
  };

  it('after "charging" was written, before the charge was sent: checking, then "not charged" (never "declined"); "Try again" pays it once', async () => {
    const { buyer, purchase } = await dieWhilePaying(dyingAt("payInvoice", "before"));
    expect(purchase).toMatchObject({ state: "charging", paidCents: null });
    expect(purchase.chargeSentAt).not.toBeNull();
    expect(purchase.leaseUntil).toBeGreaterThan(clock);
    // Opened while the dead request still holds it: shown as it stands, the back end not asked.
    const { via, calls } = counted();
    expect(purchaseView((await purchaseStatus(via, purchase.id, origin, at))!)).toMatchObject({
      state: "checking",
      message: PURCHASE_OUTCOME_MESSAGES.checking,
    });
    expect(calls).toEqual([]);

    pastTheLease();
    const now = await purchaseStatus(services, purchase.id, origin, at);
    expect(now).toMatchObject({ state: "not-charged", paidCents: null });
    expect(purchaseView(now!)).toMatchObject({ state: "not-charged", message: PURCHASE_OUTCOME_MESSAGES.notCharged });
    expect(purchaseView(now!).message).not.toMatch(/declined/i);
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);

    // "Try again": the same sale, a card page, one charge.
    const again = await retryPurchase(services, purchase.id, origin, at);
    const back = await fillCardPage(pageOf(again), GOOD_CARD);
    expect(await backFromCardPage(purchase.id, back)).toMatchObject({ purchase: { state: "completed" } });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(salesOf(buyer.guestId)).toHaveLength(1);
  });

  it('after "charging" was written, before the charge was sent, and nobody comes back: the reconciler says "not charged"', async () => {
    const { purchase } = await dieWhilePaying(dyingAt("payInvoice", "before"));
    clock += 10 * 60_000;
    await reconcilePurchases(services, { clock: at, idleMs: 60_000 });
    expect(await stored(purchase.id)).toMatchObject({
      state: "not-charged",
      declineMessage: PURCHASE_OUTCOME_MESSAGES.notCharged,
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);
  });

  it('after the charge went through, before its answer was written: "checking" (not "not finished"), then completed from the invoice with one charge', async () => {
    const { buyer, purchase } = await dieWhilePaying(dyingAt("payInvoice", "after"));
    expect(purchase).toMatchObject({ state: "charging", paidCents: null });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(purchaseView(purchase).state).toBe("checking");

    pastTheLease();
    expect(await purchaseStatus(services, purchase.id, origin, at)).toMatchObject({
      state: "completed",
      paidCents: purchase.shownCents,
      closed: true,
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
  });

  it("after the charge went through, and nobody comes back: the reconciler finishes it", async () => {
    const { buyer, purchase } = await dieWhilePaying(dyingAt("payInvoice", "after"));
    clock += 10 * 60_000;
    await reconcilePurchases(services, { clock: at, idleMs: 60_000 });
    expect(await stored(purchase.id)).toMatchObject({ state: "completed", closed: true });
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
  });

  it('after "paid" was written, before the sale was closed: "Payment received", being finished; then completed', async () => {
    const { buyer, purchase } = await dieWhilePaying(dyingAt("closeInvoice", "before"));
    expect(purchase).toMatchObject({ state: "paid", closed: false, paidCents: purchase.shownCents });
    // The dead request's lease still holds it: the page shows it paid, being finished.
    expect(purchaseView((await purchaseStatus(services, purchase.id, origin, at))!)).toMatchObject({
      state: "paid",
      paid: formatMoney(purchase.shownCents),
      message: PURCHASE_OUTCOME_MESSAGES.finishing,
    });

    pastTheLease();
    expect(await purchaseStatus(services, purchase.id, origin, at)).toMatchObject({ state: "completed", closed: true });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
  });

  it('after the charge asked for the bank\'s check, before "verifying" was written: the guest never saw it, so "not charged"', async () => {
    const dying: Services = {
      ...services,
      stores: {
        ...stores,
        purchases: {
          ...stores.purchases,
          save: (purchase) =>
            purchase.state === "verifying" ? Promise.reject(killed()) : stores.purchases.save(purchase),
        },
      },
    };
    const { purchase } = await dieWhilePaying(dying, THREE_DS_TEST_CARD);
    expect(purchase).toMatchObject({ state: "charging", verifyUri: null });
    pastTheLease();
    expect(await purchaseStatus(services, purchase.id, origin, at)).toMatchObject({
      state: "not-charged",
      declineMessage: PURCHASE_OUTCOME_MESSAGES.notCharged,
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);
  });

  it('while the sale was asked for, or before the card page: "nothing was charged", and "Try again" goes on with one sale', async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const buyer = await newBuyer();
    const beforeTheSale = startPurchase(dyingAt("sellMembership", "before"), {
      userId: buyer.userId,
      guestId: buyer.guestId,
      formKey: randomUUID(),
      offer,
      origin,
      clock: at,
    });
    await expect(beforeTheSale).rejects.toThrow("process killed");
    const [unsold] = await stores.purchases.listForUser(buyer.userId, 1);
    expect(unsold).toMatchObject({ state: "started", invoiceId: null });
    expect(purchaseView(unsold)).toMatchObject({ state: "not-started", message: PURCHASE_OUTCOME_MESSAGES.notStarted });

    const other = await newBuyer();
    const beforeTheCardPage = startPurchase(dyingAt("startCardCapture", "before"), {
      userId: other.userId,
      guestId: other.guestId,
      formKey: randomUUID(),
      offer,
      origin,
      clock: at,
    });
    await expect(beforeTheCardPage).rejects.toThrow("process killed");
    const [sold] = await stores.purchases.listForUser(other.userId, 1);
    expect(sold).toMatchObject({ state: "started", priceChecked: true });
    expect(sold.invoiceId).not.toBeNull();
    expect(purchaseView(sold)).toMatchObject({ state: "card", message: null });

    pastTheLease();
    expect(pageOf(await retryPurchase(services, sold.id, origin, at))).toContain("/api/hosted/card/");
    expect(salesOf(other.guestId)).toHaveLength(1);
  });
});

describe("a price that changed", () => {
  it("stops the sale before the card page: its lines removed, nothing charged, the back end's price answered", async () => {
    const real = await itemOffer("package", FACIAL_SERIES);
    const offer = { ...real, priceCents: real.priceCents - 5_000 };
    const { buyer, formKey, outcome, purchase } = await start(offer);
    expect(outcome).toMatchObject({
      kind: "price-changed",
      priceCents: real.priceCents,
      purchase: { id: purchase.id, state: "cancelled", leaseUntil: 0 },
    });
    expect(purchase).toMatchObject({ state: "cancelled", shownCents: offer.priceCents, paidCents: null });
    expect(purchaseView(purchase).state).toBe("cancelled");

    const invoice = await spa.getInvoice(purchase.invoiceId!);
    expect(invoice).toMatchObject({ balance: 0, paid: 0, items: [] });
    const lines = sandbox.db
      .prepare(
        "SELECT i.removed, i.comments FROM invoice_items i JOIN invoices v ON v.id = i.invoice_id WHERE v.id_key = ?",
      )
      .all(normalizeId(purchase.invoiceId!));
    expect(lines).toEqual([{ removed: 1, comments: PRICE_CHANGED_COMMENT }]);
    expect(cardPagesOpenedFor(buyer.guestId)).toBe(0);
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);

    // The same form again, or "Try again", changes nothing: the purchase has ended.
    expect(
      await startPurchase(services, {
        userId: buyer.userId,
        guestId: buyer.guestId,
        formKey,
        offer,
        origin,
        clock: at,
      }),
    ).toMatchObject({ kind: "status", purchase: { state: "cancelled" } });
    expect(await retryPurchase(services, purchase.id, origin, at)).toMatchObject({
      kind: "status",
      purchase: { state: "cancelled" },
    });
    expect(salesOf(buyer.guestId)).toHaveLength(1);
    expect(cardPagesOpenedFor(buyer.guestId)).toBe(0);
  });

  // The sale's balance is compared with the shown price before any card page, even when the first reading was lost.
  it("a sale whose first reading was lost is priced again before the card page", async () => {
    const real = await itemOffer("package", FACIAL_SERIES);
    const offer = { ...real, priceCents: real.priceCents - 5_000 };
    let reads = 0;
    const firstReadLost = withSpa({
      async getInvoice(invoiceId) {
        const invoice = await spa.getInvoice(invoiceId);
        if (++reads === 1) throw lostAnswer(`/v1/invoices/${invoiceId}`);
        return invoice;
      },
    });
    const { outcome, purchase } = await start(offer, { via: firstReadLost });
    expect(outcome).toMatchObject({
      kind: "status",
      purchase: { state: "started", declineMessage: PURCHASE_OUTCOME_MESSAGES.notStarted },
    });
    expect(purchase.invoiceId).not.toBeNull();
    expect(await retryPurchase(firstReadLost, purchase.id, origin, at)).toMatchObject({
      kind: "price-changed",
      priceCents: real.priceCents,
    });
  });
});

describe("a gift card", () => {
  async function giftCard(amountCents: number) {
    const recipientEmail = `rosa.${randomUUID().slice(0, 8)}@example.com`;
    const checked = await giftCardOffer(services, austin, {
      clinic: austin.slug,
      templateId: GC_ANY,
      customAmount: amountCents,
      occasionId: BIRTHDAY,
      recipientName: "Rosa Diaz",
      recipientEmail,
      message: "Happy birthday!",
      deliveryDate: clinicToday(austin.timeZone),
      purchaseKey: randomUUID(),
    });
    if (checked.kind !== "offer") throw new Error(JSON.stringify(checked.fieldErrors));
    return { offer: checked.offer, recipientEmail };
  }

  it("of an amount the guest chose is paid, closed and emailed to its recipient once", async () => {
    const { offer, recipientEmail } = await giftCard(7_550);
    expect(offer).toMatchObject({
      kind: "gift-card",
      priceCents: 7_550,
      giftCard: { valueCents: 7_550, custom: true },
    });
    const { via, calls } = counted();
    const { buyer, returned, purchase } = await buyWith(offer, GOOD_CARD, { via });
    expect(returned).toMatchObject({
      kind: "status",
      purchase: { state: "completed", paidCents: 7_550, closed: true, giftCardSent: true },
    });
    expect(calls.filter((c) => c === "sendGiftCardEmail")).toHaveLength(1);
    expect(chargesOn(purchase.invoiceId!)).toEqual({ n: 1, total: 75.5 });

    const emails = await giftCardEmailsTo(recipientEmail);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      to: { name: "Rosa Diaz", email: recipientEmail },
      value: 75.5,
      occasion: "Birthday",
      message: "Happy birthday!",
    });
    const [card] = await spa.guestGiftCards(buyer.guestId);
    expect(card).toMatchObject({ number: emails[0].card_number, valueCents: 7_550, balanceCents: 7_550 });

    // The purchase's page opened later sends nothing more.
    clock += 3_600_000;
    expect(await purchaseStatus(via, purchase.id, origin, at)).toMatchObject({
      state: "completed",
      giftCardSent: true,
    });
    expect(calls.filter((c) => c === "sendGiftCardEmail")).toHaveLength(1);
    expect(await giftCardEmailsTo(recipientEmail)).toHaveLength(1);
    expect(purchaseView(await stored(purchase.id))).toMatchObject({
      state: "completed",
      giftCard: { recipientName: "Rosa Diaz", recipientEmail, deliveryDate: offer.giftCard!.deliveryDate },
    });
  });

  it("whose email could not be asked for is sent when the purchase's page is next opened, once", async () => {
    const { offer, recipientEmail } = await giftCard(2_500);
    const sendLost = withSpa({
      sendGiftCardEmail: (invoiceId) => Promise.reject(lostAnswer(`/v1/invoices/${invoiceId}/send_giftcard_email`)),
    });
    const { outcome, purchase } = await start(offer);
    const back = await fillCardPage(pageOf(outcome), GOOD_CARD);
    await backFromCardPage(purchase.id, back, sendLost).catch(() => null);
    expect(await stored(purchase.id)).toMatchObject({
      state: "paid",
      closed: true,
      giftCardSent: false,
      paidCents: 2_500,
    });
    expect(await giftCardEmailsTo(recipientEmail)).toEqual([]);
    expect(purchaseView(await stored(purchase.id)).state).toBe("paid");

    clock += purchaseLeaseMs(services) + 1;
    expect(await purchaseStatus(services, purchase.id, origin, at)).toMatchObject({
      state: "completed",
      giftCardSent: true,
    });
    expect(await giftCardEmailsTo(recipientEmail)).toHaveLength(1);
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(eventNames().filter((n) => n === "purchase_completed")).toHaveLength(1);
  });
});

describe("finishing a paid sale", () => {
  /** The back end closes the sale, and its answer is lost. */
  const closeAnswerLost = () =>
    withSpa({
      async closeInvoice(invoiceId) {
        await spa.closeInvoice(invoiceId);
        throw lostAnswer(`/v1/invoices/${invoiceId}/close`);
      },
    });

  // A lost answer while finishing hands the purchase back as "paid", to be finished when its page is opened.
  it("a lost answer while closing the paid sale answers the purchase's page", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const closeLost = closeAnswerLost();
    const { returned } = await buyWith(offer, GOOD_CARD, { via: closeLost });
    expect(returned).toMatchObject({ kind: "status", purchase: { state: "paid", leaseUntil: 0 } });
  });

  it("a sale closed while its answer was lost is finished when the purchase's page is opened: closed once, the membership once", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const buyer = await newBuyer();
    const closeLost = closeAnswerLost();
    const { outcome, purchase } = await start(offer, { buyer });
    const back = await fillCardPage(pageOf(outcome), GOOD_CARD);
    await backFromCardPage(purchase.id, back, closeLost).catch(() => null);
    expect(await stored(purchase.id)).toMatchObject({ state: "paid", closed: false, paidCents: offer.priceCents });
    expect(purchaseView(await stored(purchase.id)).state).toBe("paid");
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);

    clock += purchaseLeaseMs(services) + 1;
    expect(await purchaseStatus(services, purchase.id, origin, at)).toMatchObject({ state: "completed", closed: true });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
    expect(eventNames()).toEqual(["purchase_started", "purchase_completed"]);
  });

  it("a paid sale nobody came back to is finished by the reconciler once it has been idle a while", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const buyer = await newBuyer();
    const closeLost = closeAnswerLost();
    const { outcome, purchase } = await start(offer, { buyer });
    await backFromCardPage(purchase.id, await fillCardPage(pageOf(outcome), GOOD_CARD), closeLost);
    expect(await stored(purchase.id)).toMatchObject({ state: "paid", closed: false });

    // Not yet idle: left alone (other tests' purchases may be reconciled meanwhile).
    await reconcilePurchases(services, { clock: at, idleMs: 60_000 });
    expect(await stored(purchase.id)).toMatchObject({ state: "paid", closed: false });
    clock += 60_001;
    await reconcilePurchases(services, { clock: at, idleMs: 60_000 });
    expect(await stored(purchase.id)).toMatchObject({ state: "completed", closed: true });
    expect(await membershipsOf(buyer.guestId, MONTHLY)).toHaveLength(1);
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
  });
});

describe("one request at a time", () => {
  it("a purchase another request holds is shown as it stands, without calling the back end; once its lease ends the next request carries on", async () => {
    const offer = await itemOffer("membership", MONTHLY);
    const { outcome, purchase } = await start(offer);
    const back = await fillCardPage(pageOf(outcome), GOOD_CARD);
    const held = await stores.purchases.claim(purchase.id, clock + 10_000, clock);
    expect(held?.state).toBe("claimed");

    const { via, calls } = counted();
    expect(await cardReturned(via, purchase.id, back.searchParams.get("status"), origin, at)).toMatchObject({
      kind: "status",
      purchase: { id: purchase.id, state: "invoiced" },
    });
    expect(await retryPurchase(via, purchase.id, origin, at)).toMatchObject({
      kind: "status",
      purchase: { state: "invoiced" },
    });
    expect(await verificationReturned(via, purchase.id, origin, at)).toMatchObject({
      kind: "status",
      purchase: { state: "invoiced" },
    });
    expect(calls).toEqual([]);
    expect(chargesOn(purchase.invoiceId!).n).toBe(0);

    clock += 10_001;
    expect(await cardReturned(services, purchase.id, back.searchParams.get("status"), origin, at)).toMatchObject({
      kind: "status",
      purchase: { state: "completed" },
    });
    expect(chargesOn(purchase.invoiceId!).n).toBe(1);
  });

  it("answers nothing for a purchase that does not exist", async () => {
    const id = randomUUID();
    expect(await cardReturned(services, id, "successful", origin, at)).toBeNull();
    expect(await retryPurchase(services, id, origin, at)).toBeNull();
    expect(await verificationReturned(services, id, origin, at)).toBeNull();
    expect(await purchaseStatus(services, id, origin, at)).toBeNull();
  });

  // The idempotency key is the user, the form's key and the item: another plan from the same page is another purchase.
  it("the same form's key pressed on another plan starts a purchase of that plan", async () => {
    const buyer = await newBuyer();
    const formKey = randomUUID();
    const first = await startPurchase(services, {
      userId: buyer.userId,
      guestId: buyer.guestId,
      formKey,
      offer: await itemOffer("membership", MONTHLY),
      origin,
      clock: at,
    });
    expect(first.kind).toBe("redirect");
    const second = await startPurchase(services, {
      userId: buyer.userId,
      guestId: buyer.guestId,
      formKey,
      offer: await itemOffer("membership", GLOW_PLUS),
      origin,
      clock: at,
    });
    expect(second.kind).toBe("redirect");
    expect((await stores.purchases.listForUser(buyer.userId, 10)).map((p) => normalizeId(p.itemId)).sort()).toEqual(
      [normalizeId(MONTHLY), normalizeId(GLOW_PLUS)].sort(),
    );
  });
});
