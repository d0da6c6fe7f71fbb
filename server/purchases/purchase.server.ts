import { createHash, randomUUID } from "node:crypto";
import type { Cents } from "~/domain/money";
import { formatMoney } from "~/lib/money";
import { cardCapturePage, cardWasAdded, freshCards } from "../payments/card-capture.server";
import { isHostedPageAllowed } from "../payments/hosted-pages.server";
import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";
import { isSpaError, type SpaError } from "../spa/errors.server";
import { isFinalPurchase, type GiftCardOrder, type Purchase, type PurchaseKind } from "../store/stores.server";

/**
 * One online purchase of a membership, a package or a gift card (docs/decisions/031), driven by the
 * record in the store: every step is written before the back-end call it leads to, so a retry, a
 * double submit or a reload carries on from where the last request stopped and never sells or
 * charges twice. The back end prices the sale; the guest pays it through its hosted card page, the
 * charge goes to the card saved there, and the paid invoice is closed (which makes the sale final).
 */

export const PURCHASE_OUTCOME_MESSAGES = {
  declined: "Your card was declined, and nothing was charged. Please try another card.",
  noCard: "We did not receive a card from the secure page, and nothing was charged. Please try again.",
  verifyFailed: "Your bank did not approve the payment, and nothing was charged. Please try again or use another card.",
  notStarted: "The clinic's system could not start this purchase, and nothing was charged. Please try again.",
  atBank:
    "Your bank asked to check this payment. Please finish the check on your bank's page; nothing is charged until you approve it.",
  checking:
    "We are checking your payment with the clinic's system. Please check again in a moment; you will not be charged twice.",
  notCharged: "Your payment did not go through, and nothing was charged. Please try again.",
  finishing:
    "Your payment was received. We are finishing your purchase with the clinic's system; please check again in a moment. You will not be charged again.",
} as const;

/** One request owns a purchase this long between two writes: longer than any one back-end call. */
export function purchaseLeaseMs(services: Pick<Services, "env">): number {
  return services.env.SPA_TIMEOUT_MS * 2 + 2_000;
}

/** What is being bought, as the back end's catalog priced it when the page was shown. */
export type Offer = {
  kind: PurchaseKind;
  centerId: string;
  itemId: string;
  itemName: string;
  priceCents: Cents;
  giftCard: GiftCardOrder | null;
};

export type StepOutcome =
  /** Send the guest to a back-end page (the hosted card page, their bank's check). */
  | { kind: "redirect"; uri: string }
  /** Show the purchase's page: it says where the purchase stands (done, declined, checking). */
  | { kind: "status"; purchase: Purchase }
  /** The back end's invoice asks another amount than the page showed: nothing was charged. */
  | { kind: "price-changed"; priceCents: Cents; purchase: Purchase };

type Ctx = { services: Services; clock: () => number; origin: string };

/** Where the back end's pages send the guest back to, on the origin they use. */
export const purchaseReturn = (origin: string, id: string, step: "card" | "verified") =>
  `${origin}/purchases/${id}/${step}`;

/** The back end said no and did nothing: safe to act on as a refusal. */
const isRefusal = (error: SpaError) => error.kind === "rejected";

/**
 * The idempotency key: the user, the form's key and what is bought (a gift card's order too), so a
 * double press of one form is one purchase, and another item or another order from the same page
 * is another purchase.
 */
function purchaseKey(userId: string, formKey: string, offer: Offer): string {
  const order = offer.giftCard
    ? createHash("sha256").update(JSON.stringify(offer.giftCard)).digest("base64url").slice(0, 16)
    : "";
  return [userId, formKey, offer.kind, offer.itemId.toLowerCase(), order].join(":");
}

/**
 * Starts the purchase for this form key, or carries on with the one the key already started (a
 * double submit gets the first purchase's next step, never a second sale).
 */
