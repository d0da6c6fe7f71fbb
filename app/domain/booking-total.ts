import { idKey } from "./catalog";
import { applyDiscounts, withMemberPrices, type DiscountedLine, type DiscountRule, type PriceLine } from "./discounts";
import type { Cents } from "./money";

/**
 * What a booking's total depends on besides its lines, worked out once from the back end and the
 * store (decision 056): the promo, coupon or offer rules the booking's code gives (already checked
 * for its dates and uses), the member's percent off each service, and whether a package session
 * pays for the treatment. Plain data, so the treatment step can send it to the browser and total
 * each choice there with the same function the payment step's quote uses.
 */
export type TotalInputs = {
  rules: DiscountRule[];
  /** The member's percent off, by service id (`idKey`); a service not listed has none. */
  memberPercents: Record<string, number>;
  /** A package session pays for the treatment (the first line) after its discounts; add-ons are still paid. */
  packageSession: boolean;
};

export type BookingTotal = {
  lines: DiscountedLine[];
  /** The lines' list prices added up. */
  subtotal: Cents;
  /** What the code takes off the lines where it beats the member's price. */
  promoDiscount: Cents;
  /** What the member's prices take off the lines where they beat the code. */
  memberDiscount: Cents;
  /** What the package session pays: the treatment's price after its discount. */
  packageCovers: Cents;
  /** What is left to pay. */
  total: Cents;
};

/**
 * A booking's total, in cents (spec sections 3 and 9): each line takes the code's best rule or the
 * member's percent, whichever takes more (never both), and a package session then pays for the
 * treatment. The payment step's quote, the booking bar and the treatment step all total with this.
 */
export function bookingTotal(lines: readonly PriceLine[], inputs: TotalInputs): BookingTotal {
  const promoPriced = applyDiscounts([...lines], inputs.rules);
  const withMember = withMemberPrices(promoPriced.lines, (serviceId) => inputs.memberPercents[idKey(serviceId)] ?? 0);
  const treatment = withMember.lines[0];
  const packageCovers = inputs.packageSession && treatment ? treatment.final : 0;
  return {
    lines: withMember.lines,
    subtotal: promoPriced.subtotal,
    promoDiscount: withMember.promoDiscount,
    memberDiscount: withMember.memberDiscount,
    packageCovers,
    total: promoPriced.subtotal - withMember.promoDiscount - withMember.memberDiscount - packageCovers,
  };
}

/**
 * The lines of one choice on the treatment step: the treatment's line first, then the options
 * chosen, in the order chosen; an id that is not one of the treatment's options is left out.
 */
export function chosenLines(lines: readonly PriceLine[], chosenIds: readonly string[]): PriceLine[] {
  const [treatment, ...options] = lines;
  if (!treatment) return [];
  const picked = [...new Set(chosenIds.map(idKey))]
    .map((id) => options.find((line) => idKey(line.serviceId) === id))
    .filter((line): line is PriceLine => Boolean(line));
  return [treatment, ...picked];
}
