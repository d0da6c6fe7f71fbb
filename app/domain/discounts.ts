/**
 * Discount rules (spec sections 3 and 9): a rule has a type (percentage, amount, final_price), a
 * value, and the kind of line it applies to (service, addon-service, addon-fixer), optionally one
 * service id. Pure, so the app's price summary and the sandbox's invoice agree to the cent.
 */
export type DiscountType = "percentage" | "amount" | "final_price";
export type DiscountServiceType = "service" | "addon-service" | "addon-fixer";

export type DiscountRule = {
  discount_type: DiscountType;
  discount_value: number;
  /** Null: every line of the service type. */
  service_id: string | null;
  service_type: DiscountServiceType;
};

export type PriceLine = { serviceId: string; kind: DiscountServiceType; name: string; price: number };
export type DiscountedLine = PriceLine & { discount: number; final: number };

export function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** What one rule takes off one price; never more than the price, never negative. */
export function discountFor(rule: DiscountRule, price: number): number {
  if (price <= 0) return 0;
  switch (rule.discount_type) {
    case "percentage":
      return Math.min(price, round2((price * rule.discount_value) / 100));
    case "amount":
      return Math.min(price, round2(rule.discount_value));
    case "final_price":
      return Math.max(0, round2(price - rule.discount_value));
  }
}

export function ruleMatches(rule: DiscountRule, line: PriceLine): boolean {
  return rule.service_type === line.kind && (rule.service_id === null || rule.service_id.toLowerCase() === line.serviceId.toLowerCase());
}

/** Each line gets the best rule that matches it; rules do not stack on one line. */
export function applyDiscounts(lines: PriceLine[], rules: DiscountRule[]): { lines: DiscountedLine[]; subtotal: number; discount: number; total: number } {
  const discounted = lines.map((line) => {
    const best = rules.filter((r) => ruleMatches(r, line)).reduce((max, r) => Math.max(max, discountFor(r, line.price)), 0);
    return { ...line, discount: best, final: round2(line.price - best) };
  });
  const subtotal = round2(lines.reduce((sum, l) => sum + l.price, 0));
  const discount = round2(discounted.reduce((sum, l) => sum + l.discount, 0));
  return { lines: discounted, subtotal, discount, total: round2(subtotal - discount) };
}

export type PromoCode = {
  code: string;
  rules: DiscountRule[];
  /** Inclusive appointment dates, YYYY-MM-DD; null for open-ended. */
  validFrom: string | null;
  validTo: string | null;
  /** Times one guest may use it; null for no limit. */
  maxUsesPerGuest: number | null;
};

export type PromoCheck =
  | { ok: true; promo: PromoCode }
  | { ok: false; message: string };

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
  if ((promo.validFrom && input.appointmentDate < promo.validFrom) || (promo.validTo && input.appointmentDate > promo.validTo)) {
    return { ok: false, message: PROMO_MESSAGES.notForDate };
  }
  if (promo.maxUsesPerGuest !== null && input.usesByGuest >= promo.maxUsesPerGuest) {
    return { ok: false, message: PROMO_MESSAGES.notValid(code) };
  }
  if (!input.lines.some((line) => promo.rules.some((rule) => ruleMatches(rule, line) && discountFor(rule, line.price) > 0))) {
    return { ok: false, message: PROMO_MESSAGES.cannotApply(code) };
  }
  return { ok: true, promo };
}
