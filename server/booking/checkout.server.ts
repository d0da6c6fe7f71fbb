import type { Center, Service } from "~/domain/catalog";
import { priceLines } from "~/domain/booking";
import { checkCoupon, couponDiscountKey, findCoupon, type GuestCoupon } from "~/domain/coupons";
import { bookingTotal, type TotalInputs } from "~/domain/booking-total";
import { idKey } from "~/domain/catalog";
import { checkPromo, normalizePromoCode, type PriceLine, type PromoCode } from "~/domain/discounts";
import { offerCodeAsPromo } from "~/domain/pricing";
import type { Cents } from "~/domain/money";
import type { Services } from "../services";
import { errorReporter } from "../observability/error-reporter.server";
import { isSpaError } from "../spa/errors.server";
import type { PaymentAttempt } from "../store/stores.server";
import type { Draft } from "./draft.server";
import { forBooking } from "./call-priority.server";
import {
  advanceAttempt,
  attemptTiming,
  outcomeOfFinal,
  type AttemptOutcome,
  type AttemptTiming,
} from "./payment-attempt.server";
import { findService } from "./catalog-view.server";
import { memberPrices, type MemberPrices } from "../guests/member-prices.server";
import { packageForTreatment, type BookingPackage } from "../guests/packages.server";

/** A price summary; every amount in cents. */
export type Quote = {
  lines: { name: string; price: Cents; discount: Cents }[];
  subtotal: Cents;
  discount: Cents;
  total: Cents;
  prepaid: boolean;
  dueNow: Cents;
  dueInClinic: Cents;
  /** The code on the booking: a promo code (or an offer's), or one of the guest's coupons (decision 044). */
  promo: {
    code: string;
    kind: "promo" | "coupon";
    applied: boolean;
    message: string | null;
    maxUsesPerGuest: number | null;
  } | null;
  /** What the guest's membership takes off (member prices), when it is more than the promo on a line. */
  member: { plan: string; discount: Cents } | null;
  /** The guest's package that pays for the treatment, and what it covers (the treatment's price after any promo). */
  package: { userPackageId: string; name: string; covers: Cents } | null;
};

/**
 * What a draft's total depends on besides its lines (decision 056): the code on it checked against
 * these lines (a promo code, an offer's, or one of the guest's coupons), the guest's member prices
 * and the package session paying for the treatment, read from the store and the back end. The
 * payment step's quote and the treatment step's totals both start here.
 */
export async function pricingOf(
  services: Services,
  center: Center,
  draft: Draft,
  service: Service,
  lines: PriceLine[],
): Promise<{
  promo: Quote["promo"];
  inputs: TotalInputs;
  members: MemberPrices | null;
  held: BookingPackage | null;
}> {
  let promo: Quote["promo"] = null;
  let rules: PromoCode["rules"] = [];
  if (draft.promoCode) {
    const uses = draft.details
      ? ((await services.stores.guestDetails.get(draft.details.email))?.promo_codes[draft.promoCode] ?? 0)
      : 0;
    const appointmentDate = draft.date ?? draft.hold?.slot.slice(0, 10) ?? "";
    // A typed promo code, or a price or offer tier's code (a referred friend's FT50RAF among them); else
    // one of the guest's coupons, read from the back end and priced by the chain's discount for it.
    const found = await typedPromo(services, draft.promoCode);
    const coupon =
      !found && draft.guestId ? findCoupon(await services.spa.guestCoupons(draft.guestId), draft.promoCode) : null;
    if (coupon) {
      const check = checkCoupon({
        coupon,
        discount: await couponDiscountOf(services, coupon),
        appointmentDate,
        lines,
        usesByGuest: uses,
      });
      promo = {
        code: normalizePromoCode(draft.promoCode),
        kind: "coupon",
        applied: check.ok,
        message: check.ok ? null : check.message,
        maxUsesPerGuest: 1,
      };
      if (check.ok) rules = check.promo.rules;
    } else {
      const check = checkPromo({ code: draft.promoCode, promo: found, appointmentDate, lines, usesByGuest: uses });
      promo = {
        code: draft.promoCode,
        kind: "promo",
        applied: check.ok,
        message: check.ok ? null : check.message,
        maxUsesPerGuest: found?.maxUsesPerGuest ?? null,
      };
      if (check.ok) rules = check.promo.rules;
    }
  }
  // A member's prices, as the back end applies them to a member's visit (not stacked on a promo).
  const members = draft.guestId ? await memberPrices(services, draft.guestId, center.id) : null;
  const memberPercents: Record<string, number> = {};
  for (const line of lines) {
    const percent = members ? members.percentOf(line.serviceId) : 0;
    if (percent > 0) memberPercents[idKey(line.serviceId)] = percent;
  }
  // A package session pays for the treatment itself (the first line); add-ons are still paid.
  const held =
    draft.pkg && draft.guestId
      ? await packageForTreatment(services, { guestId: draft.guestId, centerId: center.id, serviceId: service.id })
      : null;
  return { promo, inputs: { rules, memberPercents, packageSession: held !== null }, members, held };
}

