import { sameId } from "./catalog";
import type { PromoCode } from "./discounts";
import type { Cents } from "./money";

/**
 * Prices beyond the back end's list price (spec sections 3 and 9): a clinic's own price
 * (centerPricing), a partner's (partnerPricing), and the tiers that charge them. A price tier is an
 * offer code the back end knows (50CHARGE ... 200CHARGE) that charges a fixed amount for each of
 * its services; FT50RAF is the default, the friend's $50 first facial. Offer tiers give a percent
 * off (0, 9, 25, 50) per service. All of it is configuration kept in the store; these are the pure
 * rules that read it.
 */
export const DEFAULT_PRICE_TIER = "FT50RAF";
export const PRICE_TIER_CODES = ["50CHARGE", "59CHARGE", "75CHARGE", "100CHARGE", "150CHARGE", "200CHARGE"] as const;
export const OFFER_TIER_PERCENTS = [0, 9, 25, 50] as const;

export type PriceTier = { code: string; charge: Cents; serviceIds: string[] };
export type OfferTier = { percent: number; serviceIds: string[] };
export type PricingTiers = { priceTiers: PriceTier[]; defaultPriceTier: string; offerTiers: OfferTier[] };

/** The price tier whose code charges this service, or null when it is in none. */
export function priceTierOf(serviceId: string, tiers: PricingTiers | null): PriceTier | null {
  return tiers?.priceTiers.find((tier) => tier.serviceIds.some((id) => sameId(id, serviceId))) ?? null;
}

/** The offer code a referred friend's treatment is priced with: its price tier's, else the default tier. */
export function referralOfferCode(serviceId: string, tiers: PricingTiers | null): string {
  return priceTierOf(serviceId, tiers)?.code ?? tiers?.defaultPriceTier ?? DEFAULT_PRICE_TIER;
}

/** A price tier as a promo code: the same discount rules (a final price per service) price it. */
export function tierAsPromo(tier: PriceTier): PromoCode {
  return {
    code: tier.code,
    rules: tier.serviceIds.map((id) => ({ discount_type: "final_price", discount_value: tier.charge, service_id: id, service_type: "service" })),
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: null,
  };
}

/** The tier with this code, any case. */
export function priceTierByCode(code: string, tiers: PricingTiers | null): PriceTier | null {
  const wanted = code.trim().toUpperCase();
  return tiers?.priceTiers.find((tier) => tier.code.toUpperCase() === wanted) ?? null;
}

/** The percent off a service gets from the offer tiers (0 when in none; the largest when in several). */
export function offerPercentOf(serviceId: string, tiers: PricingTiers | null): number {
  return (tiers?.offerTiers ?? []).filter((tier) => tier.serviceIds.some((id) => sameId(id, serviceId))).reduce((max, tier) => Math.max(max, tier.percent), 0);
}

export type PriceSource = "list" | "center" | "partner";

/**
 * The price a service is shown and sold at: a partner's price for a visit that came with a partner,
 * else the clinic's own price, else the back end's list price. A price above the list is never
 * taken (an offer only lowers a price; the back end charges at most its list price).
 */
export function shownPrice(input: { list: Cents; center?: Cents | null; partner?: Cents | null }): { price: Cents; source: PriceSource } {
  const candidates: { price: Cents; source: PriceSource }[] = [];
  if (input.partner !== null && input.partner !== undefined) candidates.push({ price: input.partner, source: "partner" });
  if (input.center !== null && input.center !== undefined) candidates.push({ price: input.center, source: "center" });
  const chosen = candidates.find((c) => Number.isInteger(c.price) && c.price >= 0 && c.price <= input.list);
  return chosen ?? { price: input.list, source: "list" };
}
