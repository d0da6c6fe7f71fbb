import {
  applyDiscounts,
  checkPromo,
  normalizePromoCode,
  PROMO_MESSAGES,
  type PriceLine,
  type PromoCheck,
  type PromoCode,
} from "./discounts";
import type { Cents } from "./money";

/**
 * A guest coupon (decision 044): one guest's, issued by the back end (Zenoti's custom coupons),
 * named by its number, used once, until its expiry. What it takes off is not in Zenoti's answer:
 * the chain's configuration keeps it as a coupon discount (`PromoCode.couponDiscount`) named by the
 * coupon's description, the text Zenoti prints from the discount the coupon was made from.
 */
export type GuestCoupon = {
  id: string;
  /** What the guest types, and what is applied to the invoice. */
  number: string;
  description: string;
  /** The last clinic-local day it may be used on ("YYYY-MM-DD"); null when it does not expire. */
  expiresOn: string | null;
  /** Already used (or given up) at the back end. */
  redeemed: boolean;
};

export const COUPON_MESSAGES = {
  used: (number: string) => `Coupon ${number} has already been used`,
  notForDate: "coupon not available for the selected date",
  cannotApply: (number: string) => `Coupon ${number} cannot be applied to this booking`,
  choose: "Please choose a coupon",
  gone: "That coupon is no longer available. Please choose another or type a promo code.",
} as const;

/** The key a coupon's discount is kept under: its description, as a code. */
export function couponDiscountKey(description: string): string {
  return normalizePromoCode(description);
}

/** The guest's coupon with this number (as typed: case and spaces aside), or null. */
export function findCoupon(coupons: GuestCoupon[], typed: string): GuestCoupon | null {
  const code = normalizePromoCode(typed);
  return code ? (coupons.find((c) => normalizePromoCode(c.number) === code) ?? null) : null;
}

/**
 * A coupon as a promo code on this booking: the rules of its discount, valid up to its expiry, once.
 * Null when the chain has no discount for it (nothing the storefront could show the price of).
 */
export function couponAsPromo(coupon: GuestCoupon, discount: PromoCode | null): PromoCode | null {
  if (!discount?.couponDiscount) return null;
  return {
    code: normalizePromoCode(coupon.number),
    rules: discount.rules,
    validFrom: null,
    validTo: coupon.expiresOn,
    maxUsesPerGuest: 1,
  };
}

/**
 * Whether a coupon can be used on this booking: not used at the back end nor by an earlier
 * booking here, not expired on the appointment's day, and taking something off a line. The
 * messages name the coupon (a code typed that is no coupon keeps the promo messages).
 */
export function checkCoupon(input: {
  coupon: GuestCoupon;
  discount: PromoCode | null;
  appointmentDate: string;
  lines: PriceLine[];
  usesByGuest: number;
}): PromoCheck {
  const { coupon } = input;
  const number = normalizePromoCode(coupon.number);
  if (coupon.redeemed) return { ok: false, message: COUPON_MESSAGES.used(number) };
  const promo = couponAsPromo(coupon, input.discount);
  if (!promo) return { ok: false, message: COUPON_MESSAGES.cannotApply(number) };
  const check = checkPromo({
    code: number,
    promo,
    appointmentDate: input.appointmentDate,
    lines: input.lines,
    usesByGuest: input.usesByGuest,
  });
  if (check.ok) return check;
  if (check.message === PROMO_MESSAGES.notForDate) return { ok: false, message: COUPON_MESSAGES.notForDate };
  if (check.message === PROMO_MESSAGES.notValid(number)) return { ok: false, message: COUPON_MESSAGES.used(number) };
  return { ok: false, message: COUPON_MESSAGES.cannotApply(number) };
}

export type CouponChoice = { number: string; description: string; expiresOn: string | null; saving: Cents };

/**
 * The coupons the payment step offers: those `checkCoupon` lets through for this booking, each with
 * what it takes off, the largest saving first. `discountOf` gives a coupon's discount; `usesOf`
 * how often this guest used its number here.
 */
export function usableCoupons(input: {
  coupons: GuestCoupon[];
  discountOf: (coupon: GuestCoupon) => PromoCode | null;
  usesOf: (number: string) => number;
  appointmentDate: string;
  lines: PriceLine[];
}): CouponChoice[] {
  return input.coupons
    .flatMap((coupon) => {
      const check = checkCoupon({
        coupon,
        discount: input.discountOf(coupon),
        appointmentDate: input.appointmentDate,
        lines: input.lines,
        usesByGuest: input.usesOf(normalizePromoCode(coupon.number)),
      });
      if (!check.ok) return [];
      const saving = applyDiscounts(input.lines, check.promo.rules).discount;
      return [
        {
          number: normalizePromoCode(coupon.number),
          description: coupon.description,
          expiresOn: coupon.expiresOn,
          saving,
        },
      ];
    })
    .sort((a, b) => b.saving - a.saving || a.number.localeCompare(b.number));
}
