import type { Cents } from "~/domain/money";
import { CANCELLATION_POLICY, cancellationReminder } from "~/domain/booking";
import { paymentTag } from "~/domain/purchases";
import { dayjs } from "~/lib/dayjs";
import { manageLinkUrl } from "../appointments/visit-messages.server";
import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import { errorReporter } from "../observability/error-reporter.server";
import { logger } from "../observability/logger.server";
import { isSpaError, type SpaError } from "../spa/errors.server";
import { isFinalAttempt, type PaymentAttempt } from "../store/stores.server";
import { forgetRecoveriesOfGuest } from "./recovery.server";

/**
 * The confirm-and-pay state machine (docs/decisions/008-payment-state-machine.md). Every step is
 * written to the store before the back-end call it leads to, so a request that dies anywhere
 * leaves an attempt the next request, or the reconciler, can finish or undo. An answer that is lost
 * (reset, timeout, 5xx, a body we cannot read) is never taken as a "no": it is resolved by reading
 * the back end (the guest's appointments, the invoice). Lines are removed only after an explicit
 * refusal of the charge, or by the reconciler for an attempt nobody finished and nothing paid.
 */

export const PAYMENT_FAILED_COMMENT = "Removing appointment due to payment failed";
/** The spec's comment for the package when a payment fails: here, the treatment line a package session paid. */
export const PACKAGE_PAYMENT_FAILED_COMMENT = "Removing package due to payment failed";
export const NOT_FINISHED_COMMENT = "Removing appointment: online booking was not finished and nothing was paid";

export type AttemptOutcome =
  | { kind: "booked"; attempt: PaymentAttempt }
  | { kind: "hold-lost" }
  | { kind: "declined" }
  | { kind: "undone" }
  /**
   * Not known yet (an answer was lost); nothing is lost, and trying again resumes from here. With
   * `busyRetryAfterSeconds` it is known: the back end was at its call limit and did nothing (decision 036).
   */
  | { kind: "pending"; busyRetryAfterSeconds?: number }
  /** The card needs 3-D Secure: the guest passes their bank's check on this page, then comes back. */
  | { kind: "verify"; uri: string }
  /** The back end's invoice asks another amount than the guest was shown: nothing was charged. */
  | { kind: "price-changed"; shown: Cents; due: Cents };

export type AttemptTiming = {
  /** How long one request owns an attempt between two writes: longer than any one back-end call. */
  leaseMs: number;
  /** How long a charge whose answer was lost may still land at the back end. */
  settleMs: number;
};

export function attemptTiming(services: Pick<Services, "env">): AttemptTiming {
  const call = services.env.SPA_TIMEOUT_MS;
  return { leaseMs: call * 2 + 2_000, settleMs: call * 2 };
}

/**
 * "customer": the guest pressed the button and may be charged. "returned": the guest came back from
 * the 3-D Secure page; what the invoice says is the answer, nothing is charged. "reconcile": nobody
 * is there; finish what is paid, undo the rest.
 */
export type AttemptMode = "customer" | "returned" | "reconcile";

type Context = {
  services: Services;
  timing: AttemptTiming;
  clock: () => number;
  mode: AttemptMode;
  /** Where a 3-D Secure page sends the guest back to (the payment step, on the origin they use). */
  returnTo?: string;
  /** What the guest was shown as due now, in cents: a different invoice balance is not charged. */
  shownDue?: Cents | null;
};

/** The back end said no, and did nothing: safe to act on as a refusal. */
function isRefusal(error: SpaError): boolean {
  return error.kind === "rejected" || error.kind === "unauthorized" || error.kind === "config";
}

