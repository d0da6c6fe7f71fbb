import type { Service } from "~/domain/catalog";
import { idKey, sameId } from "~/domain/catalog";
import type { Cents } from "~/domain/money";
import {
  DEFAULT_PRICE_TIER,
  offerCodeAsPromo,
  offerTierOf,
  priceWithOffer,
  shownPrice,
  type PriceSource,
} from "~/domain/pricing";
import { serviceKind } from "~/domain/service-kinds";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";

/** A price below the list for one service here, and the offer code that charges it. */
export type OfferPrice = {
  serviceId: string;
  list: Cents;
  price: Cents;
  source: Exclude<PriceSource, "list">;
  code: string;
};

export type OfferPrices = {
  /** The partner the visit came with, by its name, when it has prices. */
  partner: { type: string; name: string } | null;
  byService: Map<string, OfferPrice>;
};

/**
 * The prices a clinic's treatments are shown and sold at for this visit (decision 032): a partner's
 * (the visit's partnerType), else the clinic's own (centerPricing), each only when a price tier can
 * charge it at the back end (a tier listing the service at exactly that price); else the chain's
 * offer tier's percent off, charged by the tier's code (decision 046). A price no tier can charge is
 * left out and logged: a price shown must be a price charged.
 */
export async function offerPrices(
  services: Services,
  input: { centerId: string; catalog: Service[]; partnerType?: string },
): Promise<OfferPrices> {
  const treatments = input.catalog.filter((s) => !s.isAddOn && s.price > 0);
  const [centerPrices, partner, storedTiers] = await Promise.all([
    services.stores.centerPricing.get(
      input.centerId,
      treatments.map((s) => s.id),
    ),
    input.partnerType ? services.stores.pricing.partner(input.partnerType) : Promise.resolve(null),
    services.stores.pricing.tiers(),
  ]);
  const tiers = storedTiers;
  const byService = new Map<string, OfferPrice>();
  for (const service of treatments) {
    const center = centerPrices.find((p) => sameId(p.serviceId, service.id))?.price ?? null;
    const partnerPrice = partner?.prices.find((p) => sameId(p.serviceId, service.id))?.price ?? null;
    // The partner's price, else the clinic's own: a price no tier charges gives way to the next one.
    for (const candidate of [{ partner: partnerPrice }, { center }]) {
      const shown = shownPrice({ list: service.price, ...candidate });
      if (shown.source === "list" || shown.price === service.price) continue;
      const tier = tiers?.priceTiers.find(
        (t) => t.charge === shown.price && t.serviceIds.some((id) => sameId(id, service.id)),
      );
      if (!tier) {
        logger.warn("offer price has no price tier to charge it", { source: shown.source, cents: shown.price });
        continue;
      }
      byService.set(idKey(service.id), {
        serviceId: service.id,
        list: service.price,
        price: shown.price,
        source: shown.source,
        code: tier.code,
      });
      break;
    }
    const offerTier = byService.has(idKey(service.id)) ? null : offerTierOf(service.id, tiers);
    const offered = offerTier ? priceWithOffer(service.price, offerTier) : service.price;
    if (offerTier && offered < service.price) {
      byService.set(idKey(service.id), {
        serviceId: service.id,
        list: service.price,
        price: offered,
        source: "offer",
        code: offerTier.code,
      });
    }
  }
  return {
    partner: partner && partner.prices.length > 0 ? { type: partner.partnerType, name: partner.name } : null,
    byService,
  };
}

export function offerFor(offers: OfferPrices, serviceId: string): OfferPrice | null {
  return offers.byService.get(idKey(serviceId)) ?? null;
}

/** The catalog with each offer's price in place of the list price: what a menu shows. */
export function withOfferPrices(catalog: Service[], offers: OfferPrices): Service[] {
  return catalog.map((s) => {
    const offer = offerFor(offers, s.id);
    return offer ? { ...s, price: offer.price } : s;
  });
}

/**
 * The catalog with the laser hair removal areas at the prices of their own collection (the spec's
 * add-on LHR prices, by service id) where it has one: what the menu, the booking steps and the
 * price summary show. The back end's invoice is still checked against it before any charge.
 */
export async function withAddOnPrices(services: Services, catalog: Service[]): Promise<Service[]> {
  const areas = catalog.filter((s) => s.isAddOn && isLaserHairRemovalArea(s.name));
  if (areas.length === 0) return catalog;
  const prices = await services.stores.pricing.addOnPrices(areas.map((s) => s.id));
  if (prices.length === 0) return catalog;
  return catalog.map((s) => {
    const own = s.isAddOn ? prices.find((p) => sameId(p.serviceId, s.id)) : undefined;
    return own && Number.isInteger(own.price) && own.price >= 0 ? { ...s, price: own.price } : s;
  });
}

function isLaserHairRemovalArea(name: string): boolean {
  const kind = serviceKind(name);
  return kind === "lhr" || kind === "partial-face";
}

/**
 * Whether a code is one of the offers the storefront puts on a booking itself (a price tier, an
 * offer tier, the referral's default tier): never accepted typed or from a link, so a partner's or a friend's price
 * goes only to the visit it is for.
 */
export async function isOfferCode(services: Services, raw: string): Promise<boolean> {
  const code = raw.trim().toUpperCase();
  if (code === DEFAULT_PRICE_TIER) return true;
  const tiers = await services.stores.pricing.tiers();
  return code === tiers?.defaultPriceTier.toUpperCase() || offerCodeAsPromo(code, tiers) !== null;
}