export async function startPurchase(
  services: Services,
  input: { userId: string; guestId: string; formKey: string; offer: Offer; origin: string; clock?: () => number },
): Promise<StepOutcome> {
  const clock = input.clock ?? Date.now;
  const now = clock();
  const { offer } = input;
  const fresh: Purchase = {
    id: randomUUID(),
    key: purchaseKey(input.userId, input.formKey, offer),
    state: "started",
    leaseUntil: now + purchaseLeaseMs(services),
    createdAt: now,
    updatedAt: now,
    userId: input.userId,
    guestId: input.guestId,
    centerId: offer.centerId,
    kind: offer.kind,
    itemId: offer.itemId,
    itemName: offer.itemName,
    shownCents: offer.priceCents,
    giftCard: offer.giftCard,
    invoiceId: null,
    reference: null,
    invoiceRequestedAt: null,
    priceChecked: false,
    knownCards: null,
    accountId: null,
    chargeSentAt: null,
    verifyUri: null,
    paidCents: null,
    closed: false,
    giftCardSent: false,
    declineMessage: null,
  };
  const { created, purchase } = await services.stores.purchases.createOnce(fresh);
  if (!created) return { kind: "status", purchase };
  services.analytics.record({
    name: "purchase_started",
    properties: { kind: offer.kind, centerId: offer.centerId, amountCents: offer.priceCents },
  });
  return drive({ services, clock, origin: input.origin }, purchase, "card");
}

/** "Try again" on the purchase's page: another card on the same invoice, or the sale asked for again. */
export async function retryPurchase(
  services: Services,
  id: string,
  origin: string,
  clock: () => number = Date.now,
): Promise<StepOutcome | null> {
  return withClaim(services, id, clock, (purchase) => drive({ services, clock, origin }, purchase, "card"));
}

/** Back from the hosted card page: charge the card that was saved there, once. */
export async function cardReturned(
  services: Services,
  id: string,
  status: string | null,
  origin: string,
  clock: () => number = Date.now,
): Promise<StepOutcome | null> {
  return withClaim(services, id, clock, async (purchase) => {
    const ctx = { services, clock, origin };
    if (purchase.state !== "invoiced") return handBack(ctx, purchase, {});
    if (status === "declined") return decline(ctx, purchase, PURCHASE_OUTCOME_MESSAGES.declined);
    return drive(ctx, purchase, "charge");
  });
}

/** Back from the bank's 3-D Secure page: what the invoice says is the answer; nothing is charged here. */
export async function verificationReturned(
  services: Services,
  id: string,
  origin: string,
  clock: () => number = Date.now,
): Promise<StepOutcome | null> {
  return withClaim(services, id, clock, (purchase) => drive({ services, clock, origin }, purchase, "returned"));
}

/**
 * The purchase's page: finishes what is paid (closing, sending the card) and reads what became of a
 * charge whose answer is not known, including one approved at the bank after it was given up on.
 */
export async function purchaseStatus(
  services: Services,
  id: string,
  origin: string,
  clock: () => number = Date.now,
): Promise<Purchase | null> {
  const purchase = await services.stores.purchases.get(id);
  if (!purchase) return null;
  const lateApproval =
    (purchase.state === "declined" || purchase.state === "not-charged") &&
    purchase.chargeSentAt !== null &&
    clock() - purchase.chargeSentAt <= VERIFY_WINDOW_MS;
  if (purchase.state !== "paid" && purchase.state !== "charging" && purchase.state !== "verifying" && !lateApproval)
    return purchase;
  const outcome = await withClaim(services, id, clock, (claimed) =>
    drive({ services, clock, origin }, claimed, "view"),
  );
  return outcome?.purchase ?? (await services.stores.purchases.get(id));
}

/** Runs `step` on the purchase while this request holds it; the purchase as it is when another request does. */
async function withClaim(
  services: Services,
  id: string,
  clock: () => number,
  step: (purchase: Purchase) => Promise<StepOutcome>,
): Promise<(StepOutcome & { purchase: Purchase }) | { kind: "status"; purchase: Purchase } | null> {
  const claim = await services.stores.purchases.claim(id, clock() + purchaseLeaseMs(services), clock());
  if (!claim) return null;
  if (claim.state !== "claimed") return { kind: "status", purchase: claim.purchase };
  const outcome = await step(claim.purchase);
  return outcome.kind === "redirect" ? { ...outcome, purchase: (await services.stores.purchases.get(id))! } : outcome;
}

async function save(ctx: Ctx, purchase: Purchase, patch: Partial<Purchase>, keepLease = true): Promise<Purchase> {
  const now = ctx.clock();
  const next = {
    ...purchase,
    ...patch,
    updatedAt: now,
    leaseUntil: keepLease && patch.state !== "completed" ? now + purchaseLeaseMs(ctx.services) : 0,
  };
  await ctx.services.stores.purchases.save(next);
  return next;
}

