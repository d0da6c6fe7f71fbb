import type { Center, Service } from "~/domain/catalog";
import { priceLines } from "~/domain/booking";
import { applyDiscounts, checkPromo, type PromoCode } from "~/domain/discounts";
import { dayjs } from "~/lib/dates";
import type { Services } from "../context.server";
import { logger } from "../observability/logger.server";
import { isSpaError } from "../spa/errors.server";
import type { Draft } from "./draft.server";
import { findService } from "./catalog-view.server";

export type Quote = {
  lines: { name: string; price: number; discount: number }[];
  subtotal: number;
  discount: number;
  total: number;
  prepaid: boolean;
  dueNow: number;
  dueInClinic: number;
  promo: { code: string; applied: boolean; message: string | null } | null;
};

/** The price summary of a draft: treatment and add-ons, the promo's discount, what is due when. */
export async function quote(services: Services, center: Center, catalog: Service[], draft: Draft): Promise<Quote> {
  const service = findService(catalog, draft.serviceId)!;
  const addOns = draft.addOnIds.map((id) => findService(catalog, id)).filter((s): s is Service => Boolean(s));
  const lines = priceLines(service, addOns);
  let promo: Quote["promo"] = null;
  let rules: PromoCode["rules"] = [];
  if (draft.promoCode) {
    const found = await services.store.getPromoCode(draft.promoCode);
    const uses = draft.details ? ((await services.store.getGuestDetails(draft.details.email))?.promo_codes[draft.promoCode] ?? 0) : 0;
    const check = checkPromo({ code: draft.promoCode, promo: found, appointmentDate: draft.date ?? draft.hold?.slot.slice(0, 10) ?? "", lines, usesByGuest: uses });
    promo = { code: draft.promoCode, applied: check.ok, message: check.ok ? null : check.message };
    if (check.ok) rules = check.promo.rules;
  }
  const priced = applyDiscounts(lines, rules);
  const [pricing] = await services.store.getCenterPricing(center.id, [service.id]);
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

export type ConfirmOutcome =
  | { kind: "confirmed"; appointmentId: string; invoiceId: string }
  | { kind: "hold-lost" }
  | { kind: "payment-failed" };

export const PAYMENT_FAILED_COMMENT = "Removing appointment due to payment failed";
export const PACKAGE_PAYMENT_FAILED_COMMENT = "Removing package due to payment failed";

/**
 * Confirms the held slot, applies the promo, and takes payment at a prepaid clinic. Called once per
 * idempotency key (see payment route); the back end's confirm is idempotent per booking too.
 */
export async function confirmAndPay(
  services: Services,
  input: { draft: Draft; center: Center; quote: Quote; accountId: string },
): Promise<ConfirmOutcome> {
  const { draft, center } = input;
  const confirmed = await services.spa.confirmBooking(draft.hold!.bookingId);
  if (!confirmed) return { kind: "hold-lost" };
  const appointmentId = confirmed.items[0].appointmentId;
  if (input.quote.promo?.applied) {
    const applied = await services.spa.applyCampaign(confirmed.invoiceId, center.id, input.quote.promo.code);
    if (!applied.applied) logger.warn("campaign not applied by the back end", { reason: applied.message ?? "" });
  }
  if (input.quote.prepaid) {
    try {
      const invoice = await services.spa.getInvoice(confirmed.invoiceId);
      if (invoice.balance > 0) await services.spa.payInvoice(confirmed.invoiceId, center.id, input.accountId);
    } catch (error) {
      if (!isSpaError(error)) throw error;
      logger.warn("payment failed; removing the appointment", { kind: error.kind, code: String(error.code) });
      // Every appointment line goes (packages, once sold here, with their own comment); nothing
      // half-booked is left behind.
      for (const item of confirmed.items) {
        await services.spa.removeInvoiceItem(confirmed.invoiceId, item.invoiceItemId, PAYMENT_FAILED_COMMENT).catch(() => undefined);
      }
      return { kind: "payment-failed" };
    }
  }
  if (input.quote.promo?.applied && draft.details) {
    await services.store.adjustPromoCodeCount(draft.details.email, input.quote.promo.code, 1).catch((error: Error) => {
      logger.error("promo count not updated", { error: error.message });
    });
  }
  if (draft.details) {
    const when = dayjs(confirmed.items[0].start, "YYYY-MM-DDTHH:mm:ss").format("dddd, MMMM D, YYYY h:mm A");
    const what = confirmed.items.map((i) => i.serviceName).join(", ");
    const address = `${center.address.line1}, ${center.address.city}, ${center.address.state} ${center.address.zip}`;
    await services.notifier.send({
      channel: "email",
      kind: "booking-confirmation",
      to: draft.details.email,
      subject: `Your appointment at ${center.name} is confirmed`,
      body: `Hi ${draft.details.firstName},\n\nYou're booked: ${what}\n${when} at ${center.name}, ${address}.\n\nPlease arrive 10 minutes early, with photo ID if this is your first visit.\nTo cancel or reschedule without the $25 fee, do so at least 12 hours before.`,
    });
    await services.notifier.send({
      channel: "sms",
      kind: "booking-confirmation",
      to: draft.details.phone,
      subject: "Booking confirmed",
      body: `Glow Clinic: you're booked for ${when} at ${center.name}. Reply STOP to opt out.`,
    });
  }
  return { kind: "confirmed", appointmentId, invoiceId: confirmed.invoiceId };
}
