import { describe, expect, it } from "vitest";
import {
  applyDiscounts,
  checkPromo,
  withMemberPrices,
  discountFor,
  PROMO_MESSAGES,
  ruleFromDollars,
  ruleToDollars,
  type DiscountRule,
  type PriceLine,
  type PromoCode,
} from "./discounts";

const facial: PriceLine = { serviceId: "FT", kind: "service", name: "Facial", price: 27500 };
const led: PriceLine = { serviceId: "LED", kind: "addon-service", name: "LED", price: 5000 };
const fixer: PriceLine = { serviceId: "FIX", kind: "addon-fixer", name: "Fixer", price: 4000 };

const percent = (value: number): DiscountRule => ({
  discount_type: "percentage",
  discount_value: value,
  service_id: null,
  service_type: "service",
});
const line = (serviceId: string, price: number): PriceLine => ({ serviceId, kind: "service", name: serviceId, price });

describe("discount rules", () => {
  it("computes percentage (rounded to the cent), amount and final price, all in cents", () => {
    expect(discountFor(percent(9), 19999)).toBe(1800);
    expect(discountFor(percent(25), 5950)).toBe(1488);
    expect(
      discountFor({ discount_type: "amount", discount_value: 2000, service_id: null, service_type: "service" }, 1500),
    ).toBe(1500);
    expect(
      discountFor(
        { discount_type: "final_price", discount_value: 5000, service_id: null, service_type: "service" },
        27500,
      ),
    ).toBe(22500);
    expect(
      discountFor(
        { discount_type: "final_price", discount_value: 30000, service_id: null, service_type: "service" },
        27500,
      ),
    ).toBe(0);
  });

  it("rounds a percentage to the nearest cent, half a cent up, with no float drift", () => {
    // 10% of $19.99 is $1.999; in dollars 19.99 * 10 / 100 is 1.9989999999999999.
    expect(discountFor(percent(10), 1999)).toBe(200);
    // Exactly half a cent: 50% of $10.05 is $5.025, and 15% of $0.10 is $0.015.
    expect(discountFor(percent(50), 1005)).toBe(503);
    expect(discountFor(percent(15), 10)).toBe(2);
    // 1% of $1.49 is 1.49 cents: down to 1.
    expect(discountFor(percent(1), 149)).toBe(1);
    expect(discountFor(percent(100), 1999)).toBe(1999);
    expect(discountFor(percent(150), 1999)).toBe(1999);
    expect(discountFor(percent(10), 0)).toBe(0);
    for (const rule of [percent(10), percent(33)]) {
      for (const price of [1, 10, 99, 1999, 5950, 27500, 33333])
        expect(Number.isInteger(discountFor(rule, price))).toBe(true);
    }
  });

  it("never takes off more than the price, nor less than nothing", () => {
    expect(
      discountFor({ discount_type: "amount", discount_value: -500, service_id: null, service_type: "service" }, 1500),
    ).toBe(0);
    expect(
      discountFor(
        { discount_type: "final_price", discount_value: 1500, service_id: null, service_type: "service" },
        1500,
      ),
    ).toBe(0);
    expect(discountFor(percent(10), -100)).toBe(0);
  });

  it("sums lines in whole cents: three lines whose dollar sum drifts add up exactly", () => {
    // In dollars 0.1 + 0.2 + 19.99 is 20.290000000000003, and 10% of each line sums to 2.0290000000000004.
    const result = applyDiscounts([line("A", 10), line("B", 20), line("C", 1999)], [percent(10)]);
    expect(result.lines.map((l) => [l.discount, l.final])).toEqual([
      [1, 9],
      [2, 18],
      [200, 1799],
    ]);
    expect(result).toMatchObject({ subtotal: 2029, discount: 203, total: 1826 });
    expect(result.total).toBe(result.lines.reduce((sum, l) => sum + l.final, 0));
  });

  it("rounds each line on its own, so the summary matches an invoice line by line", () => {
    // 10% of $19.95 is 199.5 cents, 200 on each line: 600 in all, where 10% of the $59.85 subtotal would be 599.
    const result = applyDiscounts([line("A", 1995), line("B", 1995), line("C", 1995)], [percent(10)]);
    expect(result).toMatchObject({ subtotal: 5985, discount: 600, total: 5385 });
  });

  it("applies the best matching rule per line, by service type and optional service id", () => {
    const result = applyDiscounts(
      [facial, led, fixer],
      [
        { discount_type: "final_price", discount_value: 5000, service_id: "ft", service_type: "service" },
        { discount_type: "percentage", discount_value: 10, service_id: null, service_type: "service" },
        { discount_type: "amount", discount_value: 2000, service_id: null, service_type: "addon-service" },
        { discount_type: "percentage", discount_value: 100, service_id: "FIX", service_type: "addon-fixer" },
      ],
    );
    expect(result.lines.map((l) => l.discount)).toEqual([22500, 2000, 4000]);
    expect(result).toMatchObject({ subtotal: 36500, discount: 28500, total: 8000 });
  });
});

