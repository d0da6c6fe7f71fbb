import { describe, expect, it } from "vitest";
import { applyDiscounts, type PriceLine } from "./discounts";
import {
  DEFAULT_PRICE_TIER,
  offerCodeAsPromo,
  offerTierOf,
  priceWithOffer,
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
    { percent: 9, serviceIds: ["peel-1", "lhr-1"], code: "OFFER9" },
    { percent: 25, serviceIds: ["lhr-1", "PEEL-1"], code: "offer25" },
    { percent: 50, serviceIds: ["sculpt-1"], code: "OFFER50" },
    { percent: 0, serviceIds: ["facial-new"], code: "OFFER0" },
    { percent: 75, serviceIds: ["peel-1", "uncharged-1"], code: null },
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
    const twice: PricingTiers = {
      ...tiers,
      priceTiers: [
        { code: "59CHARGE", charge: 5900, serviceIds: ["a"] },
        { code: "75CHARGE", charge: 7500, serviceIds: ["A"] },
      ],
    };
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
    const result = applyDiscounts(
      [line("facial-new", 27500), line("facial-2", 19900), line("other", 12000)],
      promo.rules,
    );
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

describe("offerTierOf", () => {
  it("is the tier listing the service", () => {
    expect(offerTierOf("sculpt-1", tiers)).toMatchObject({ percent: 50, code: "OFFER50" });
  });

  it("is the largest percent of the tiers listing it, ids compared loosely", () => {
    expect(offerTierOf("lhr-1", tiers)?.percent).toBe(25);
    expect(offerTierOf("PEEL1", tiers)?.percent).toBe(25);
  });

  it("leaves out a tier with no code to charge it, however large", () => {
    expect(offerTierOf("peel-1", tiers)?.percent).toBe(25);
    expect(offerTierOf("uncharged-1", tiers)).toBeNull();
  });

  it("is null for a service in none, in a 0% tier, or with no tiers", () => {
    expect(offerTierOf("other", tiers)).toBeNull();
    expect(offerTierOf("facial-new", tiers)).toBeNull();
    expect(offerTierOf("peel-1", null)).toBeNull();
  });
});

describe("priceWithOffer", () => {
  it("takes the percent off, rounded to the cent as the quote rounds it", () => {
    expect(priceWithOffer(30000, { percent: 9, serviceIds: [], code: "OFFER9" })).toBe(27300);
    expect(priceWithOffer(19999, { percent: 9, serviceIds: [], code: "OFFER9" })).toBe(19999 - 1800);
    const quoted = applyDiscounts(
      [line("x", 19999)],
      [{ discount_type: "percentage", discount_value: 9, service_id: null, service_type: "service" }],
    );
    expect(priceWithOffer(19999, { percent: 9, serviceIds: [], code: "OFFER9" })).toBe(quoted.total);
  });

  it("leaves a price as it is at 0%", () => {
    expect(priceWithOffer(15000, { percent: 0, serviceIds: [], code: null })).toBe(15000);
  });
});

describe("offerCodeAsPromo", () => {
  it("prices a price tier's code as its final price", () => {
    expect(offerCodeAsPromo("50charge", tiers)?.rules[0]).toMatchObject({
      discount_type: "final_price",
      discount_value: 5000,
    });
  });

  it("prices an offer tier's code as its percent off each of its services, any case", () => {
    const promo = offerCodeAsPromo("OFFER25", tiers);
    expect(promo?.rules).toEqual([
      { discount_type: "percentage", discount_value: 25, service_id: "lhr-1", service_type: "service" },
      { discount_type: "percentage", discount_value: 25, service_id: "PEEL-1", service_type: "service" },
    ]);
    expect(applyDiscounts([line("peel-1", 17500)], promo!.rules).total).toBe(13125);
  });

  it("is null for a 0% tier's code, another code, or no tiers", () => {
    expect(offerCodeAsPromo("OFFER0", tiers)).toBeNull();
    expect(offerCodeAsPromo("WELCOME10", tiers)).toBeNull();
    expect(offerCodeAsPromo("OFFER9", null)).toBeNull();
  });
});