/** The price summary of a draft: treatment and add-ons, the promo's discount, what is due when. */
export async function quote(services: Services, center: Center, catalog: Service[], draft: Draft): Promise<Quote> {
  const service = findService(catalog, draft.serviceId)!;
  const addOns = draft.addOnIds.map((id) => findService(catalog, id)).filter((s): s is Service => Boolean(s));
  const lines = priceLines(service, addOns);
  const { promo, inputs, members, held } = await pricingOf(services, center, draft, service, lines);
  const priced = bookingTotal(lines, inputs);
  const [pricing] = await services.stores.centerPricing.get(center.id, [service.id]);
  const prepaid = pricing?.isPrepaidService ?? false;
  const total = priced.total;
  return {
    lines: priced.lines.map((l) => ({ name: l.name, price: l.price, discount: l.discount })),
    subtotal: priced.subtotal,
    discount: priced.promoDiscount,
    total,
    prepaid,
    dueNow: prepaid ? total : 0,
    dueInClinic: prepaid ? 0 : total,
    promo,
    member: members && priced.memberDiscount > 0 ? { plan: members.plan, discount: priced.memberDiscount } : null,
    package: held ? { userPackageId: held.userPackageId, name: held.name, covers: priced.packageCovers } : null,
  };
}

/** A code as typed (or linked): a promo code of the store, or a price or offer tier's; never a coupon discount's key. */
async function typedPromo(services: Services, code: string): Promise<PromoCode | null> {
  const stored = await services.stores.promoCodes.get(code);
  if (stored) return stored.couponDiscount ? null : stored;
  return offerCodeAsPromo(code, await services.stores.pricing.tiers());
}

/** The chain's discount for a guest coupon (named by its description); null when none is configured. */
export async function couponDiscountOf(services: Services, coupon: GuestCoupon): Promise<PromoCode | null> {
  if (!coupon.description) return null;
  const discount = await services.stores.promoCodes.get(couponDiscountKey(coupon.description));
  return discount?.couponDiscount ? discount : null;
}

export type CheckoutOutcome = AttemptOutcome | { kind: "busy" } | { kind: "promo-used"; code: string; coupon: boolean };

/** How one request drives an attempt: its clock, timings, and how long it waits for another's lease. */
type DriveOptions = { clock?: () => number; timing?: AttemptTiming; busyWaitMs?: number };

const BUSY_POLL_MS = 200;
const BUSY_WAIT_MS = 15_000;

/**
 * Confirms the held slot and, at a prepaid clinic, takes payment: once per key, however often the
 * form is sent. A second submit of the same key waits for the first and lands on its result; one
 * that comes back to an attempt whose request died takes it over and carries it on.
 */
