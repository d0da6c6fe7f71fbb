import type { Center, Service } from "~/domain/catalog";
import { priceLines } from "~/domain/booking";
import { applyDiscounts, checkPromo, type PromoCode } from "~/domain/discounts";
import type { Cents } from "~/domain/money";
import type { Services } from "../context.server";
import type { PaymentAttempt } from "../store/stores.server";
import type { Draft } from "./draft.server";
import { advanceAttempt, attemptTiming, outcomeOfFinal, type AttemptOutcome, type AttemptTiming } from "./payment-attempt.server";
import { findService } from "./catalog-view.server";

/** A price summary; every amount in cents. */
export type Quote = {
  lines: { name: string; price: Cents; discount: Cents }[];
  subtotal: Cents;
  discount: Cents;
  total: Cents;
  prepaid: boolean;
  dueNow: Cents;
  dueInClinic: Cents;
  promo: { code: string; applied: boolean; message: string | null; maxUsesPerGuest: number | null } | null;
};

/** The price summary of a draft: treatment and add-ons, the promo's discount, what is due when. */
export async function quote(services: Services, center: Center, catalog: Service[], draft: Draft): Promise<Quote> {
  const service = findService(catalog, draft.serviceId)!;
  const addOns = draft.addOnIds.map((id) => findService(catalog, id)).filter((s): s is Service => Boolean(s));
  const lines = priceLines(service, addOns);
  let promo: Quote["promo"] = null;
  let rules: PromoCode["rules"] = [];
  if (draft.promoCode) {
    const found = await services.stores.promoCodes.get(draft.promoCode);
    const uses = draft.details ? ((await services.stores.guestDetails.get(draft.details.email))?.promo_codes[draft.promoCode] ?? 0) : 0;
    const check = checkPromo({ code: draft.promoCode, promo: found, appointmentDate: draft.date ?? draft.hold?.slot.slice(0, 10) ?? "", lines, usesByGuest: uses });
    promo = { code: draft.promoCode, applied: check.ok, message: check.ok ? null : check.message, maxUsesPerGuest: found?.maxUsesPerGuest ?? null };
    if (check.ok) rules = check.promo.rules;
  }
  const priced = applyDiscounts(lines, rules);
  const [pricing] = await services.stores.centerPricing.get(center.id, [service.id]);
  const prepaid = pricing?.isPrepaidService ?? false;
  return {
    lines: priced.lines.map((l) => ({ name: l.name, price: l.price, discount: l.discount })),
    subtotal: priced.subtotal,
    discount: priced.discount,
    total: priced.total,
    prepaid,
    dueNow: prepaid ? priced.total : 0,
    dueInClinic: prepaid ? 0 : priced.total,
    promo,
  };
}

export type CheckoutOutcome = AttemptOutcome | { kind: "busy" } | { kind: "promo-used"; code: string };

const BUSY_POLL_MS = 200;
const BUSY_WAIT_MS = 15_000;

/**
 * Confirms the held slot and, at a prepaid clinic, takes payment: once per key, however often the
 * form is sent. A second submit of the same key waits for the first and lands on its result; one
 * that comes back to an attempt whose request died takes it over and carries it on.
 */
export async function checkout(
  services: Services,
  input: { payKey: string; draft: Draft; center: Center; quote: Quote; accountId: string },
  options: { clock?: () => number; timing?: AttemptTiming; busyWaitMs?: number } = {},
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
    contact: draft.details ? { firstName: draft.details.firstName, email: draft.details.email, phone: draft.details.phone } : null,
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
  };

  let claim = await services.stores.paymentAttempts.claim(fresh, now);
  const waitUntil = clock() + (options.busyWaitMs ?? BUSY_WAIT_MS);
  while (claim.state === "busy" && clock() < waitUntil) {
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
    claim = await services.stores.paymentAttempts.claim({ ...fresh, leaseUntil: clock() + timing.leaseMs }, clock());
  }
  if (claim.state === "busy") return { kind: "busy" };
  if (claim.state === "final") return outcomeOfFinal(claim.attempt);

  let attempt = claim.attempt;
  if (attempt.state === "started" && attempt.confirmSentAt === null && attempt.promoCode && !attempt.promoClaimed && attempt.contact) {
    // A once-per-guest code is counted before the booking, so two bookings at once cannot both use it.
    const claimed = await services.stores.guestDetails.claimPromoUse({
      email: attempt.contact.email,
      guestId: attempt.guestId,
      code: attempt.promoCode,
      maxUses: summary.promo?.maxUsesPerGuest ?? null,
    });
    if (!claimed) {
      await services.stores.paymentAttempts.save({ ...attempt, state: "released", leaseUntil: 0, updatedAt: clock() });
      return { kind: "promo-used", code: attempt.promoCode };
    }
    attempt = { ...attempt, promoClaimed: true };
    await services.stores.paymentAttempts.save(attempt);
  }
  return advanceAttempt({ services, timing, clock, mode: "customer" }, attempt);
}

/** The promo code's discount rules, for prices shown before a quote; none for an unknown code. */
export async function promoRules(services: Services, code: string | undefined): Promise<PromoCode["rules"]> {
  if (!code) return [];
  return (await services.stores.promoCodes.get(code))?.rules ?? [];
}
