import type { Service } from "~/domain/catalog";
import { referralOfferCode } from "~/domain/pricing";
import { isReferralTreatment } from "~/domain/referrals";
import { isOfferCode, offerFor, offerPrices } from "../pricing/offer-prices.server";
import type { Services } from "../services";
import type { Draft } from "./draft.server";

/**
 * A referred friend's first signature facial is priced with the referral offer code (the
 * treatment's price tier, FT50RAF by default) through the same rules as a typed promo code, and is
 * charged through the back end's campaign of that code. Put on the draft once, when the payment
 * step is first shown; a guest who removes it, or types another code, keeps their choice.
 */
export async function withReferralOffer(services: Services, draft: Draft, service: Service): Promise<Draft> {
  const email = draft.details?.email;
  if (draft.promoCode || !email || !isReferralTreatment(service.name)) return draft;
  const referral = await services.stores.referrals.forFriend(email);
  if (!referral || referral.state !== "registered") return draft;
  const code = referralOfferCode(service.id, await services.stores.pricing.tiers());
  // Once per friend: a friend who already booked with it (a second booking before the first visit) pays the usual price.
  const used = (await services.stores.guestDetails.get(email))?.promo_codes[code] ?? 0;
  return used > 0 ? draft : { ...draft, promoCode: code };
}

/**
 * The offer a booking starts with at the payment step, when the guest has no code of their own: a
 * referred friend's, else the price tier that charges the treatment's partner or clinic price (the
 * price the menu showed). Offer codes are never typed (`isOfferCode`), so one on the draft was put
 * there by this and may be replaced.
 */
export async function withAutomaticOffer(
  services: Services,
  draft: Draft,
  input: { service: Service; catalog: Service[]; partnerType?: string },
): Promise<Draft> {
  // A code the guest typed stays; an offer put here before (for another treatment or visit) is worked out again.
  if (draft.promoCode && !(await isOfferCode(services, draft.promoCode))) return draft;
  draft = { ...draft, promoCode: undefined };
  const referred = await withReferralOffer(services, draft, input.service);
  if (referred.promoCode) return referred;
  const offers = await offerPrices(services, {
    centerId: draft.centerId,
    catalog: input.catalog,
    partnerType: input.partnerType,
  });
  const offer = offerFor(offers, input.service.id);
  return offer ? { ...draft, promoCode: offer.code } : draft;
}

/**
 * The draft as the payment step prices it: with the offer it starts with until the step was first
 * shown (it then has a pay key and keeps what the guest chose). The booking bar prices the same.
 */
export async function draftAsPriced(
  services: Services,
  draft: Draft,
  input: { service: Service; catalog: Service[]; partnerType?: string },
): Promise<Draft> {
  return draft.payKey ? draft : withAutomaticOffer(services, draft, input);
}
