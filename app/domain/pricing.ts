import { sameId } from "./catalog";
import { discountFor, type DiscountRule, type PromoCode } from "./discounts";
import type { Cents } from "./money";

/**
 * Prices beyond the back end's list price (spec sections 3 and 9): a clinic's own price
 * (centerPricing), a partner's (partnerPricing), and the tiers that charge them. A price tier is an
 * offer code the back end knows (50CHARGE ... 200CHARGE) that charges a fixed amount for each of
 * its services; FT50RAF is the default, the friend's $50 first facial. Offer tiers give a percent
 * off (0, 9, 25, 50) per service, charged through the back end's campaign of the tier's code
 * (decision 046). All of it is configuration kept in the store; these are the pure rules that read it.
 */
export const DEFAULT_PRICE_TIER = "FT50RAF";
export const PRICE_TIER_CODES = ["50CHARGE", "59CHARGE", "75CHARGE", "100CHARGE", "150CHARGE", "200CHARGE"] as const;
export const OFFER_TIER_PERCENTS = [0, 9, 25, 50] as const;

export type PriceTier = { code: string; charge: Cents; serviceIds: string[] };
/** A percent off each of its services; `code` is the back end's campaign that charges it (null: none, so never offered). */
export type OfferTier = { percent: number; serviceIds: string[]; code: string | null };
export type PricingTiers = { priceTiers: PriceTier[]; defaultPriceTier: string; offerTiers: OfferTier[] };

/** The price tier whose code charges this service, or null when it is in none. */
export function priceTierOf(serviceId: string, tiers: PricingTiers | null): PriceTier | null {
  return tiers?.priceTiers.find((tier) => tier.serviceIds.some((id) => sameId(id, serviceId))) ?? null;
}

/** The offer code a referred friend's treatment is priced with: its price tier's, else the default tier. */
export function referralOfferCode(serviceId: string, tiers: PricingTiers | null): string {
  return priceTierOf(serviceId, tiers)?.code ?? tiers?.defaultPriceTier ?? DEFAULT_PRICE_TIER;
}

/** A tier as a promo code: one rule of this type and value on each of its services, for any date and guest. */
function tierPromo(
  code: string,
  serviceIds: string[],
  discount: Pick<DiscountRule, "discount_type" | "discount_value">,
): PromoCode {
  return {
    code,
    rules: serviceIds.map((id) => ({ ...discount, service_id: id, service_type: "service" })),
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: null,
  };
}

/** A price tier as a promo code: the same discount rules (a final price per service) price it. */
export function tierAsPromo(tier: PriceTier): PromoCode {
  return tierPromo(tier.code, tier.serviceIds, { discount_type: "final_price", discount_value: tier.charge });
}

/** The tier with this code, any case. */
export function priceTierByCode(code: string, tiers: PricingTiers | null): PriceTier | null {
  const wanted = code.trim().toUpperCase();
  return tiers?.priceTiers.find((tier) => tier.code.toUpperCase() === wanted) ?? null;
}

/**
 * The offer tier a service is sold with: of the tiers listing it with a percent above 0 and a code
 * the back end charges it with, the one taking the most off. Null when none does (a 0% tier lists a
 * service that has no percent offer).
 */
export function offerTierOf(serviceId: string, tiers: PricingTiers | null): (OfferTier & { code: string }) | null {
  const offering = (tiers?.offerTiers ?? []).filter(
    (tier): tier is OfferTier & { code: string } =>
      tier.percent > 0 && Boolean(tier.code) && tier.serviceIds.some((id) => sameId(id, serviceId)),
  );
  return offering.reduce<(OfferTier & { code: string }) | null>(
    (best, tier) => (best && best.percent >= tier.percent ? best : tier),
    null,
  );
}

/** An offer tier as a promo code: a percentage off each of its services, priced by the same rules. */
export function offerTierAsPromo(tier: OfferTier & { code: string }): PromoCode {
  return tierPromo(tier.code, tier.serviceIds, { discount_type: "percentage", discount_value: tier.percent });
}

/** A price less an offer tier's percent: the same rule, and the same rounding to the cent, as the quote's. */
export function priceWithOffer(price: Cents, tier: OfferTier): Cents {
  return (
    price -
    discountFor(
      { discount_type: "percentage", discount_value: tier.percent, service_id: null, service_type: "service" },
      price,
    )
  );
}

/** The promo rules of a code the storefront puts on a booking itself (a price tier or an offer tier), any case; null for another code. */
export function offerCodeAsPromo(code: string, tiers: PricingTiers | null): PromoCode | null {
  const priceTier = priceTierByCode(code, tiers);
  if (priceTier) return tierAsPromo(priceTier);
  const wanted = code.trim().toUpperCase();
  const offerTier = tiers?.offerTiers.find(
    (tier): tier is OfferTier & { code: string } => tier.percent > 0 && tier.code?.toUpperCase() === wanted,
  );
  return offerTier ? offerTierAsPromo(offerTier) : null;
}

export type PriceSource = "list" | "center" | "partner" | "offer";

/**
 * The price a service is shown and sold at: a partner's price for a visit that came with a partner,
 * else the clinic's own price, else the back end's list price. A price above the list is never
 * taken (an offer only lowers a price; the back end charges at most its list price).
 */
export function shownPrice(input: { list: Cents; center?: Cents | null; partner?: Cents | null }): {
  price: Cents;
  source: PriceSource;
} {
  const candidates: { price: Cents; source: PriceSource }[] = [];
  if (input.partner !== null && input.partner !== undefined)
    candidates.push({ price: input.partner, source: "partner" });
  if (input.center !== null && input.center !== undefined) candidates.push({ price: input.center, source: "center" });
  const chosen = candidates.find((c) => Number.isInteger(c.price) && c.price >= 0 && c.price <= input.list);
  return chosen ?? { price: input.list, source: "list" };
}