export async function checkout(
  services: Services,
  input: {
    payKey: string;
    draft: Draft;
    center: Center;
    quote: Quote;
    accountId: string;
    /** The payment step's address on the origin the guest uses: where a 3-D Secure page sends them back. */
    returnTo: string;
    /** What the guest was shown as due now; the quote's when not given. A different invoice is not charged. */
    shownDue?: Cents;
  },
  options: DriveOptions = {},
): Promise<CheckoutOutcome> {
  const clock = options.clock ?? Date.now;
  const timing = options.timing ?? attemptTiming(services);
  const { draft, quote: summary } = input;
  const now = clock();
  const fresh: PaymentAttempt = {
    key: input.payKey,
    state: "started",
    leaseUntil: now + timing.leaseMs,
    createdAt: now,
    updatedAt: now,
    bookingId: draft.hold!.bookingId,
    slot: draft.hold!.slot,
    guestId: draft.guestId!,
    centerId: input.center.id,
    accountId: input.accountId,
    prepaid: summary.prepaid,
    contact: draft.details
      ? { firstName: draft.details.firstName, email: draft.details.email, phone: draft.details.phone }
      : null,
    promoCode: summary.promo?.applied ? summary.promo.code : null,
    promoClaimed: false,
    promoApplied: false,
    confirmSentAt: null,
    invoiceId: null,
    appointmentId: null,
    invoiceItemIds: [],
    serviceNames: [],
    undoAs: null,
    chargeSentAt: null,
    notified: false,
    verifyUri: null,
    backEndDue: null,
    packageUse: summary.package ? { userPackageId: summary.package.userPackageId } : null,
    packageRedeemed: false,
  };

  const claim = await claimAttempt(services, fresh, { clock, timing, busyWaitMs: options.busyWaitMs });
  if (claim.state === "busy") return { kind: "busy" };
  if (claim.state === "final") return outcomeOfFinal(claim.attempt);

  let attempt = claim.attempt;
  if (attempt.createdAt === now && attempt.state === "started") {
    services.analytics.record({
      name: "payment_started",
      userId: input.accountId || undefined,
      properties: {
        bookingId: attempt.bookingId,
        centerId: attempt.centerId,
        prepaid: attempt.prepaid,
        amountCents: summary.dueNow,
        promoApplied: attempt.promoCode !== null,
      },
    });
  }
  if (
    attempt.state === "started" &&
    attempt.confirmSentAt === null &&
    attempt.promoCode &&
    !attempt.promoClaimed &&
    attempt.contact
  ) {
    // A once-per-guest code is counted before the booking, so two bookings at once cannot both use it.
    const claimed = await services.stores.guestDetails
      .claimPromoUse({
        email: attempt.contact.email,
        guestId: attempt.guestId,
        code: attempt.promoCode,
        maxUses: summary.promo?.maxUsesPerGuest ?? null,
      })
      .catch((error: unknown) => {
        // The request still fails as it did; the report says it was the promo count that failed.
        errorReporter().captureException(error, { where: "promo-count", change: "claim" });
        throw error;
      });
    if (!claimed) {
      await services.stores.paymentAttempts.save({ ...attempt, state: "released", leaseUntil: 0, updatedAt: clock() });
      return { kind: "promo-used", code: attempt.promoCode, coupon: summary.promo?.kind === "coupon" };
    }
    attempt = { ...attempt, promoClaimed: true };
    await services.stores.paymentAttempts.save(attempt);
  }
  const shownDue = input.shownDue ?? summary.dueNow;
  // The hold's remaining calls come first among the chain's (decision 036).
  return forBooking(draft, () =>
    advanceAttempt({ services, timing, clock, mode: "customer", returnTo: input.returnTo, shownDue }, attempt),
  );
}

/** Takes the attempt (new, or one whose request died), waiting a while for a request that holds it. */
async function claimAttempt(
  services: Services,
  fresh: PaymentAttempt,
  options: { clock: () => number; timing: AttemptTiming; busyWaitMs?: number },
) {
  const { clock, timing } = options;
  let claim = await services.stores.paymentAttempts.claim(fresh, clock());
  const waitUntil = clock() + (options.busyWaitMs ?? BUSY_WAIT_MS);
  while (claim.state === "busy" && clock() < waitUntil) {
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
    claim = await services.stores.paymentAttempts.claim({ ...fresh, leaseUntil: clock() + timing.leaseMs }, clock());
  }
  return claim;
}

