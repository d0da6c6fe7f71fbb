import { describe, expect, it } from "vitest";
import { benefitCents, campaignDiscounts, toCents, type CampaignBenefit, type CampaignLine } from "./campaigns";

const facial: CampaignLine = { serviceId: "FACIAL-ID", kind: "service", priceCents: 27500 };
const led: CampaignLine = { serviceId: "LED-ID", kind: "addon-service", priceCents: 5000 };
const fixer: CampaignLine = { serviceId: "FIXER-ID", kind: "addon-fixer", priceCents: 2500 };
const benefit = (b: Partial<CampaignBenefit>): CampaignBenefit => ({
  discount_type: "percentage",
  discount_value: 10,
  service_id: null,
  service_type: "service",
  ...b,
});

describe("benefitCents", () => {
  it("a percentage, rounded to the nearest cent", () => {
    expect(benefitCents(benefit({ discount_value: 10 }), 27500)).toBe(2750);
    expect(benefitCents(benefit({ discount_value: 15 }), 1999)).toBe(300); // 299.85
    expect(benefitCents(benefit({ discount_value: 12.5 }), 1004)).toBe(126); // 125.5
    expect(benefitCents(benefit({ discount_value: 150 }), 1000)).toBe(1000);
  });

  it("an amount off, in dollars, never more than the price", () => {
    expect(benefitCents(benefit({ discount_type: "amount", discount_value: 20 }), 5000)).toBe(2000);
    expect(benefitCents(benefit({ discount_type: "amount", discount_value: 19.99 }), 5000)).toBe(1999);
    expect(benefitCents(benefit({ discount_type: "amount", discount_value: 80 }), 5000)).toBe(5000);
    expect(benefitCents(benefit({ discount_type: "amount", discount_value: -5 }), 5000)).toBe(0);
  });

  it("a final price: what is left to pay, never a price rise", () => {
    expect(benefitCents(benefit({ discount_type: "final_price", discount_value: 50 }), 27500)).toBe(22500);
    expect(benefitCents(benefit({ discount_type: "final_price", discount_value: 300 }), 27500)).toBe(0);
    expect(benefitCents(benefit({ discount_type: "final_price", discount_value: 0 }), 27500)).toBe(27500);
  });

  it("nothing off a free line", () => {
    expect(benefitCents(benefit({ discount_type: "final_price", discount_value: 0 }), 0)).toBe(0);
  });
});

describe("campaignDiscounts", () => {
  it("a benefit for a kind of line reaches every line of that kind only", () => {
    expect(
      campaignDiscounts(
        [facial, led, fixer],
        [benefit({ service_type: "addon-service", discount_type: "amount", discount_value: 20 })],
      ),
    ).toEqual([0, 2000, 0]);
  });

  it("a benefit for one service reaches that service only, whatever the id's case", () => {
    const glow = benefit({ discount_type: "final_price", discount_value: 50, service_id: "facial-id" });
    expect(campaignDiscounts([facial, { ...facial, serviceId: "OTHER" }], [glow])).toEqual([22500, 0]);
  });

  it("the best benefit wins on a line; benefits never add up", () => {
    const benefits = [
      benefit({ discount_value: 10 }),
      benefit({ discount_type: "amount", discount_value: 30 }),
      benefit({ discount_value: 5 }),
    ];
    expect(campaignDiscounts([facial], benefits)).toEqual([3000]);
  });

  it("no campaign, no discount", () => {
    expect(campaignDiscounts([facial, led], [])).toEqual([0, 0]);
  });
});

describe("toCents", () => {
  it("takes dollars to the cent they mean", () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
  });
});
