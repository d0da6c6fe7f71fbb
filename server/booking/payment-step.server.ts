import type { Center, Service } from "~/domain/catalog";
import { checkPaymentForm, type Billing } from "~/domain/payment";
import type { Services } from "../context.server";
import { logger } from "../observability/logger.server";
import type { SavedCard } from "../spa/booking.server";
import { isSpaError } from "../spa/errors.server";
import { checkout, quote, type CheckoutOutcome } from "./checkout.server";
import type { Draft } from "./draft.server";

/** The guest's saved cards at the clinic, or null when the back end could not say. */
export async function savedCards(services: Services, draft: Draft): Promise<SavedCard[] | null> {
  try {
    return await services.spa.listCards(draft.guestId!, draft.centerId);
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return null;
  }
}

/**
 * The back end's hosted card page for this guest, which sends them back to `returnTo`. A page on
 * any origin but the back end's own is refused: a guest is never sent elsewhere.
 */
export async function cardCapturePage(
  services: Services,
  { guestId, centerId, returnTo }: { guestId: string; centerId: string; returnTo: string },
): Promise<{ kind: "page"; uri: string } | { kind: "unavailable" } | { kind: "foreign-origin" }> {
  try {
    const uri = await services.spa.startCardCapture(guestId, centerId, returnTo);
    if (services.hostedPaymentOrigins.includes(new URL(uri).origin)) return { kind: "page", uri };
    logger.error("hosted payment page on an unexpected origin", { origin: new URL(uri).origin });
    return { kind: "foreign-origin" };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return { kind: "unavailable" };
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
};

export type ConfirmOutcome = CheckoutOutcome | { kind: "invalid"; errors: Record<string, string> } | { kind: "cards-unavailable" };

/**
 * Confirm and pay. A submit that comes back to an attempt already under way (a double tap, a retry
 * after a lost answer) carries on with it: the card and form were checked when it started.
 */
export async function confirmAndPay(services: Services, request: ConfirmRequest): Promise<ConfirmOutcome> {
  const { payKey, draft, center, catalog, billing, agreed } = request;
  const underWay = await services.stores.paymentAttempts.get(payKey);
  let accountId = underWay?.accountId;
  if (!underWay) {
    const cards = await savedCards(services, draft);
    if (!cards) return { kind: "cards-unavailable" };
    const card = cards.find((c) => c.accountId === request.cardId) ?? cards.at(-1);
    const errors = checkPaymentForm({ hasCard: Boolean(card), billing, agreed });
    if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
    accountId = card!.accountId;
  }
  const summary = await quote(services, center, catalog, draft);
  return checkout(services, { payKey, draft: { ...draft, billing }, center, quote: summary, accountId: accountId! });
}