/**
 * Takes the attempt of `payKey` for this request when `ready` says a guest's answer may carry it on:
 * null when there is none or it is not ready; the outcome when another request keeps it past the wait
 * or it has ended; else the attempt claimed, with the clock and timings to drive it.
 */
async function takeBack(
  services: Services,
  payKey: string,
  ready: (attempt: PaymentAttempt) => boolean,
  options: DriveOptions,
): Promise<
  { outcome: CheckoutOutcome } | { attempt: PaymentAttempt; clock: () => number; timing: AttemptTiming } | null
> {
  const existing = await services.stores.paymentAttempts.get(payKey);
  if (!existing || !ready(existing)) return null;
  const clock = options.clock ?? Date.now;
  const timing = options.timing ?? attemptTiming(services);
  const claim = await claimAttempt(
    services,
    { ...existing, leaseUntil: clock() + timing.leaseMs },
    { clock, timing, busyWaitMs: options.busyWaitMs },
  );
  if (claim.state === "busy") return { outcome: { kind: "busy" } };
  if (claim.state === "final") return { outcome: outcomeOfFinal(claim.attempt) };
  return { attempt: claim.attempt, clock, timing };
}

/**
 * The guest is back from the 3-D Secure page: the invoice says whether they passed (booked) or not
 * (the appointment is removed, as for a declined card). Null when no check is under way for the key.
 */
export async function finishVerification(
  services: Services,
  payKey: string,
  options: DriveOptions = {},
): Promise<CheckoutOutcome | null> {
  const taken = await takeBack(services, payKey, (attempt) => attempt.state === "verifying", options);
  if (!taken || "outcome" in taken) return taken?.outcome ?? null;
  const { attempt, clock, timing } = taken;
  return advanceAttempt({ services, timing, clock, mode: "returned" }, attempt);
}

/**
 * The guest will not pay the back end's price: the confirmed, unpaid appointment is removed and the
 * promo use given back. Only an attempt stopped at a price the guest did not agree to is undone.
 */
export async function declineBackEndPrice(
  services: Services,
  payKey: string,
  options: DriveOptions = {},
): Promise<CheckoutOutcome | null> {
  const ready = (attempt: PaymentAttempt) => attempt.state === "confirmed" && attempt.backEndDue != null;
  const taken = await takeBack(services, payKey, ready, options);
  if (!taken || "outcome" in taken) return taken?.outcome ?? null;
  const { attempt, clock, timing } = taken;
  if (attempt.state !== "confirmed") {
    // Moved on meanwhile (another press charged it): handed back untouched, "not known yet" here.
    await services.stores.paymentAttempts.save({ ...attempt, leaseUntil: 0 });
    return { kind: "pending" };
  }
  const undoing: PaymentAttempt = { ...attempt, state: "undoing", undoAs: "undone", updatedAt: clock() };
  await services.stores.paymentAttempts.save(undoing);
  return advanceAttempt({ services, timing, clock, mode: "reconcile" }, undoing);
}

/**
 * The price summary from the back end's invoice, for a booking whose invoice differs from our
 * quote: what the guest is asked to agree to before anything is charged.
 */
export async function backEndQuote(services: Services, attempt: PaymentAttempt, shown: Quote): Promise<Quote | null> {
  try {
    const invoice = await services.spa.getInvoice(attempt.invoiceId!);
    const subtotal = invoice.items.reduce((sum, item) => sum + item.price, 0);
    // The back end's discounts include what a redeemed package paid; shown as the promo's here.
    return {
      lines: invoice.items.map((item) => ({ name: item.name, price: item.price, discount: item.discount })),
      subtotal,
      discount: subtotal - invoice.total,
      total: invoice.total,
      prepaid: attempt.prepaid,
      dueNow: attempt.prepaid ? invoice.balance : 0,
      dueInClinic: attempt.prepaid ? 0 : invoice.balance,
      promo: shown.promo,
      member: null,
      package: null,
    };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return null;
  }
}

/** The promo code's discount rules, for prices shown before a quote; none for an unknown code. */
export async function promoRules(services: Services, code: string | undefined): Promise<PromoCode["rules"]> {
  if (!code) return [];
  return (await typedPromo(services, code))?.rules ?? [];
}
