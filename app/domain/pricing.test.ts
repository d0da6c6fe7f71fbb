import { describe, expect, it } from "vitest";
import { applyDiscounts, type PriceLine } from "./discounts";
import {
  DEFAULT_PRICE_TIER,
  offerPercentOf,
  priceTierByCode,
  priceTierOf,
  referralOfferCode,
  shownPrice,
  tierAsPromo,
  type PricingTiers,
} from "./pricing";

const tiers: PricingTiers = {
  priceTiers: [
    { code: "50CHARGE", charge: 5000, serviceIds: ["facial-new", "FACIAL-2"] },
    { code: "100CHARGE", charge: 10000, serviceIds: ["peel-1"] },
  ],
  defaultPriceTier: "CUSTOMDEF",
  offerTiers: [
    { percent: 9, serviceIds: ["peel-1", "lhr-1"] },
    { percent: 25, serviceIds: ["lhr-1", "PEEL-1"] },
    { percent: 50, serviceIds: ["sculpt-1"] },
    { percent: 0, serviceIds: ["facial-new"] },
  ],
};

const line = (serviceId: string, price: number): PriceLine => ({ serviceId, kind: "service", name: serviceId, price });

describe("priceTierOf", () => {
  it("is the tier listing the service", () => {
    expect(priceTierOf("facial-new", tiers)?.code).toBe("50CHARGE");
    expect(priceTierOf("peel-1", tiers)?.code).toBe("100CHARGE");
  });

  it("compares ids whatever their case and dashes", () => {
    expect(priceTierOf("FACIAL-NEW", tiers)?.code).toBe("50CHARGE");
    expect(priceTierOf("facial-2", tiers)?.code).toBe("50CHARGE");
    expect(priceTierOf("facialnew", tiers)?.code).toBe("50CHARGE");
  });

  it("is null for a service in no tier, or with no tiers", () => {
    expect(priceTierOf("other", tiers)).toBeNull();
    expect(priceTierOf("facial-new", null)).toBeNull();
    expect(priceTierOf("facial-new", { priceTiers: [], defaultPriceTier: "X", offerTiers: [] })).toBeNull();
  });

  it("is the first tier when a service is listed in two", () => {
    const twice: PricingTiers = { ...tiers, priceTiers: [{ code: "59CHARGE", charge: 5900, serviceIds: ["a"] }, { code: "75CHARGE", charge: 7500, serviceIds: ["A"] }] };
    expect(priceTierOf("a", twice)?.code).toBe("59CHARGE");
  });
});

describe("referralOfferCode", () => {
  it("is the code of the service's tier", () => {
    expect(referralOfferCode("facial-new", tiers)).toBe("50CHARGE");
    expect(referralOfferCode("Peel-1", tiers)).toBe("100CHARGE");
  });

  it("is the tiers' default for a service in no tier", () => {
    expect(referralOfferCode("other", tiers)).toBe("CUSTOMDEF");
  });

  it("is FT50RAF with no tiers", () => {
    expect(DEFAULT_PRICE_TIER).toBe("FT50RAF");
    expect(referralOfferCode("facial-new", null)).toBe("FT50RAF");
  });
});

describe("tierAsPromo", () => {
  const tier = tiers.priceTiers[0];
  const promo = tierAsPromo(tier);

  it("is a promo with the tier's code, open-ended and unlimited", () => {
    expect(promo).toMatchObject({ code: "50CHARGE", validFrom: null, validTo: null, maxUsesPerGuest: null });
    expect(promo.rules).toEqual([
      { discount_type: "final_price", discount_value: 5000, service_id: "facial-new", service_type: "service" },
      { discount_type: "final_price", discount_value: 5000, service_id: "FACIAL-2", service_type: "service" },
    ]);
  });

  it("charges exactly the tier's charge on each listed service and nothing off the others", () => {
    const result = applyDiscounts([line("facial-new", 27500), line("facial-2", 19900), line("other", 12000)], promo.rules);
    expect(result.lines.map((l) => l.final)).toEqual([5000, 5000, 12000]);
    expect(result.lines.map((l) => l.discount)).toEqual([22500, 14900, 0]);
    expect(result).toMatchObject({ subtotal: 59400, discount: 37400, total: 22000 });
  });

  it("takes nothing off a listed service already priced at or below the charge", () => {
    const result = applyDiscounts([line("facial-new", 5000), line("FACIAL-2", 4000)], promo.rules);
    expect(result.lines.map((l) => l.final)).toEqual([5000, 4000]);
  });

  it("takes nothing off an add-on with a listed id", () => {
    const addOn: PriceLine = { serviceId: "facial-new", kind: "addon-service", name: "LED", price: 5000 };
    expect(applyDiscounts([addOn], promo.rules).lines[0].discount).toBe(0);
  });

  it("has no rules for a tier with no services", () => {
    expect(tierAsPromo({ code: "75CHARGE", charge: 7500, serviceIds: [] }).rules).toEqual([]);
  });
});

