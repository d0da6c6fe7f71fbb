import { describe, expect, it } from "vitest";
import {
  checkCoupon,
  COUPON_MESSAGES,
  couponAsPromo,
  couponDiscountKey,
  findCoupon,
  usableCoupons,
  type GuestCoupon,
} from "./coupons";
import { applyDiscounts, checkPromo, PROMO_MESSAGES, type PriceLine, type PromoCode } from "./discounts";

const facial: PriceLine = { serviceId: "FT", kind: "service", name: "Facial", price: 27500 };
const led: PriceLine = { serviceId: "LED", kind: "addon-service", name: "LED", price: 5000 };

const coupon = (overrides: Partial<GuestCoupon> = {}): GuestCoupon => ({
  id: "c1",
  number: "Glow-30",
  description: "$30 off",
  expiresOn: "2026-12-31",
  redeemed: false,
  ...overrides,
});
const discount = (rules: PromoCode["rules"], couponDiscount = true): PromoCode => ({
  code: couponDiscountKey("$30 off"),
  rules,
  validFrom: null,
  validTo: null,
  maxUsesPerGuest: 1,
  couponDiscount,
});
const thirtyOff = discount([
  { discount_type: "amount", discount_value: 3000, service_id: "FT", service_type: "service" },
]);
const check = (
  c: GuestCoupon,
  d: PromoCode | null,
  overrides: Partial<{ appointmentDate: string; lines: PriceLine[]; usesByGuest: number }> = {},
) =>
  checkCoupon({
    coupon: c,
    discount: d,
    appointmentDate: "2026-12-07",
    lines: [facial, led],
    usesByGuest: 0,
    ...overrides,
  });

describe("a guest coupon", () => {
  it("is found by its number whatever the case and spaces typed", () => {
    expect(findCoupon([coupon()], "  glow-30 ")?.id).toBe("c1");
    expect(findCoupon([coupon()], "GLOW-31")).toBeNull();
    expect(findCoupon([coupon()], "   ")).toBeNull();
  });

  it("is priced by its discount's rules, once, up to its expiry", () => {
    expect(couponAsPromo(coupon(), thirtyOff)).toEqual({
      code: "GLOW-30",
      rules: thirtyOff.rules,
      validFrom: null,
      validTo: "2026-12-31",
      maxUsesPerGuest: 1,
    });
    // A promo code's record is not a coupon's discount.
    expect(couponAsPromo(coupon(), discount(thirtyOff.rules, false))).toBeNull();
    expect(couponAsPromo(coupon(), null)).toBeNull();
  });

  it("applies on its last day and to the lines its discount names", () => {
    const ok = check(coupon(), thirtyOff, { appointmentDate: "2026-12-31" });
    expect(ok.ok && applyDiscounts([facial, led], ok.promo.rules)).toMatchObject({ discount: 3000, total: 29500 });
  });

  it("says why not, naming the coupon: used, expired, nothing to take off, no discount known", () => {
    expect(check(coupon({ redeemed: true }), thirtyOff)).toEqual({
      ok: false,
      message: COUPON_MESSAGES.used("GLOW-30"),
    });
    expect(check(coupon(), thirtyOff, { usesByGuest: 1 })).toEqual({
      ok: false,
      message: COUPON_MESSAGES.used("GLOW-30"),
    });
    expect(check(coupon(), thirtyOff, { appointmentDate: "2027-01-01" })).toEqual({
      ok: false,
      message: COUPON_MESSAGES.notForDate,
    });
    expect(check(coupon(), thirtyOff, { lines: [led] })).toEqual({
      ok: false,
      message: COUPON_MESSAGES.cannotApply("GLOW-30"),
    });
    expect(check(coupon(), null)).toEqual({ ok: false, message: COUPON_MESSAGES.cannotApply("GLOW-30") });
  });

  it("never expires when it has no expiry day", () => {
    expect(check(coupon({ expiresOn: null }), thirtyOff, { appointmentDate: "2099-12-31" }).ok).toBe(true);
  });
});

describe("the coupons the payment step offers", () => {
  const enhancements = {
    ...discount([{ discount_type: "percentage", discount_value: 20, service_id: null, service_type: "addon-service" }]),
    code: "20% OFF",
  };
  const coupons = [
    coupon({ number: "A20", description: "20% off" }),
    coupon({ number: "B30" }),
    coupon({ number: "USED", redeemed: true }),
    coupon({ number: "OLD", expiresOn: "2026-12-01" }),
    coupon({ number: "ODD", description: "unknown" }),
  ];
  const discountOf = (c: GuestCoupon) =>
    c.description === "20% off" ? enhancements : c.description === "$30 off" ? thirtyOff : null;

  it("are the usable ones, each with its saving in cents, the largest first", () => {
    expect(
      usableCoupons({ coupons, discountOf, usesOf: () => 0, appointmentDate: "2026-12-07", lines: [facial, led] }),
    ).toEqual([
      { number: "B30", description: "$30 off", expiresOn: "2026-12-31", saving: 3000 },
      { number: "A20", description: "20% off", expiresOn: "2026-12-31", saving: 1000 },
    ]);
  });

  it("leave out one this guest already used here, and those with nothing to take off", () => {
    expect(
      usableCoupons({
        coupons,
        discountOf,
        usesOf: (n) => (n === "B30" ? 1 : 0),
        appointmentDate: "2026-12-07",
        lines: [facial],
      }),
    ).toEqual([]);
  });
});

describe("the $200-off promo", () => {
  const promo: PromoCode = {
    code: "GLOW200",
    rules: [{ discount_type: "amount", discount_value: 20000, service_id: "FT", service_type: "service" }],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: 1,
  };

  it("takes $200 off the new client's facial, and never more than its price", () => {
    const ok = checkPromo({
      code: "glow200",
      promo,
      appointmentDate: "2026-12-07",
      lines: [facial, led],
      usesByGuest: 0,
    });
    expect(ok.ok && applyDiscounts([facial, led], ok.promo.rules)).toMatchObject({ discount: 20000, total: 12500 });
    const cheap: PriceLine = { ...facial, price: 15000 };
    expect(applyDiscounts([cheap], promo.rules)).toMatchObject({ discount: 15000, total: 0 });
  });

  it("is once per guest, and not for other treatments", () => {
    expect(
      checkPromo({ code: "GLOW200", promo, appointmentDate: "2026-12-07", lines: [facial], usesByGuest: 1 }),
    ).toEqual({ ok: false, message: PROMO_MESSAGES.notValid("GLOW200") });
    expect(
      checkPromo({
        code: "GLOW200",
        promo,
        appointmentDate: "2026-12-07",
        lines: [{ ...facial, serviceId: "PEEL" }],
        usesByGuest: 0,
      }),
    ).toEqual({
      ok: false,
      message: PROMO_MESSAGES.cannotApply("GLOW200"),
    });
  });
});