describe("rules kept in dollars elsewhere", () => {
  it("turns amounts and final prices into cents and back; a percentage stays", () => {
    const rules: DiscountRule[] = [
      { discount_type: "amount", discount_value: 19.99, service_id: null, service_type: "addon-service" },
      { discount_type: "final_price", discount_value: 50, service_id: "FT", service_type: "service" },
      percent(12.5),
    ];
    const inCents = rules.map(ruleFromDollars);
    expect(inCents.map((r) => r.discount_value)).toEqual([1999, 5000, 12.5]);
    expect(inCents.map(ruleToDollars)).toEqual(rules);
  });
});

describe("promo checks", () => {
  const promo: PromoCode = {
    code: "GLOW50",
    rules: [{ discount_type: "final_price", discount_value: 5000, service_id: "FT", service_type: "service" }],
    validFrom: "2026-12-01",
    validTo: "2026-12-31",
    maxUsesPerGuest: 1,
  };
  const base = { code: "glow50", promo, appointmentDate: "2026-12-07", lines: [facial], usesByGuest: 0 };

  it("accepts a code that fits", () => {
    expect(checkPromo(base)).toEqual({ ok: true, promo });
  });
  it("says what is wrong otherwise, in the spec's words", () => {
    expect(checkPromo({ ...base, code: "  " })).toEqual({ ok: false, message: PROMO_MESSAGES.empty });
    expect(checkPromo({ ...base, promo: null })).toEqual({ ok: false, message: "Invalid Promo Code" });
    expect(checkPromo({ ...base, appointmentDate: "2027-01-04" })).toEqual({
      ok: false,
      message: "promo not available for the selected date",
    });
    expect(checkPromo({ ...base, usesByGuest: 1 })).toEqual({ ok: false, message: "Promo code GLOW50 is not valid" });
    expect(checkPromo({ ...base, lines: [led] })).toEqual({
      ok: false,
      message: "Promo code GLOW50 cannot be applied",
    });
  });
});

describe("member prices with a promo", () => {
  const lines: PriceLine[] = [
    { serviceId: "facial", kind: "service", name: "Facial", price: 19_900 },
    { serviceId: "led", kind: "addon-service", name: "LED", price: 4_950 },
    { serviceId: "lhr", kind: "addon-service", name: "LHR", price: 9_900 },
  ];
  const percent = (serviceId: string) => (serviceId === "lhr" ? 0 : 10);

  it("takes the plan's percent off each line it covers, to the cent, half up", () => {
    const { lines: priced, promoDiscount, memberDiscount } = withMemberPrices(applyDiscounts(lines, []).lines, percent);
    expect(priced.map((l) => l.discount)).toEqual([1_990, 495, 0]);
    expect(withMemberPrices(applyDiscounts([{ ...lines[0], price: 4_995 }], []).lines, percent).memberDiscount).toBe(
      500,
    );
    expect(promoDiscount).toBe(0);
    expect(memberDiscount).toBe(2_485);
  });

  it("never stacks on a promo: each line takes the larger discount, counted as the promo's or the member's", () => {
    const promo: DiscountRule[] = [
      { discount_type: "amount", discount_value: 5_000, service_id: "facial", service_type: "service" },
    ];
    const {
      lines: priced,
      promoDiscount,
      memberDiscount,
    } = withMemberPrices(applyDiscounts(lines, promo).lines, percent);
    expect(priced.map((l) => l.discount)).toEqual([5_000, 495, 0]);
    expect(promoDiscount).toBe(5_000);
    expect(memberDiscount).toBe(495);
  });

  it("is nothing for a non-member", () => {
    expect(withMemberPrices(applyDiscounts(lines, []).lines, () => 0)).toMatchObject({
      promoDiscount: 0,
      memberDiscount: 0,
    });
  });
});
