import type { Service } from "~/domain/catalog";
import { referralOfferCode } from "~/domain/pricing";
import { isReferralTreatment } from "~/domain/referrals";
import type { Draft } from "../booking/draft.server";
import type { Services } from "../context.server";

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
  return { ...draft, promoCode: referralOfferCode(service.id, await services.stores.pricing.tiers()) };
}
