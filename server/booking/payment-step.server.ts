import { createHash } from "node:crypto";
import { idKey, type Center, type Service } from "~/domain/catalog";
import type { Cents } from "~/domain/money";
import { checkPaymentForm, type Billing } from "~/domain/payment";
import { appCache } from "../cache/cache.server";
import type { Services } from "../context.server";
import { logger } from "../observability/logger.server";
import type { SavedCard } from "../spa/booking.server";
import { isSpaError } from "../spa/errors.server";
import { backEndQuote, checkout, finishVerification, quote, type CheckoutOutcome, type Quote } from "./checkout.server";
import type { Draft } from "./draft.server";

/**
 * A guest's saved cards are read once for the payment step, not on every page and press: Zenoti
 * meters every call. Kept briefly, in this process only, by guest and clinic; whatever must be right
 * is read afresh (the list after the hosted card page, a chosen card the kept list does not have).
 * A guest made a moment ago has no saved cards: their payment step need not ask.
 */
const cardLists = appCache.define<SavedCard[], { guestId: string; centerId: string }>({
  name: "saved-cards",
  key: ({ guestId, centerId }) => `${idKey(guestId)}|${idKey(centerId)}`,
  ttlMs: 2 * 60_000,
  staleMs: 0,
  maxEntries: 5_000,
  on: { guestCreated: (created, lists) => lists.set(created, []) },
});

function listCards(services: Services, guestId: string, centerId: string, fresh = false): Promise<SavedCard[]> {
  return cardLists.get({ guestId, centerId }, () => services.spa.listCards(guestId, centerId), { fresh });
}

/** The guest's saved cards read afresh (a card was just saved elsewhere, e.g. buying online); kept for the payment step. */
export function freshCards(services: Services, guestId: string, centerId: string): Promise<SavedCard[]> {
  return listCards(services, guestId, centerId, true);
}

/**
 * The guest's saved cards at the clinic, or null when the back end could not say. `fresh` reads
 * past the kept list (back from the hosted card page).
 */
export async function savedCards(services: Services, draft: Draft, options: { fresh?: boolean } = {}): Promise<SavedCard[] | null> {
  try {
    return await listCards(services, draft.guestId!, draft.centerId, options.fresh);
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return null;
  }
}

/**
 * Zenoti serves its hosted card page on the organisation's own host, `https://<org>.zenoti.com`,
 * not on the API's (decision 035). With the API on a host of `zenoti.com`, any HTTPS host one label
 * under it is the organisation's: allowed without configuration, as the origin pattern
 * `https://*.zenoti.com` (which the CSP's form-action takes as it is).
 */
export function derivedHostedPageOrigins(spaBaseUrl: string): string[] {
  const api = new URL(spaBaseUrl);
  return api.protocol === "https:" && /(^|\.)zenoti\.com$/i.test(api.hostname) ? ["https://*.zenoti.com"] : [];
}

/** Where a real back end's hosted pages may be: the API's origin, the organisation's host, and the configured origins. */
export function hostedPageOrigins(spaBaseUrl: string, configured: string[]): string[] {
  return [new URL(spaBaseUrl).origin, ...derivedHostedPageOrigins(spaBaseUrl), ...configured];
}

/** An origin, or a `https://*.domain` pattern that stands for one HTTPS label under the domain on the default port. */
function originMatches(allowed: string, page: URL): boolean {
  const wildcard = /^https:\/\/\*\.([a-z0-9.-]+)$/i.exec(allowed);
  if (!wildcard) return allowed === page.origin;
  const domain = wildcard[1].toLowerCase();
  const host = page.hostname.toLowerCase();
  return page.protocol === "https:" && page.port === "" && host.endsWith(`.${domain}`) && /^[a-z0-9-]+$/.test(host.slice(0, -domain.length - 1));
}

/**
 * A hosted payment page a guest may be sent to: on the back end's payment origins (the API's, the
 * organisation's host, the configured ones) or, with the embedded sandbox, under its hosted path on
 * the origin the guest is using (`returnTo`'s). A guest is never sent anywhere else.
 */
export function isHostedPageAllowed(services: Pick<Services, "hostedPaymentOrigins" | "embeddedHostedPath">, uri: string, returnTo: string): boolean {
  const page = new URL(uri);
  if (services.hostedPaymentOrigins.some((allowed) => originMatches(allowed, page))) return true;
  const embedded = services.embeddedHostedPath;
  if (embedded && page.origin === new URL(returnTo).origin && page.pathname.startsWith(embedded)) return true;
  logger.error("hosted payment page on an unexpected origin", { origin: page.origin });
  return false;
}

/**
 * The back end's hosted card page for this guest, which sends them back to `returnTo`, and the ids
 * of the cards saved before it: a new id on return is how we know a card was added.
 */
export async function cardCapturePage(
  services: Services,
  { guestId, centerId, returnTo }: { guestId: string; centerId: string; returnTo: string },
): Promise<{ kind: "page"; uri: string; knownCards: CardSet } | { kind: "unavailable" } | { kind: "foreign-origin" }> {
  try {
    const known = await listCards(services, guestId, centerId);
    const uri = await services.spa.startCardCapture(guestId, centerId, returnTo);
    if (!isHostedPageAllowed(services, uri, returnTo)) return { kind: "foreign-origin" };
    return { kind: "page", uri, knownCards: cardSetOf(known) };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return { kind: "unavailable" };
  }
}

/**
 * The saved cards' account ids, as few bytes as the session cookie can carry whatever their number:
 * how many, and a digest of the set.
 */
export type CardSet = { count: number; digest: string };

export function cardSetOf(cards: Pick<SavedCard, "accountId">[]): CardSet {
  const ids = cards.map((card) => card.accountId.toLowerCase()).sort();
  return { count: ids.length, digest: createHash("sha256").update(ids.join("\n")).digest("base64url").slice(0, 22) };
}

/**
 * Back from the hosted card page: whether a card was added, told from the back end's list (an
 * account that was not there before), never from the URL or a clock. Null when the list was
 * unreadable. As many cards or more, and not the same ones: one is new.
 */
export function cardWasAdded(before: CardSet, cards: SavedCard[] | null): boolean | null {
  if (!cards) return null;
  const after = cardSetOf(cards);
  return after.count >= before.count && after.digest !== before.digest;
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
    let cards = await savedCards(services, draft);
    // A card chosen from a list this process has not seen yet (added through another instance).
    if (cards && request.cardId && !cards.some((c) => c.accountId === request.cardId)) cards = await savedCards(services, draft, { fresh: true });
    if (!cards) return { kind: "cards-unavailable" };
    const card = cards.find((c) => c.accountId === request.cardId) ?? cards.at(-1);
    const errors = checkPaymentForm({ hasCard: Boolean(card), billing, agreed });
    if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
    accountId = card!.accountId;
  }
  const summary = await quote(services, center, catalog, draft);
  const { returnTo, shownDue } = request;
  const outcome = await checkout(services, { payKey, draft: { ...draft, billing }, center, quote: summary, accountId: accountId!, returnTo, shownDue });
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
export async function paymentStepState(services: Services, payKey: string | undefined, shown: Quote): Promise<PaymentStepState> {
  const attempt = payKey ? await services.stores.paymentAttempts.get(payKey) : null;
  if (!attempt || attempt.state !== "confirmed" || attempt.backEndDue == null) return { kind: "open" };
  const backEnd = await backEndQuote(services, attempt, shown);
  return backEnd ? { kind: "repriced", shown, backEnd } : { kind: "open" };
}
