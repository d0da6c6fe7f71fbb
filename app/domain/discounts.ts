import { sameId } from "./catalog";
import { centsFromDollars, dollarsFromCents, percentOf, sumCents, type Cents } from "./money";

/**
 * Discount rules (spec sections 3 and 9): a rule has a type (percentage, amount, final_price), a
 * value, and the kind of line it applies to (service, addon-service, addon-fixer), optionally one
 * service id. Pure, so the app's price summary and the sandbox's invoice agree to the cent. Every
 * amount is in cents and every step is integer arithmetic: a percentage is rounded to the cent on
 * each line, and totals are sums of whole cents.
 */
export type DiscountType = "percentage" | "amount" | "final_price";
export type DiscountServiceType = "service" | "addon-service" | "addon-fixer";

export type DiscountRule = {
  discount_type: DiscountType;
  /** A percent for "percentage"; cents for "amount" (taken off) and "final_price" (what is left to pay). */
  discount_value: number;
  /** Null: every line of the service type. */
  service_id: string | null;
  service_type: DiscountServiceType;
};

/**
 * A rule from a place that keeps amounts in decimal dollars (Zenoti's campaigns, the shared
 * Firestore documents) in cents; a percentage stays a percentage.
 */
export function ruleFromDollars(rule: DiscountRule): DiscountRule {
  return rule.discount_type === "percentage"
    ? rule
    : { ...rule, discount_value: centsFromDollars(rule.discount_value) };
}

/** The other way, for a document kept in dollars. */
export function ruleToDollars(rule: DiscountRule): DiscountRule {
  return rule.discount_type === "percentage"
    ? rule
    : { ...rule, discount_value: dollarsFromCents(rule.discount_value) };
}

export type PriceLine = { serviceId: string; kind: DiscountServiceType; name: string; price: Cents };
export type DiscountedLine = PriceLine & { discount: Cents; final: Cents };

/** What one rule takes off one price; never more than the price, never negative. */
export function discountFor(rule: DiscountRule, price: Cents): Cents {
  if (price <= 0) return 0;
  switch (rule.discount_type) {
    case "percentage":
      return Math.min(price, percentOf(price, rule.discount_value));
    case "amount":
      return Math.min(price, Math.max(0, rule.discount_value));
    case "final_price":
      return Math.max(0, price - rule.discount_value);
  }
}

export function ruleMatches(rule: DiscountRule, line: PriceLine): boolean {
  return rule.service_type === line.kind && (rule.service_id === null || sameId(rule.service_id, line.serviceId));
}

/** Each line gets the best rule that matches it; rules do not stack on one line. */
export function applyDiscounts(
  lines: PriceLine[],
  rules: DiscountRule[],
): { lines: DiscountedLine[]; subtotal: Cents; discount: Cents; total: Cents } {
  const discounted = lines.map((line) => {
    const best = rules
      .filter((r) => ruleMatches(r, line))
      .reduce((max, r) => Math.max(max, discountFor(r, line.price)), 0);
    return { ...line, discount: best, final: line.price - best };
  });
  const subtotal = sumCents(lines.map((l) => l.price));
  const discount = sumCents(discounted.map((l) => l.discount));
  return { lines: discounted, subtotal, discount, total: subtotal - discount };
}

export type PromoCode = {
  code: string;
  rules: DiscountRule[];
  /** Inclusive appointment dates, YYYY-MM-DD; null for open-ended. */
  validFrom: string | null;
  validTo: string | null;
  /** Times one guest may use it; null for no limit. */
  maxUsesPerGuest: number | null;
  /**
   * True: not a code to type, but what the guest coupons with this description take off; the code
   * is the coupon's description in upper case (decision 044).
   */
  couponDiscount?: boolean;
};

export type PromoCheck = { ok: true; promo: PromoCode } | { ok: false; message: string };

export const PROMO_MESSAGES = {
  empty: "Promo Code cannot be empty",
  unknown: "Invalid Promo Code",
  notForDate: "promo not available for the selected date",
  cannotApply: (code: string) => `Promo code ${code} cannot be applied`,
  notValid: (code: string) => `Promo code ${code} is not valid`,
} as const;

export function normalizePromoCode(raw: string): string {
  return raw.trim().toUpperCase();
}

/**
 * Whether a code can be used on this booking: it exists, the appointment date is in its window,
 * the guest has uses left, and at least one rule matches a line.
 */
export function checkPromo(input: {
  code: string;
  promo: PromoCode | null;
  appointmentDate: string;
  lines: PriceLine[];
  usesByGuest: number;
}): PromoCheck {
  const code = normalizePromoCode(input.code);
  if (!code) return { ok: false, message: PROMO_MESSAGES.empty };
  const { promo } = input;
  if (!promo) return { ok: false, message: PROMO_MESSAGES.unknown };
  if (
    (promo.validFrom && input.appointmentDate < promo.validFrom) ||
    (promo.validTo && input.appointmentDate > promo.validTo)
  ) {
    return { ok: false, message: PROMO_MESSAGES.notForDate };
  }
  if (promo.maxUsesPerGuest !== null && input.usesByGuest >= promo.maxUsesPerGuest) {
    return { ok: false, message: PROMO_MESSAGES.notValid(code) };
  }
  if (
    !input.lines.some((line) =>
      promo.rules.some((rule) => ruleMatches(rule, line) && discountFor(rule, line.price) > 0),
    )
  ) {
    return { ok: false, message: PROMO_MESSAGES.cannotApply(code) };
  }
  return { ok: true, promo };
}

/**
 * A member's prices on top of a promo's: each line takes the larger of the two discounts, never
 * both (the back end does not stack them). `memberPercent` gives the plan's percent off a service
 * (0 when the plan gives none). What each line's discount is, and how much of the total is the
 * member's and how much the promo's.
 */
export function withMemberPrices(
  lines: DiscountedLine[],
  memberPercent: (serviceId: string) => number,
): { lines: DiscountedLine[]; promoDiscount: Cents; memberDiscount: Cents } {
  let promoDiscount = 0;
  let memberDiscount = 0;
  const priced = lines.map((line) => {
    const member = line.price > 0 ? Math.min(line.price, percentOf(line.price, memberPercent(line.serviceId))) : 0;
    if (member > line.discount) {
      memberDiscount += member;
      return { ...line, discount: member, final: line.price - member };
    }
    promoDiscount += line.discount;
    return line;
  });
  return { lines: priced, promoDiscount, memberDiscount };
}
