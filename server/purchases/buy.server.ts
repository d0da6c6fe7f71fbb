import type { z } from "zod";
import { sameId } from "~/domain/catalog";
import { membershipPurchaseRefusal } from "~/domain/memberships";
import { PURCHASE_MESSAGES, type BuyItemSchema } from "~/domain/purchases";
import { formatMoney } from "~/lib/money";
import type { CurrentUser, Services } from "../services";
import { clinicPlanList } from "../memberships/memberships.server";
import { UNFINISHED_PURCHASE_STATES } from "../store/stores.server";
import { OUTAGE_MESSAGE, unlessUnavailable } from "../unavailable.server";
import { clinicChoice, findItemOffer } from "./offers.server";
import { startPurchase, type Offer, type StepOutcome } from "./purchase.server";

/**
 * What came of "Buy": the purchase's first step (the back end's page, or the purchase's page), a
 * refusal said on the form with its status, or a visitor who must sign in first (a purchase is kept
 * in the buyer's account and needs their guest record).
 */
export type BuyOutcome =
  | { kind: "step"; step: StepOutcome }
  | { kind: "refused"; status: number; formErrors?: string[]; fieldErrors?: Record<string, string[]> }
  | { kind: "sign-in" };

const refused = (
  status: number,
  problems: { formErrors?: string[]; fieldErrors?: Record<string, string[]> },
): BuyOutcome => ({ kind: "refused", status, ...problems });

/**
 * Why the guest may not buy this plan (decision 037): one they hold, a second plan that renews by
 * itself, or a purchase of it that may have been charged and is still being finished. Read fresh
 * from the back end: a purchase is rare, and a stale list would sell a second copy.
 */
async function membershipRefusal(
  services: Services,
  user: { id: string; guestId: string },
  centerId: string,
  offer: Offer,
): Promise<string | null> {
  const [plans, held, recent] = await Promise.all([
    clinicPlanList(services, centerId),
    services.spa.guestMemberships(user.guestId),
    services.stores.purchases.listForUser(user.id, 20),
  ]);
  const plan = plans?.find((p) => sameId(p.id, offer.itemId));
  const refusal = membershipPurchaseRefusal(held, { id: offer.itemId, recurring: plan?.recurring ?? false });
  if (refusal)
    return refusal.kind === "same"
      ? PURCHASE_MESSAGES.alreadyMember(refusal.name)
      : PURCHASE_MESSAGES.alreadyRenewing(refusal.name);
  const underWay = recent.find(
    (p) => p.kind === "membership" && sameId(p.itemId, offer.itemId) && UNFINISHED_PURCHASE_STATES.includes(p.state),
  );
  return underWay ? PURCHASE_MESSAGES.purchaseUnderWay(underWay.itemName) : null;
}

/**
 * Starts buying an offer for the signed-in user; a price that changed meanwhile is refused with the
 * new one, a back end that cannot be reached with the spec's words (503).
 */
export async function buyOffer(
  services: Services,
  input: { user: { id: string; guestId: string }; formKey: string; offer: Offer; origin: string },
): Promise<BuyOutcome> {
  const { user, formKey, offer, origin } = input;
  const outcome = await unlessUnavailable(
    () => startPurchase(services, { userId: user.id, guestId: user.guestId, formKey, offer, origin }),
    () => null,
  );
  if (!outcome) return refused(503, { formErrors: [OUTAGE_MESSAGE] });
  if (outcome.kind === "price-changed")
    return refused(409, { formErrors: [PURCHASE_MESSAGES.priceChanged(formatMoney(outcome.priceCents))] });
  return { kind: "step", step: outcome };
}

/**
 * "Buy" on a membership plan or a package. The form names the clinic, the item, the price the page
 * showed and its key; the price charged is always the back end's, and a shown price that is not the
 * clinic's current one is refused (409) rather than charged.
 */
export async function buyItem(
  services: Services,
  input: {
    kind: "membership" | "package";
    user: CurrentUser | null;
    form: z.infer<typeof BuyItemSchema>;
    origin: string;
  },
): Promise<BuyOutcome> {
  const { kind, user, form } = input;
  if (!user) return { kind: "sign-in" };
  const found = await unlessUnavailable(
    async () => {
      const { center } = await clinicChoice(services, form.clinic);
      return center
        ? { center, offer: await findItemOffer(services, kind, center, form.itemId) }
        : { center: null, offer: null };
    },
    () => null,
  );
  if (!found) return refused(503, { formErrors: [OUTAGE_MESSAGE] });
  if (!found.center)
    return refused(404, { fieldErrors: { clinic: ["No clinic has that address. Please choose one from the list."] } });
  if (!found.offer) return refused(404, { formErrors: [PURCHASE_MESSAGES.notSold] });
  if (kind === "membership") {
    const refusal = await unlessUnavailable(
      () => membershipRefusal(services, user, found.center!.id, found.offer!),
      () => OUTAGE_MESSAGE,
    );
    if (refusal) return refused(refusal === OUTAGE_MESSAGE ? 503 : 409, { formErrors: [refusal] });
  }
  if (found.offer.priceCents !== form.price)
    return refused(409, { formErrors: [PURCHASE_MESSAGES.priceChanged(formatMoney(found.offer.priceCents))] });
  return buyOffer(services, { user, formKey: form.purchaseKey, offer: found.offer, origin: input.origin });
}