/** Stops here and lets the next request in at once. */
async function handBack(ctx: Ctx, purchase: Purchase, patch: Partial<Purchase>): Promise<StepOutcome> {
  return { kind: "status", purchase: await save(ctx, purchase, patch, false) };
}

async function decline(ctx: Ctx, purchase: Purchase, message: string): Promise<StepOutcome> {
  ctx.services.analytics.record({
    name: "purchase_failed",
    properties: { kind: purchase.kind, centerId: purchase.centerId, reason: "declined" },
  });
  return handBack(ctx, purchase, { state: "declined", declineMessage: message, verifyUri: null });
}

/**
 * A charge whose answer never came (lost, or the request died around it) and that can no longer
 * land, the invoice unpaid: nothing was charged, but nobody refused the card either.
 */
async function notCharged(ctx: Ctx, purchase: Purchase): Promise<StepOutcome> {
  ctx.services.analytics.record({
    name: "purchase_failed",
    properties: { kind: purchase.kind, centerId: purchase.centerId, reason: "not_charged" },
  });
  return handBack(ctx, purchase, {
    state: "not-charged",
    declineMessage: PURCHASE_OUTCOME_MESSAGES.notCharged,
    verifyUri: null,
  });
}

/** A bank's 3-D Secure check left open this long has timed out: its charge can no longer land. */
const VERIFY_WINDOW_MS = 15 * 60_000;

/**
 * Moves the purchase forward. "card": make sure a sale invoice of the shown price exists, then send
 * the guest to the hosted card page (or back to their bank's check while it is open). "charge": the
 * guest is back from the card page. "returned": back from the bank's check. "view": the purchase's
 * page, which reads what became of a charge. A charge that may have been made is always read from
 * the invoice before anything else happens: a paid invoice is finished, never charged again.
 */