describe("priceTierByCode", () => {
  it("finds a tier by its code, any case and spacing", () => {
    expect(priceTierByCode("50CHARGE", tiers)?.charge).toBe(5000);
    expect(priceTierByCode("50charge", tiers)?.charge).toBe(5000);
    expect(priceTierByCode(" 100Charge ", tiers)?.charge).toBe(10000);
  });

  it("finds a tier whose stored code is lower case", () => {
    const lower: PricingTiers = { ...tiers, priceTiers: [{ code: "75charge", charge: 7500, serviceIds: [] }] };
    expect(priceTierByCode("75CHARGE", lower)?.charge).toBe(7500);
  });

  it("is null for an unknown code or no tiers", () => {
    expect(priceTierByCode("200CHARGE", tiers)).toBeNull();
    expect(priceTierByCode("", tiers)).toBeNull();
    expect(priceTierByCode("50CHARGE", null)).toBeNull();
  });
});

describe("offerPercentOf", () => {
  it("is the tier's percent for a service in one tier", () => {
    expect(offerPercentOf("sculpt-1", tiers)).toBe(50);
  });

  it("is the largest percent for a service in several tiers, ids compared loosely", () => {
    expect(offerPercentOf("lhr-1", tiers)).toBe(25);
    expect(offerPercentOf("peel-1", tiers)).toBe(25);
    expect(offerPercentOf("PEEL1", tiers)).toBe(25);
  });

  it("is 0 for a service in none, in a 0% tier, or with no tiers", () => {
    expect(offerPercentOf("other", tiers)).toBe(0);
    expect(offerPercentOf("facial-new", tiers)).toBe(0);
    expect(offerPercentOf("peel-1", null)).toBe(0);
  });
});

describe("shownPrice", () => {
  it("is the list price with no other price", () => {
    expect(shownPrice({ list: 27500 })).toEqual({ price: 27500, source: "list" });
    expect(shownPrice({ list: 27500, center: null, partner: null })).toEqual({ price: 27500, source: "list" });
  });

  it("is the clinic's price over the list price", () => {
    expect(shownPrice({ list: 27500, center: 19900 })).toEqual({ price: 19900, source: "center" });
  });

  it("is the partner's price over the clinic's and the list price", () => {
    expect(shownPrice({ list: 27500, center: 19900, partner: 22000 })).toEqual({ price: 22000, source: "partner" });
    expect(shownPrice({ list: 27500, partner: 15000 })).toEqual({ price: 15000, source: "partner" });
  });

  it("allows a price of 0 and one equal to the list price", () => {
    expect(shownPrice({ list: 27500, partner: 0 })).toEqual({ price: 0, source: "partner" });
    expect(shownPrice({ list: 27500, center: 0 })).toEqual({ price: 0, source: "center" });
    expect(shownPrice({ list: 27500, center: 27500 })).toEqual({ price: 27500, source: "center" });
  });

  it("ignores a price above the list price and falls back to the next", () => {
    expect(shownPrice({ list: 27500, center: 19900, partner: 27501 })).toEqual({ price: 19900, source: "center" });
    expect(shownPrice({ list: 27500, center: 30000 })).toEqual({ price: 27500, source: "list" });
    expect(shownPrice({ list: 27500, center: 30000, partner: 30000 })).toEqual({ price: 27500, source: "list" });
  });

  it("ignores a negative price", () => {
    expect(shownPrice({ list: 27500, partner: -1, center: 19900 })).toEqual({ price: 19900, source: "center" });
    expect(shownPrice({ list: 27500, center: -100 })).toEqual({ price: 27500, source: "list" });
  });

  it("ignores a price that is not a whole number of cents", () => {
    expect(shownPrice({ list: 27500, partner: 199.5, center: 19900 })).toEqual({ price: 19900, source: "center" });
    for (const bad of [0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(shownPrice({ list: 27500, center: bad, partner: bad })).toEqual({ price: 27500, source: "list" });
    }
  });
});
