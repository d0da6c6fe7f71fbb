import { createHash } from "node:crypto";
import { idKey } from "~/domain/catalog";
import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import type { SavedCard } from "../spa/booking.server";
import { isSpaError } from "../spa/errors.server";
import { isHostedPageAllowed } from "./hosted-pages.server";

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

/** The guest's saved cards at the clinic, from the kept list unless `fresh`. */
export function listCards(services: Services, guestId: string, centerId: string, fresh = false): Promise<SavedCard[]> {
  return cardLists.get({ guestId, centerId }, () => services.spa.listCards(guestId, centerId), { fresh });
}

/** The guest's saved cards read afresh (a card was just saved elsewhere, e.g. buying online); kept for the payment step. */
export function freshCards(services: Services, guestId: string, centerId: string): Promise<SavedCard[]> {
  return listCards(services, guestId, centerId, true);
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