async function drive(ctx: Ctx, start: Purchase, step: "card" | "charge" | "returned" | "view"): Promise<StepOutcome> {
  const { services } = ctx;
  let purchase = start;
  try {
    if (isFinalPurchase(purchase)) return { kind: "status", purchase };
    if (purchase.state === "paid") return await finish(ctx, purchase);

    const chargeMayHaveLanded =
      purchase.invoiceId !== null &&
      purchase.chargeSentAt !== null &&
      ["charging", "verifying", "declined", "not-charged"].includes(purchase.state);
    if (chargeMayHaveLanded && step !== "charge") {
      const invoice = await services.spa.getInvoice(purchase.invoiceId!);
      if (invoice.balance <= 0) {
        purchase = await save(ctx, purchase, {
          state: "paid",
          paidCents: invoice.paid,
          reference: invoice.reference ?? purchase.reference,
          verifyUri: null,
          declineMessage: null,
        });
        return await finish(ctx, purchase);
      }
      const since = ctx.clock() - purchase.chargeSentAt!;
      if (purchase.state === "verifying") {
        if (step === "returned" || since > VERIFY_WINDOW_MS)
          return await decline(ctx, purchase, PURCHASE_OUTCOME_MESSAGES.verifyFailed);
        // The guest's bank check is still open: "Try again" takes them back to it, the page waits.
        if (step === "card") {
          await save(ctx, purchase, {}, false);
          return { kind: "redirect", uri: purchase.verifyUri! };
        }
        return await handBack(ctx, purchase, {});
      }
      if (purchase.state === "charging") {
        // A charge whose answer was lost (or whose request died) may still land for a while; once it
        // cannot, nothing was charged, and nothing was refused either: "not charged", never "declined".
        if (since <= services.env.SPA_TIMEOUT_MS * 2) return await handBack(ctx, purchase, {});
        if (step !== "card") return await notCharged(ctx, purchase);
      }
    }
    if (step === "returned" || step === "view") return await handBack(ctx, purchase, {});

    if (step === "card") {
      if (!purchase.invoiceId) {
        purchase = await save(ctx, purchase, { invoiceRequestedAt: ctx.clock(), declineMessage: null });
        const { invoiceId } = await sell(services, purchase);
        purchase = await save(ctx, purchase, { invoiceId, priceChecked: false });
      }
      if (!purchase.priceChecked) {
        const invoice = await services.spa.getInvoice(purchase.invoiceId!);
        if (invoice.balance !== purchase.shownCents) {
          // The page showed another price: this sale is never paid, and the guest decides again.
          logger.warn("purchase price differs from the back end's", {
            kind: purchase.kind,
            shown: purchase.shownCents,
            due: invoice.balance,
          });
          await removeSaleLines(
            services,
            purchase.invoiceId!,
            invoice.items.map((i) => i.invoiceItemId),
          );
          const changed = await save(ctx, purchase, { state: "cancelled", declineMessage: null }, false);
          return { kind: "price-changed", priceCents: invoice.balance, purchase: changed };
        }
        purchase = await save(ctx, purchase, { priceChecked: true, reference: invoice.reference });
      }
      const page = await cardCapturePage(services, {
        guestId: purchase.guestId,
        centerId: purchase.centerId,
        returnTo: purchaseReturn(ctx.origin, purchase.id, "card"),
      });
      if (page.kind !== "page")
        return await handBack(ctx, purchase, { declineMessage: PURCHASE_OUTCOME_MESSAGES.notStarted });
      await save(
        ctx,
        purchase,
        { state: "invoiced", knownCards: page.knownCards, declineMessage: null, verifyUri: null },
        false,
      );
      return { kind: "redirect", uri: page.uri };
    }

    // "charge": back from the hosted card page.
    // Read afresh, and kept for the booking's payment step, which then lists the card saved here.
    const cards = await freshCards(services, purchase.guestId, purchase.centerId);
    if (!purchase.knownCards || !cardWasAdded(purchase.knownCards, cards))
      return await decline(ctx, purchase, PURCHASE_OUTCOME_MESSAGES.noCard);
    const accountId = cards.at(-1)!.accountId;
    purchase = await save(ctx, purchase, { state: "charging", accountId, chargeSentAt: ctx.clock() });
    const returnTo = purchaseReturn(ctx.origin, purchase.id, "verified");
    try {
      const result = await services.spa.payInvoice(purchase.invoiceId!, purchase.centerId, accountId, returnTo);
      if (result.kind === "verify") {
        if (!isHostedPageAllowed(services, result.uri, returnTo))
          return await decline(ctx, purchase, PURCHASE_OUTCOME_MESSAGES.verifyFailed);
        await save(ctx, purchase, { state: "verifying", verifyUri: result.uri }, false);
        return { kind: "redirect", uri: result.uri };
      }
    } catch (error) {
      if (!isSpaError(error)) throw error;
      if (isRefusal(error)) {
        // Refused: nothing was charged now, unless the invoice was already paid (a late bank approval).
        const invoice = await services.spa.getInvoice(purchase.invoiceId!);
        if (invoice.balance > 0) return await decline(ctx, purchase, PURCHASE_OUTCOME_MESSAGES.declined);
      }
      // A lost answer is read from the invoice below.
    }
    return await drive(ctx, purchase, "view");
  } catch (error) {
    if (!isSpaError(error)) throw error;
    // What the steps before the failure wrote (finishing saves its own progress) is kept as stored.
    const current = (await services.stores.purchases.get(purchase.id)) ?? purchase;
    logger.warn("purchase step stopped", { kind: current.kind, state: current.state, error: error.kind });
    // The sale could not be asked for: nothing exists to pay; the guest may try again.
    if (current.state === "started")
      return handBack(ctx, current, { declineMessage: PURCHASE_OUTCOME_MESSAGES.notStarted });
    return handBack(ctx, current, {});
  }
}

/** The paid sale made final: the invoice closed and, for a gift card, the card sent to its recipient. */
async function finish(ctx: Ctx, start: Purchase): Promise<StepOutcome> {
  const { services } = ctx;
  let purchase = start;
  if (!purchase.closed) {
    const closed = await services.spa.closeInvoice(purchase.invoiceId!);
    if (closed === "not-paid") return handBack(ctx, purchase, { state: "charging" });
    purchase = await save(ctx, purchase, { closed: true });
  }
  if (purchase.kind === "gift-card" && !purchase.giftCardSent) {
    await services.spa.sendGiftCardEmail(purchase.invoiceId!);
    purchase = await save(ctx, purchase, { giftCardSent: true });
  }
  // What the booking steps keep of the guest's memberships and packages is out of date now.
  if (purchase.kind === "membership") appCache.emit("membershipBought", { guestId: purchase.guestId });
  if (purchase.kind === "package")
    appCache.emit("packageBought", { guestId: purchase.guestId, centerId: purchase.centerId });
  services.analytics.record({
    name: "purchase_completed",
    properties: {
      kind: purchase.kind,
      centerId: purchase.centerId,
      amountCents: purchase.paidCents ?? purchase.shownCents,
    },
  });
  return handBack(ctx, purchase, { state: "completed" });
}