/** Runs the attempt forward as far as it can go now. The caller holds its lease. */
export async function advanceAttempt(ctx: Context, start: PaymentAttempt): Promise<AttemptOutcome> {
  const { services, timing, clock, mode } = ctx;
  const { stores } = services;
  let attempt = start;
  const save = async (patch: Partial<PaymentAttempt>) => {
    attempt = { ...attempt, ...patch, updatedAt: clock(), leaseUntil: clock() + timing.leaseMs };
    if (isFinalAttempt(attempt)) attempt.leaseUntil = 0;
    await stores.paymentAttempts.save(attempt);
  };
  /** Stops here, handing the attempt back so the next try need not wait for the lease. */
  const handBack = async (outcome: AttemptOutcome, patch: Partial<PaymentAttempt> = {}): Promise<AttemptOutcome> => {
    await save(patch);
    attempt = { ...attempt, leaseUntil: 0 };
    await stores.paymentAttempts.save(attempt);
    return outcome;
  };
  const pending = () => handBack({ kind: "pending" });

  try {
    // Back from the 3-D Secure page, a page load only reads what happened: it never confirms or charges.
    if (mode === "returned" && attempt.state !== "verifying") return await pending();

    if (attempt.state === "started") {
      const found = await resolveConfirm(ctx, attempt, save);
      if (found.kind === "unknown") return await pending();
      if (found.kind === "busy")
        return await handBack({ kind: "pending", busyRetryAfterSeconds: found.retryAfterSeconds });
      if (found.kind === "gone") {
        await givePromoBack(services, attempt);
        await save({ state: "released", promoClaimed: false });
        return { kind: "hold-lost" };
      }
      const { kind: _kind, ...known } = found;
      await save({ state: "confirmed", ...known });
    }

    if (attempt.state === "confirmed" && attempt.promoCode && !attempt.promoApplied) {
      await applyPromo(services, attempt);
      await save({ promoApplied: true });
    }

    if (attempt.state === "confirmed" && attempt.packageUse && !attempt.packageRedeemed) {
      await redeemPackage(services, attempt);
      await save({ packageRedeemed: true });
    }

    if (attempt.state === "confirmed" && !attempt.prepaid) await save({ state: "booked" });

    if (attempt.state === "confirmed" || attempt.state === "charging" || attempt.state === "verifying") {
      const invoice = await readInvoice(services, attempt.invoiceId!);
      if (!invoice) return await pending();
      const charging = attempt.state === "charging" && attempt.chargeSentAt !== null;
      if (invoice.balance <= 0) {
        await save({ state: "booked", bookedInvoice: { paid: invoice.paid, due: 0, reference: invoice.reference } });
      } else if (attempt.state === "verifying") {
        // Unpaid while the guest is at their bank's check: a second press sends them there again;
        // coming back unpaid means the check failed or was left.
        if (mode === "customer") return await handBack({ kind: "verify", uri: attempt.verifyUri! });
        await save({ state: "undoing", undoAs: mode === "returned" ? "declined" : "undone" });
      } else if (charging && clock() - attempt.chargeSentAt! < timing.settleMs) {
        // A charge whose answer was lost may still land: charging again now could charge twice.
        return await pending();
      } else if (mode === "reconcile") {
        await save({ state: "undoing", undoAs: "undone" });
      } else if (mode === "returned") {
        // A page load never charges.
        return await pending();
      } else if (attempt.state === "confirmed" && ctx.shownDue != null && invoice.balance !== ctx.shownDue) {
        // What is shown is what is charged: the guest sees the back end's amount and is asked again.
        logger.warn("invoice differs from the price shown; not charging", {
          shown: ctx.shownDue,
          due: invoice.balance,
        });
        return await handBack(
          { kind: "price-changed", shown: ctx.shownDue, due: invoice.balance },
          { backEndDue: invoice.balance },
        );
      } else {
        await save({ state: "charging", chargeSentAt: clock(), backEndDue: null });
        const charged = await charge(services, attempt, ctx.returnTo ?? "");
        // Paid: the balance just read was charged, and nothing is left to pay.
        if (charged.kind === "paid")
          await save({
            state: "booked",
            bookedInvoice: { paid: invoice.paid + invoice.balance, due: 0, reference: invoice.reference },
          });
        else if (charged.kind === "verify") {
          return await handBack({ kind: "verify", uri: charged.uri }, { state: "verifying", verifyUri: charged.uri });
        } else if (charged.kind === "not-processed") {
          await save({ state: "confirmed", chargeSentAt: null });
          return await handBack({ kind: "pending", busyRetryAfterSeconds: charged.retryAfterSeconds });
        } else if (charged.kind === "refused") {
          // "Nothing to pay" is a refusal too: an earlier charge whose answer was lost may have landed.
          const after = await readInvoice(services, attempt.invoiceId!);
          if (!after) return await pending();
          await save(after.balance <= 0 ? { state: "booked" } : { state: "undoing", undoAs: "declined" });
        } else {
          // The answer was lost: read what happened instead of guessing.
          const after = await readInvoice(services, attempt.invoiceId!);
          if (after && after.balance <= 0) await save({ state: "booked" });
          else return await pending();
        }
      }
    }

    if (attempt.state === "undoing") {
      await removeLines(
        services,
        attempt,
        attempt.undoAs === "declined" ? PAYMENT_FAILED_COMMENT : NOT_FINISHED_COMMENT,
      );
      await givePromoBack(services, attempt);
      await save({ state: attempt.undoAs ?? "undone", promoClaimed: false });
      services.analytics.record({
        name: "booking_failed",
        properties: {
          bookingId: attempt.bookingId,
          centerId: attempt.centerId,
          prepaid: attempt.prepaid,
          reason: attempt.undoAs === "declined" ? "payment_declined" : "not_finished",
        },
      });
    }
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("payment attempt interrupted", { state: attempt.state, kind: error.kind, status: error.status });
    return await pending();
  }

  if (attempt.state === "booked" && !attempt.notified) {
    await tagPaymentKind(services, attempt);
    services.analytics.record({
      name: "booked",
      userId: attempt.accountId || undefined,
      properties: {
        bookingId: attempt.bookingId,
        appointmentId: attempt.appointmentId ?? undefined,
        centerId: attempt.centerId,
        serviceCount: attempt.serviceNames.length,
        prepaid: attempt.prepaid,
        promoApplied: attempt.promoApplied,
        // The spec's user tag for how it is paid (PPD-A, PPD-B, PPD-C).
        kind: paymentTag({ prepaid: attempt.prepaid, packageUsed: Boolean(attempt.packageUse) }),
        amountCents: attempt.bookedInvoice?.paid,
      },
    });
    await notifyBooked(services, attempt, publicOrigin(services, ctx.returnTo));
    // Booked: no recovery message for this guest, and their records go (decision 059).
    await forgetRecoveriesOfGuest(services, attempt.guestId);
    await save({ notified: true });
  }
  return outcomeOfFinal(attempt);
}

