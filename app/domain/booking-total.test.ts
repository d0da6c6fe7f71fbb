import { describe, expect, it } from "vitest";
import { bookingTotal, chosenLines, type TotalInputs } from "./booking-total";
import type { PriceLine } from "./discounts";
import { offerTierAsPromo, tierAsPromo } from "./pricing";

const facial: PriceLine = { serviceId: "FACIAL-1", kind: "service", name: "Signature Laser Facial", price: 27500 };
const led: PriceLine = { serviceId: "LED-1", kind: "addon-service", name: "LED", price: 5000 };
const mask: PriceLine = { serviceId: "MASK-1", kind: "addon-service", name: "Mask", price: 4500 };
const fixer: PriceLine = { serviceId: "FIXER-1", kind: "addon-fixer", name: "Fixer", price: 0 };
const lhr: PriceLine = { serviceId: "LHR-1", kind: "service", name: "Laser Hair Removal", price: 0 };
const underarms: PriceLine = { serviceId: "AREA-UA", kind: "addon-service", name: "Underarms", price: 9900 };
const legs: PriceLine = { serviceId: "AREA-LEGS", kind: "addon-service", name: "Lower legs", price: 19900 };
const sculpting: PriceLine = { serviceId: "SCULPT-1", kind: "service", name: "Sculpting", price: 60000 };

const none: TotalInputs = { rules: [], memberPercents: {}, packageSession: false };

describe("bookingTotal", () => {
  it("a plain treatment costs its price", () => {
    expect(bookingTotal([sculpting], none)).toMatchObject({ subtotal: 60000, total: 60000, packageCovers: 0 });
  });

  it("adds each add-on chosen, and a free fixer adds nothing", () => {
    const total = bookingTotal(chosenLines([facial, led, mask, fixer], ["LED-1", "FIXER-1"]), none);
    expect(total.lines.map((l) => l.serviceId)).toEqual(["FACIAL-1", "LED-1", "FIXER-1"]);
    expect(total).toMatchObject({ subtotal: 32500, total: 32500 });
  });

  it("a laser treatment priced by its areas costs the areas chosen, and nothing before one is", () => {
    const lines = [lhr, underarms, legs];
    expect(bookingTotal(chosenLines(lines, []), none)).toMatchObject({ subtotal: 0, total: 0 });
    expect(bookingTotal(chosenLines(lines, ["AREA-UA", "AREA-LEGS"]), none).total).toBe(29800);
  });

  it("a member's percent comes off each service it covers, rounded to the cent per line", () => {
    const total = bookingTotal([facial, led], { ...none, memberPercents: { facial1: 15 } });
    // 15% of $275.00 is $41.25; the add-on is not in the plan.
    expect(total).toMatchObject({ subtotal: 32500, memberDiscount: 4125, promoDiscount: 0, total: 28375 });
  });

  it("a package session pays for the treatment after its discount; the add-ons are still paid", () => {
    const total = bookingTotal([facial, led], { ...none, packageSession: true });
    expect(total).toMatchObject({ subtotal: 32500, packageCovers: 27500, total: 5000 });
    const member = bookingTotal([facial, led], { ...none, packageSession: true, memberPercents: { led1: 10 } });
    expect(member).toMatchObject({ packageCovers: 27500, memberDiscount: 500, total: 4500 });
  });

  it("a promo code's best rule comes off each line it matches, and a member's price wins only where it is more", () => {
    const inputs: TotalInputs = {
      rules: [
        { discount_type: "amount", discount_value: 2000, service_id: null, service_type: "addon-service" },
        { discount_type: "percentage", discount_value: 10, service_id: "facial-1", service_type: "service" },
      ],
      memberPercents: { facial1: 20 },
      packageSession: false,
    };
    const total = bookingTotal([facial, led], inputs);
    // The facial: the member's 20% ($55) beats the promo's 10%; the LED: the promo's $20.
    expect(total).toMatchObject({ memberDiscount: 5500, promoDiscount: 2000, total: 25000 });
  });

  it("an offer price is the tier's final price or percent, as the quote charges it", () => {
    const priceTier = tierAsPromo({ code: "100CHARGE", charge: 10000, serviceIds: ["FACIAL-1"] });
    expect(bookingTotal([facial, led], { ...none, rules: priceTier.rules }).total).toBe(15000);
    const offerTier = offerTierAsPromo({ percent: 25, serviceIds: ["FACIAL-1"], code: "OFFER25" });
    // 25% of $275.00 is $68.75: the add-on is not in the tier.
    expect(bookingTotal([facial, led], { ...none, rules: offerTier.rules }).total).toBe(25625);
  });

  it("a rule for an option not chosen takes nothing off", () => {
    const rules = [
      {
        discount_type: "percentage" as const,
        discount_value: 50,
        service_id: "MASK-1",
        service_type: "addon-service" as const,
      },
    ];
    expect(bookingTotal(chosenLines([facial, led, mask], ["LED-1"]), { ...none, rules }).total).toBe(32500);
    expect(bookingTotal(chosenLines([facial, led, mask], ["MASK-1"]), { ...none, rules }).total).toBe(29750);
  });
});

describe("chosenLines", () => {
  it("keeps the treatment first and leaves out ids that are not its options, once each", () => {
    const lines = chosenLines([facial, led, mask], ["mask-1", "OTHER", "MASK-1", "LED-1"]);
    expect(lines.map((l) => l.serviceId)).toEqual(["FACIAL-1", "MASK-1", "LED-1"]);
    expect(chosenLines([], ["LED-1"])).toEqual([]);
  });
});