export const PRICE_CHANGED_COMMENT = "Removing item: online purchase stopped because the price changed before payment";

/** An unpaid sale the guest will not pay: its lines removed, best effort (an open unpaid invoice owes nothing). */
async function removeSaleLines(services: Services, invoiceId: string, itemIds: string[]) {
  for (const itemId of itemIds) {
    try {
      await services.spa.removeInvoiceItem(invoiceId, itemId, PRICE_CHANGED_COMMENT);
    } catch (error) {
      if (!isSpaError(error)) throw error;
      logger.warn("unpaid sale line not removed", { error: error.kind });
    }
  }
}

/** The back end's sale invoice for what is being bought. */
function sell(services: Services, purchase: Purchase): Promise<{ invoiceId: string }> {
  const { spa } = services;
  if (purchase.kind === "membership") return spa.sellMembership(purchase.centerId, purchase.guestId, purchase.itemId);
  if (purchase.kind === "package") return spa.sellPackage(purchase.centerId, purchase.guestId, purchase.itemId);
  const card = purchase.giftCard!;
  return spa.sellGiftCard(purchase.centerId, purchase.guestId, {
    templateId: card.templateId,
    customAmountCents: card.custom ? card.valueCents : null,
    occasionId: card.occasionId,
    message: card.message,
    recipientName: card.recipientName,
    recipientEmail: card.recipientEmail,
    scheduleTime: `${card.deliveryDate}T09:00:00`,
  });
}

/** What the purchase's page says, by where it stands. */
export type PurchaseView = {
  id: string;
  kind: Purchase["kind"];
  itemName: string;
  price: string;
  paid: string | null;
  reference: string | null;
  state: "completed" | "paid" | "declined" | "not-charged" | "checking" | "card" | "not-started" | "cancelled";
  message: string | null;
  /** The guest's bank check is open: they can go back to it. */
  atBank: boolean;
  giftCard: { recipientName: string; recipientEmail: string; deliveryDate: string } | null;
};

/**
 * What the page says, told from the record as any request left it, a request that died included: a
 * paid sale is "paid" (being finished) whatever is left to do, a charge that may have landed is
 * "checking", and a sale with nothing charged says so ("card", "not-charged", "not-started").
 */
export function purchaseView(purchase: Purchase): PurchaseView {
  const state: PurchaseView["state"] =
    purchase.state === "completed" ||
    purchase.state === "cancelled" ||
    purchase.state === "paid" ||
    purchase.state === "declined" ||
    purchase.state === "not-charged"
      ? purchase.state
      : purchase.state === "charging" || purchase.state === "verifying"
        ? "checking"
        : purchase.state === "invoiced" || purchase.invoiceId !== null
          ? "card"
          : "not-started";
  const message =
    purchase.declineMessage ??
    (purchase.state === "verifying"
      ? PURCHASE_OUTCOME_MESSAGES.atBank
      : state === "checking"
        ? PURCHASE_OUTCOME_MESSAGES.checking
        : state === "paid"
          ? PURCHASE_OUTCOME_MESSAGES.finishing
          : state === "not-started" && purchase.invoiceRequestedAt
            ? PURCHASE_OUTCOME_MESSAGES.notStarted
            : null);
  return {
    id: purchase.id,
    kind: purchase.kind,
    itemName: purchase.itemName,
    price: formatMoney(purchase.shownCents),
    paid: purchase.paidCents === null ? null : formatMoney(purchase.paidCents),
    reference: purchase.reference,
    state,
    message,
    atBank: purchase.state === "verifying",
    giftCard: purchase.giftCard
      ? {
          recipientName: purchase.giftCard.recipientName,
          recipientEmail: purchase.giftCard.recipientEmail,
          deliveryDate: purchase.giftCard.deliveryDate,
        }
      : null,
  };
}