type ChargeResult =
  | { kind: "paid" }
  | { kind: "verify"; uri: string }
  | { kind: "refused" }
  | { kind: "not-processed"; retryAfterSeconds: number }
  | { kind: "unknown" };

/** How long a call refused at the call limit asks to wait, in whole seconds. */
const busySeconds = (error: SpaError) => Math.min(60, Math.max(1, Math.ceil((error.retryAfterMs ?? 60_000) / 1000)));

/** Sends the charge: paid, a 3-D Secure page, refused (the card said no), not processed (try again), or unknown. */
async function charge(services: Services, attempt: PaymentAttempt, returnTo: string): Promise<ChargeResult> {
  try {
    const result = await services.spa.payInvoice(attempt.invoiceId!, attempt.centerId, attempt.accountId, returnTo);
    return result.kind === "paid" ? { kind: "paid" } : result;
  } catch (error) {
    if (!isSpaError(error)) throw error;
    if (error.kind === "rate-limited") return { kind: "not-processed", retryAfterSeconds: busySeconds(error) };
    if (isRefusal(error)) {
      logger.warn("charge refused; removing the appointment", { kind: error.kind, code: String(error.code) });
      return { kind: "refused" };
    }
    logger.warn("charge answer lost; reading the invoice", { kind: error.kind, status: error.status });
    return { kind: "unknown" };
  }
}

async function givePromoBack(services: Services, attempt: PaymentAttempt): Promise<void> {
  if (!attempt.promoClaimed || !attempt.promoCode || !attempt.contact) return;
  await services.stores.guestDetails
    .releasePromoUse(attempt.contact.email, attempt.promoCode)
    .catch((error: unknown) => {
      // The guest is left one use short; the report lets someone give it back by hand.
      errorReporter().captureException(error, { where: "promo-count", change: "release" });
    });
}

/** What a finished attempt means to the guest who comes back to it. */
export function outcomeOfFinal(attempt: PaymentAttempt): AttemptOutcome {
  switch (attempt.state) {
    case "booked":
      return { kind: "booked", attempt };
    case "declined":
      return { kind: "declined" };
    case "undone":
      return { kind: "undone" };
    case "released":
      return { kind: "hold-lost" };
    default:
      return { kind: "pending" };
  }
}

type ConfirmResult =
  | {
      kind: "confirmed";
      invoiceId: string;
      appointmentId: string;
      invoiceItemIds: string[];
      serviceNames: string[];
      visitEnd: string | null;
      nurseName: string | null;
    }
  | { kind: "gone" }
  | { kind: "unknown" }
  | { kind: "busy"; retryAfterSeconds: number };

