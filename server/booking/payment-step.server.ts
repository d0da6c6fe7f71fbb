import type { Center, Service } from "~/domain/catalog";
import type { Cents } from "~/domain/money";
import { checkPaymentForm, type Billing } from "~/domain/payment";
import type { Services } from "../services";
import { listCards } from "../payments/card-capture.server";
import { isHostedPageAllowed } from "../payments/hosted-pages.server";
import type { SavedCard } from "../spa/booking.server";
import { isSpaError } from "../spa/errors.server";
import { backEndQuote, checkout, finishVerification, quote, type CheckoutOutcome, type Quote } from "./checkout.server";
import type { Draft } from "./draft.server";

/**
 * The guest's saved cards at the clinic, or null when the back end could not say. `fresh` reads
 * past the kept list (back from the hosted card page).
 */
export async function savedCards(
  services: Services,
  draft: Draft,
  options: { fresh?: boolean } = {},
): Promise<SavedCard[] | null> {
  try {
    return await listCards(services, draft.guestId!, draft.centerId, options.fresh);
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return null;
  }
}

export type ConfirmRequest = {
  payKey: string;
  draft: Draft;
  center: Center;
  catalog: Service[];
  /** The card the guest picked; the newest saved card when none was. */
  cardId: string;
  billing: Billing;
  agreed: boolean;
  /** The payment step on the origin the guest uses: where a 3-D Secure page sends them back. */
  returnTo: string;
  /** What the page showed as due now, in cents (the button's amount). */
  shownDue?: Cents;
};

export type ConfirmOutcome =
  | CheckoutOutcome
  | { kind: "invalid"; errors: Record<string, string> }
  | { kind: "cards-unavailable" };

/**
 * Confirm and pay. A submit that comes back to an attempt already under way (a double tap, a retry
 * after a lost answer) carries on with it: the card and form were checked when it started.
 */
export async function confirmAndPay(services: Services, request: ConfirmRequest): Promise<ConfirmOutcome> {
  const { payKey, draft, center, catalog, billing, agreed } = request;
  const underWay = await services.stores.paymentAttempts.get(payKey);
  let accountId = underWay?.accountId;
  if (!underWay) {
    let cards = await savedCards(services, draft);
    // A card chosen from a list this process has not seen yet (added through another instance).
    if (cards && request.cardId && !cards.some((c) => c.accountId === request.cardId))
      cards = await savedCards(services, draft, { fresh: true });
    if (!cards) return { kind: "cards-unavailable" };
    const card = cards.find((c) => c.accountId === request.cardId) ?? cards.at(-1);
    const errors = checkPaymentForm({ hasCard: Boolean(card), billing, agreed });
    if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
    accountId = card!.accountId;
  }
  const summary = await quote(services, center, catalog, draft);
  const { returnTo, shownDue } = request;
  const outcome = await checkout(services, {
    payKey,
    draft: { ...draft, billing },
    center,
    quote: summary,
    accountId: accountId!,
    returnTo,
    shownDue,
  });
  if (outcome.kind === "verify" && !isHostedPageAllowed(services, outcome.uri, returnTo)) {
    // Never sent to a page we do not trust: the check counts as failed and the booking is undone.
    return (await finishVerification(services, payKey)) ?? { kind: "pending" };
  }
  return outcome;
}

/** What the payment step shows besides our quote: the back end's price, when it differed. */
export type PaymentStepState = { kind: "open" } | { kind: "repriced"; shown: Quote; backEnd: Quote };

/**
 * An attempt stopped because the back end's invoice asked another amount: the page shows the
 * back end's summary, and the guest agrees to it or cancels.
 */
export async function paymentStepState(
  services: Services,
  payKey: string | undefined,
  shown: Quote,
): Promise<PaymentStepState> {
  const attempt = payKey ? await services.stores.paymentAttempts.get(payKey) : null;
  if (!attempt || attempt.state !== "confirmed" || attempt.backEndDue == null) return { kind: "open" };
  const backEnd = await backEndQuote(services, attempt, shown);
  return backEnd ? { kind: "repriced", shown, backEnd } : { kind: "open" };
}
