import { idKey, sameId, type Center } from "~/domain/catalog";
import { deliveryDateProblem, PURCHASE_MESSAGES, type GiftCardForm } from "~/domain/purchases";
import { clinicToday } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { appCache } from "../cache/cache.server";
import type { CurrentUser, Services } from "../services";
import { isSpaError } from "../spa/errors.server";
import type { GiftCardBalance, GiftCardTemplate, GuestGiftCard } from "../spa/sales.server";
import { giftCardOccasions, giftCardTemplates } from "./offers.server";
import type { Offer } from "./purchase.server";

export type AmountChoice = { templateId: string; label: string; custom: { min: string; max: string } | null };

/** The amounts a clinic sells, presets by value and then the one that takes any amount. */
export function amountChoices(templates: GiftCardTemplate[]): AmountChoice[] {
  const presets = templates
    .filter((t) => !t.custom && t.valueCents !== null)
    .sort((a, b) => a.valueCents! - b.valueCents!);
  const custom = templates.filter((t) => t.custom);
  return [
    ...presets.map((t) => ({ templateId: t.id, label: formatMoney(t.valueCents!), custom: null })),
    ...custom.map((t) => ({
      templateId: t.id,
      label: "Another amount",
      custom: { min: formatMoney(t.custom!.minCents), max: formatMoney(t.custom!.maxCents) },
    })),
  ];
}

/** The gift card form checked against what only the back end knows: the template, its limits, the design, the clinic's today. */
export async function giftCardOffer(
  services: Services,
  center: Center,
  form: GiftCardForm,
): Promise<{ kind: "offer"; offer: Offer } | { kind: "invalid"; fieldErrors: Record<string, string[]> }> {
  const [templates, occasions] = await Promise.all([
    giftCardTemplates(services, center.id),
    giftCardOccasions(services),
  ]);
  const template = templates?.find((t) => sameId(t.id, form.templateId));
  const occasion = occasions.find((o) => sameId(o.id, form.occasionId));
  const fieldErrors: Record<string, string[]> = {};
  if (!template) fieldErrors.templateId = [PURCHASE_MESSAGES.unknownTemplate];
  if (!occasion) fieldErrors.occasionId = [PURCHASE_MESSAGES.unknownOccasion];
  let valueCents = template?.valueCents ?? null;
  if (template?.custom) {
    const { minCents, maxCents } = template.custom;
    valueCents = form.customAmount;
    if (valueCents === null || valueCents < minCents || valueCents > maxCents) {
      fieldErrors.customAmount = [PURCHASE_MESSAGES.customAmount(formatMoney(minCents), formatMoney(maxCents))];
    }
  }
  const dateProblem = deliveryDateProblem(form.deliveryDate, clinicToday(center.timeZone));
  if (dateProblem) fieldErrors.deliveryDate = [dateProblem];
  if (Object.keys(fieldErrors).length > 0 || !template || !occasion || valueCents === null)
    return { kind: "invalid", fieldErrors };
  return {
    kind: "offer",
    offer: {
      kind: "gift-card",
      centerId: center.id,
      itemId: template.id,
      itemName: `${formatMoney(valueCents)} gift card (${occasion.name})`,
      priceCents: template.custom ? valueCents : (template.priceCents ?? valueCents),
      giftCard: {
        templateId: template.id,
        valueCents,
        custom: Boolean(template.custom),
        occasionId: occasion.id,
        recipientName: form.recipientName,
        recipientEmail: form.recipientEmail,
        message: form.message,
        deliveryDate: form.deliveryDate,
      },
    },
  };
}

export type GiftCardView = {
  number: string;
  value: string;
  balance: string;
  expires: string | null;
  status: string;
  recipient: string | null;
};

function giftCardView(card: GuestGiftCard): GiftCardView {
  return {
    number: card.number,
    value: formatMoney(card.valueCents),
    balance: formatMoney(card.balanceCents),
    expires: card.expiryDate,
    status: card.status,
    recipient: card.recipientName
      ? `${card.recipientName}${card.recipientEmail ? ` (${card.recipientEmail})` : ""}`
      : null,
  };
}

/** How many bought cards one view of the account reads the balance of: the newest (Zenoti meters every call). */
export const BALANCES_PER_VIEW = 10;

/**
 * A bought card's balance as the back end's balance call gives it (the one a balance check by
 * number makes), kept two minutes per card so that opening the page again costs no call. Keyed by
 * the card's record id: its number is never a key, a log field or a path in a log line.
 */
const cardBalances = appCache.define<GiftCardBalance | null>({
  name: "gift-card-balances",
  key: idKey,
  ttlMs: 2 * 60_000,
  staleMs: 0,
  maxEntries: 5_000,
});

/**
 * The card as the account shows it, its balance now: the balance call's, else (an outage, a card the
 * call does not know) the amount the guest's card list gave.
 */
async function withBalanceNow(services: Services, card: GuestGiftCard): Promise<GuestGiftCard> {
  try {
    const now = await cardBalances.get(card.id, () => services.spa.giftCardBalance(card.number));
    return now ? { ...card, balanceCents: now.balanceCents, status: now.status || card.status } : card;
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return card;
  }
}

/**
 * The signed-in guest's gift cards: the ones they bought, with their balance now (the guest cannot
 * check it by number: the account shows only the last four digits), and the ones sent to them.
 */
export async function accountGiftCards(
  services: Services,
  user: CurrentUser,
): Promise<{ bought: GiftCardView[]; received: GiftCardView[] }> {
  const cards = await services.spa.guestGiftCards(user.guestId);
  const mine = (card: GuestGiftCard) => card.boughtByGuestId !== null && sameId(card.boughtByGuestId, user.guestId);
  const toMe = (card: GuestGiftCard) =>
    card.recipientEmail !== null && card.recipientEmail.trim().toLowerCase() === user.email.trim().toLowerCase();
  // The back end lists the newest first; older cards beyond the first few show the list's amount.
  const bought = await Promise.all(
    cards
      .filter(mine)
      .map((card, index) => (index < BALANCES_PER_VIEW ? withBalanceNow(services, card) : Promise.resolve(card))),
  );
  return { bought: bought.map(giftCardView), received: cards.filter(toMe).map(giftCardView) };
}

export type BalanceView = { number: string; value: string; balance: string; expires: string | null; status: string };

/** A balance looked up by card number; guessing numbers is slowed by the caller's rate limit. */
export async function giftCardBalance(services: Services, number: string): Promise<BalanceView | null> {
  const found = await services.spa.giftCardBalance(number);
  return found
    ? {
        number: found.number,
        value: formatMoney(found.valueCents),
        balance: formatMoney(found.balanceCents),
        expires: found.expiryDate,
        status: found.status,
      }
    : null;
}
