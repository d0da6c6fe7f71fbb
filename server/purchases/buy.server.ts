import type { Submission } from "@conform-to/react";
import { href, redirect, redirectDocument } from "react-router";
import { sameId } from "~/domain/catalog";
import { membershipPurchaseRefusal } from "~/domain/memberships";
import { BuyItemSchema, PURCHASE_MESSAGES } from "~/domain/purchases";
import { formatMoney } from "~/lib/money";
import type { Services } from "../services";
import { formDataOf, parseSubmission, refuseForm } from "../forms.server";
import { clinicPlanList } from "../memberships/memberships.server";
import { UNFINISHED_PURCHASE_STATES } from "../store/stores.server";
import { currentUser, type RequestContext } from "../request-context.server";
import { siteOrigin } from "../site.server";
import { redirectWithToast } from "../toast.server";
import { OUTAGE_MESSAGE, unlessUnavailable } from "../unavailable.server";
import { clinicChoice, findItemOffer } from "./offers.server";
import { startPurchase, type Offer, type StepOutcome } from "./purchase.server";

/** A purchase is kept in the buyer's account and needs their guest record: buying asks to sign in first. */
export function signInToBuy(context: RequestContext, backTo: string): Response {
  return redirectWithToast(context, `${href("/login")}?redirectTo=${encodeURIComponent(backTo)}`, { type: "info", title: PURCHASE_MESSAGES.signIn });
}

/** The answer to a step of a purchase: the back end's page (a document of its own), or the purchase's page. */
export function stepResponse(outcome: StepOutcome): Response {
  if (outcome.kind === "redirect") return redirectDocument(outcome.uri);
  return redirect(href("/purchases/:id", { id: outcome.purchase.id }));
}

/**
 * Why the guest may not buy this plan (decision 037): one they hold, a second plan that renews by
 * itself, or a purchase of it that may have been charged and is still being finished. Read fresh
 * from the back end: a purchase is rare, and a stale list would sell a second copy.
 */
async function membershipRefusal(services: Services, user: { id: string; guestId: string }, centerId: string, offer: Offer): Promise<string | null> {
  const [plans, held, recent] = await Promise.all([
    clinicPlanList(services, centerId),
    services.spa.guestMemberships(user.guestId),
    services.stores.purchases.listForUser(user.id, 20),
  ]);
  const plan = plans?.find((p) => sameId(p.id, offer.itemId));
  const refusal = membershipPurchaseRefusal(held, { id: offer.itemId, recurring: plan?.recurring ?? false });
  if (refusal) return refusal.kind === "same" ? PURCHASE_MESSAGES.alreadyMember(refusal.name) : PURCHASE_MESSAGES.alreadyRenewing(refusal.name);
  const underWay = recent.find((p) => p.kind === "membership" && sameId(p.itemId, offer.itemId) && UNFINISHED_PURCHASE_STATES.includes(p.state));
  return underWay ? PURCHASE_MESSAGES.purchaseUnderWay(underWay.itemName) : null;
}

/** Starts buying an offer for the signed-in user; a price that changed meanwhile is refused with the new one. */
export async function buyOffer(
  request: Request,
  context: RequestContext,
  input: { user: { id: string; guestId: string }; formKey: string; offer: Offer; submission: Submission<unknown, string[], unknown>; intent?: string },
) {
  const { submission, intent } = input;
  const outcome = await unlessUnavailable(
    () => startPurchase(context.services, { userId: input.user.id, guestId: input.user.guestId, formKey: input.formKey, offer: input.offer, origin: siteOrigin(request, context) }),
    () => null,
  );
  if (!outcome) return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE], intent });
  if (outcome.kind === "price-changed") return refuseForm(submission, { status: 409, formErrors: [PURCHASE_MESSAGES.priceChanged(formatMoney(outcome.priceCents))], intent });
  return stepResponse(outcome);
}

/**
 * "Buy" on a membership plan or a package. The form names the clinic, the item, the price the page
 * showed and its key; the price charged is always the back end's, and a shown price that is not the
 * clinic's current one is refused (409) rather than charged.
 */
export async function buyItemAction(request: Request, context: RequestContext, kind: "membership" | "package", pagePath: string) {
  const { services } = context;
  const formData = await formDataOf(request);
  const submission = parseSubmission(formData, BuyItemSchema);
  const intent = typeof formData.get("itemId") === "string" ? String(formData.get("itemId")) : undefined;
  if (submission.status !== "success") return refuseForm(submission, { intent });
  const { clinic, itemId, price, purchaseKey } = submission.value;
  const user = await currentUser(context);
  if (!user) return signInToBuy(context, `${pagePath}?clinic=${encodeURIComponent(clinic)}`);
  const found = await unlessUnavailable(
    async () => {
      const { center } = await clinicChoice(services, clinic);
      return center ? { center, offer: await findItemOffer(services, kind, center, itemId) } : { center: null, offer: null };
    },
    () => null,
  );
  if (!found) return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE], intent });
  if (!found.center) return refuseForm(submission, { status: 404, fieldErrors: { clinic: ["No clinic has that address. Please choose one from the list."] }, intent });
  if (!found.offer) return refuseForm(submission, { status: 404, formErrors: [PURCHASE_MESSAGES.notSold], intent });
  if (kind === "membership") {
    const refusal = await unlessUnavailable(() => membershipRefusal(services, user, found.center!.id, found.offer!), () => OUTAGE_MESSAGE);
    if (refusal) return refuseForm(submission, { status: refusal === OUTAGE_MESSAGE ? 503 : 409, formErrors: [refusal], intent });
  }
  if (found.offer.priceCents !== price) {
    return refuseForm(submission, { status: 409, formErrors: [PURCHASE_MESSAGES.priceChanged(formatMoney(found.offer.priceCents))], intent });
  }
  return buyOffer(request, context, { user, formKey: purchaseKey, offer: found.offer, submission, intent });
}