/**
 * Confirms the hold, or finds out whether an earlier confirm whose answer was lost went through.
 * The first time, the confirm is sent at once; after that the guest's appointments are read first.
 */
async function resolveConfirm(
  ctx: Context,
  attempt: PaymentAttempt,
  save: (patch: Partial<PaymentAttempt>) => Promise<void>,
): Promise<ConfirmResult> {
  const { spa } = ctx.services;
  if (attempt.confirmSentAt !== null) {
    const found = await findConfirmed(ctx.services, attempt);
    if (found !== "not-found") return found;
  }
  // Nobody is there to pay: an attempt whose confirm did not go through is only let go.
  if (ctx.mode === "reconcile") return { kind: "gone" };
  await save({ confirmSentAt: ctx.clock() });
  try {
    const confirmed = await spa.confirmBooking(attempt.bookingId);
    if (confirmed) {
      return {
        kind: "confirmed",
        invoiceId: confirmed.invoiceId,
        appointmentId: confirmed.items[0].appointmentId,
        invoiceItemIds: confirmed.items.map((i) => i.invoiceItemId),
        serviceNames: confirmed.items.map((i) => i.serviceName),
        visitEnd:
          confirmed.items
            .map((i) => i.end)
            .sort()
            .at(-1) ?? null,
        nurseName: confirmed.items.find((i) => i.therapistName)?.therapistName ?? null,
      };
    }
  } catch (error) {
    if (!isSpaError(error)) throw error;
    // A 429 (Zenoti's, after the governor's retries, or the governor's own) did nothing: not confirmed, nothing to read.
    if (error.kind === "rate-limited") return { kind: "busy", retryAfterSeconds: busySeconds(error) };
    if (!isRefusal(error)) {
      logger.warn("confirm answer lost; reading the appointments", { kind: error.kind, status: error.status });
      const found = await findConfirmed(ctx.services, attempt);
      return found === "not-found" ? { kind: "unknown" } : found;
    }
  }
  // Refused (the hold is gone). An earlier confirm whose answer was lost may have used the hold.
  const found = await findConfirmed(ctx.services, attempt);
  return found === "not-found" ? { kind: "gone" } : found;
}

/** The guest's live appointment at the held time, if a confirm made one. */
async function findConfirmed(services: Services, attempt: PaymentAttempt): Promise<ConfirmResult | "not-found"> {
  try {
    const appointments = await services.spa.listGuestAppointments(attempt.guestId, { size: 100 });
    const group = appointments.find(
      (a) =>
        a.invoiceId &&
        a.centerId === attempt.centerId &&
        a.services.some((s) => s.start === attempt.slot && s.status !== -1 && s.status !== -2),
    );
    if (!group) return "not-found";
    const invoice = await services.spa.getInvoice(group.invoiceId!);
    const live = group.services.filter((s) => s.status !== -1);
    return {
      kind: "confirmed",
      invoiceId: invoice.id,
      appointmentId: live[0].appointmentId,
      invoiceItemIds: invoice.items.map((i) => i.invoiceItemId),
      serviceNames: live.map((s) => s.name),
      visitEnd: null,
      nurseName: null,
    };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return { kind: "unknown" };
  }
}

async function readInvoice(services: Services, invoiceId: string) {
  try {
    return await services.spa.getInvoice(invoiceId);
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("invoice could not be read", { kind: error.kind, status: error.status });
    return null;
  }
}

/**
 * Redeems a session of the guest's package on the treatment's line. A refusal (no session left, a
 * package that does not cover it) leaves the line to be paid as shown by the invoice's balance: at a
 * prepaid clinic the back end's price is then shown before any charge.
 */
async function redeemPackage(services: Services, attempt: PaymentAttempt) {
  const treatmentLine = attempt.invoiceItemIds[0];
  const redeemed = treatmentLine
    ? await services.spa.redeemPackage(attempt.invoiceId!, attempt.packageUse!.userPackageId, treatmentLine)
    : false;
  if (!redeemed) logger.warn("package not redeemed", { centerId: attempt.centerId });
  appCache.emit("packageRedeemed", { guestId: attempt.guestId, centerId: attempt.centerId });
}

