import type { Center, Service } from "~/domain/catalog";
import { priceLines } from "~/domain/booking";
import { COUPON_MESSAGES, usableCoupons, type CouponChoice } from "~/domain/coupons";
import { normalizePromoCode, PROMO_MESSAGES } from "~/domain/discounts";
import type { CurrentUser, Services } from "../services";
import { isOfferCode } from "../pricing/offer-prices.server";
import { isSpaError } from "../spa/errors.server";
import { findService } from "./catalog-view.server";
import { couponDiscountOf, quote } from "./checkout.server";
import type { Draft } from "./draft.server";

/**
 * The codes a booking can carry (decision 044): a promo code anyone may type, or one of the guest's
 * own coupons, chosen from a list or typed. Either is the one code on the draft (`promoCode`: a
 * code the chain does not have as a promo is looked for among the booking guest's coupons), priced
 * by the same rules, claimed once and applied to the invoice through the same campaign discount call.
 */

/**
 * The guest whose coupons the booking may use: the signed-in account's own guest, when it is the
 * one booking (not a visitor booking through a texted link or as a new guest).
 */
export function couponHolder(user: CurrentUser | null, draft: Pick<Draft, "guestId">): string | null {
  if (!user || !draft.guestId || user.guestId.toLowerCase() !== draft.guestId.toLowerCase()) return null;
  return draft.guestId;
}

export type CodeOutcome = { kind: "applied"; draft: Draft } | { kind: "refused"; message: string };

type CodeRequest = { center: Center; catalog: Service[]; draft: Draft; user: CurrentUser | null };

/**
 * A code the guest typed: a promo code of the chain's, else one of their coupons (signed in), else
 * the promo messages. The draft that carries it, or why not.
 */
export async function applyTypedCode(
  services: Services,
  request: CodeRequest & { typed: string },
): Promise<CodeOutcome> {
  const { center, catalog, draft } = request;
  const code = normalizePromoCode(request.typed);
  if (!code) return { kind: "refused", message: PROMO_MESSAGES.empty };
  // A partner's, a clinic's or a friend's offer comes with the visit it is for, never typed.
  if (await isOfferCode(services, code)) return { kind: "refused", message: PROMO_MESSAGES.unknown };
  const asPromo: Draft = { ...draft, promoCode: code };
  const trial = await quote(services, center, catalog, asPromo);
  // Only a signed-in guest's own coupons: a code no promo has is not looked up for anyone else.
  if (trial.promo?.kind === "coupon") {
    // The coupon as applyCoupon would take it, from the price already worked out.
    if (!couponHolder(request.user, draft)) return { kind: "refused", message: PROMO_MESSAGES.unknown };
    return trial.promo.applied
      ? { kind: "applied", draft: asPromo }
      : { kind: "refused", message: trial.promo.message ?? COUPON_MESSAGES.gone };
  }
  if (trial.promo?.applied) return { kind: "applied", draft: asPromo };
  return { kind: "refused", message: trial.promo?.message ?? PROMO_MESSAGES.unknown };
}

/** One of the guest's coupons, chosen from the list the payment step offers, or typed. */
export async function applyCoupon(services: Services, request: CodeRequest & { number: string }): Promise<CodeOutcome> {
  const { center, catalog, draft } = request;
  const number = normalizePromoCode(request.number);
  if (!number) return { kind: "refused", message: COUPON_MESSAGES.choose };
  if (!couponHolder(request.user, draft)) return { kind: "refused", message: COUPON_MESSAGES.gone };
  const asCoupon: Draft = { ...draft, promoCode: number };
  const trial = await quote(services, center, catalog, asCoupon);
  if (trial.promo?.kind !== "coupon") return { kind: "refused", message: COUPON_MESSAGES.gone };
  return trial.promo.applied
    ? { kind: "applied", draft: asCoupon }
    : { kind: "refused", message: trial.promo.message ?? COUPON_MESSAGES.gone };
}

/** The draft with no code on it: the promo code or coupon removed. */
export function withoutCode(draft: Draft): Draft {
  return { ...draft, promoCode: undefined };
}

/**
 * The signed-in guest's coupons the payment step offers for this booking (valid on its day, taking
 * something off its treatment or add-ons), best first; none while the back end cannot list them:
 * the step still works, with the promo field.
 */
export async function couponChoices(
  services: Services,
  request: { catalog: Service[]; draft: Draft; user: CurrentUser | null },
): Promise<CouponChoice[]> {
  const { catalog, draft } = request;
  const guestId = couponHolder(request.user, draft);
  const service = findService(catalog, draft.serviceId);
  if (!guestId || !service) return [];
  try {
    const coupons = (await services.spa.guestCoupons(guestId)).filter((c) => !c.redeemed);
    if (coupons.length === 0) return [];
    const [discounts, details] = await Promise.all([
      Promise.all(coupons.map((c) => couponDiscountOf(services, c))),
      draft.details ? services.stores.guestDetails.get(draft.details.email) : null,
    ]);
    const addOns = draft.addOnIds.map((id) => findService(catalog, id)).filter((s): s is Service => Boolean(s));
    return usableCoupons({
      coupons,
      discountOf: (coupon) => discounts[coupons.indexOf(coupon)],
      usesOf: (number) => details?.promo_codes[number] ?? 0,
      appointmentDate: draft.date ?? draft.hold?.slot.slice(0, 10) ?? "",
      lines: priceLines(service, addOns),
    });
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return [];
  }
}