/** The offer code on the invoice; a refusal or a lost answer is logged, the charge follows the invoice. */
async function applyPromo(services: Services, attempt: PaymentAttempt): Promise<void> {
  try {
    const applied = await services.spa.applyCampaign(attempt.invoiceId!, attempt.centerId, attempt.promoCode!);
    if (!applied.applied) logger.warn("campaign not applied by the back end", { reason: applied.message ?? "" });
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("campaign answer lost; the charge follows the invoice", { kind: error.kind, status: error.status });
  }
}

/**
 * Every appointment line goes, so nothing half-booked is left behind. After a failed payment, the
 * line a package session paid for is removed as the package's (the back end gives the session back).
 */
async function removeLines(services: Services, attempt: PaymentAttempt, comment: string): Promise<void> {
  for (const [index, itemId] of attempt.invoiceItemIds.entries()) {
    const packageLine = index === 0 && attempt.packageRedeemed && comment === PAYMENT_FAILED_COMMENT;
    try {
      await services.spa.removeInvoiceItem(
        attempt.invoiceId!,
        itemId,
        packageLine ? PACKAGE_PAYMENT_FAILED_COMMENT : comment,
      );
    } catch (error) {
      // A refusal here means the line is already gone (an earlier try removed it); a lost answer
      // stops the undo, to be finished by the next try.
      if (!isSpaError(error) || !isRefusal(error)) throw error;
    }
  }
}

/** The site's public origin for links in messages: PUBLIC_URL, or the origin the guest is using; null when neither is known (the reconciler, unconfigured). */
function publicOrigin(services: Services, returnTo: string | undefined): string | null {
  if (services.env.PUBLIC_URL) return services.env.PUBLIC_URL.replace(/\/+$/, "");
  try {
    return returnTo ? new URL(returnTo).origin : null;
  } catch {
    return null;
  }
}

/**
 * The spec's user tag for how the booking is paid (PPD-A prepaid, PPD-B paid at the clinic, PPD-C a
 * package session) on the guest's record in the back end, beside the tags staff set. Once, with the
 * confirmation's messages; a tag that could not be written does not undo the booking.
 */
async function tagPaymentKind(services: Services, attempt: PaymentAttempt): Promise<void> {
  const tag = paymentTag({ prepaid: attempt.prepaid, packageUsed: Boolean(attempt.packageUse) });
  await services.spa.updateGuestProfile(attempt.guestId, { addTags: [tag] }).catch((error: unknown) => {
    if (!isSpaError(error)) throw error;
    logger.warn("payment tag not written", { tag, kind: error.kind, status: error.status });
  });
}

async function notifyBooked(services: Services, attempt: PaymentAttempt, origin: string | null): Promise<void> {
  if (!attempt.contact) return;
  try {
    const center = await services.catalog.getCenter(attempt.centerId);
    if (!center) return;
    const when = dayjs(attempt.slot, "YYYY-MM-DDTHH:mm:ss").format("dddd, MMMM D, YYYY h:mm A");
    const what = attempt.serviceNames.join(", ");
    const address = `${center.address.line1}, ${center.address.city}, ${center.address.state} ${center.address.zip}`;
    // The link that opens this visit without signing in (decision 022): the invoice names it.
    const manage =
      origin && attempt.invoiceId
        ? manageLinkUrl(services, origin, attempt.guestId, { id: attempt.invoiceId, start: attempt.slot, center })
        : null;
    await services.notifier.send({
      channel: "email",
      kind: "booking-confirmation",
      to: attempt.contact.email,
      subject: `Your appointment at ${center.name} is confirmed`,
      body: `Hi ${attempt.contact.firstName},\n\nYou're booked: ${what}\n${when} at ${center.name}, ${address}.\n\nPlease arrive 10 minutes early, with photo ID if this is your first visit.\n${cancellationReminder(CANCELLATION_POLICY)}${manage ? `: ${manage}` : "."}${manage ? `\nAdd it to your calendar: ${manage}/calendar.ics` : ""}`,
    });
    await services.notifier.send({
      channel: "sms",
      kind: "booking-confirmation",
      to: attempt.contact.phone,
      subject: "Booking confirmed",
      body: `Glow Clinic: you're booked for ${when} at ${center.name}.${manage ? ` Manage it: ${manage}` : ""} Reply STOP to opt out.`,
    });
  } catch (error) {
    // The booking stands either way; a message that could not go out is not a failed booking.
    logger.error("booking confirmation not sent", { error: (error as Error).message });
  }
}
