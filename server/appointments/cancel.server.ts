import { APPOINTMENT_STATUS, insideFeeWindow } from "~/domain/appointments";
import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";
import type { CancelReason } from "../spa/booking.server";
import { isSpaError } from "../spa/errors.server";
import type { VisitAccess } from "./access.server";
import { noteTimeMayOpen } from "../store/waitlist-signal.server";
import { sendVisitChanged } from "./visit-messages.server";
import { calendarKey, isChangeable, type Visit } from "./visits.server";

/**
 * How a visit may be cancelled (decision 020): online, with a reason and a comment, while it is
 * booked, not started and nothing has been paid on it; a paid visit by calling the clinic (Zenoti
 * cannot cancel an invoice with payments, and a refund is the clinic's to make).
 */
export type CancelPolicy =
  | { kind: "online"; lateFee: boolean }
  | { kind: "call-clinic"; phone: string }
  | { kind: "not-cancellable"; why: "cancelled" | "over" };

export function cancelPolicyOf(visit: Visit, paid: boolean, now = Date.now()): CancelPolicy {
  if (visit.status === APPOINTMENT_STATUS.CANCELLED) return { kind: "not-cancellable", why: "cancelled" };
  if (!isChangeable(visit, now)) return { kind: "not-cancellable", why: "over" };
  if (paid) return { kind: "call-clinic", phone: visit.center!.phone };
  return { kind: "online", lateFee: insideFeeWindow(visit.start, now, visit.center!.timeZone) };
}

/** Whether anything has been paid on the visit's invoice. */
async function hasPayments(services: Services, visit: Visit): Promise<boolean> {
  if (!visit.invoiceId) return false;
  return (await services.spa.getInvoice(visit.invoiceId)).paid > 0;
}

/** The back end's reasons change rarely: read at most every ten minutes. */
const chainReasons = appCache.define<CancelReason[], "chain">({
  name: "cancel-reasons",
  key: (scope) => scope,
  ttlMs: 10 * 60_000,
  staleMs: 60 * 60_000,
  maxEntries: 1,
});

export function cancelReasons(services: Services): Promise<CancelReason[]> {
  return chainReasons.get("chain", () => services.spa.listCancelReasons());
}

/** What the cancel page needs: the policy and, for an online cancel, the reasons. */
export async function cancelPage(
  services: Services,
  visit: Visit,
  now = Date.now(),
): Promise<{ policy: CancelPolicy; reasons: CancelReason[] }> {
  const first = cancelPolicyOf(visit, false, now);
  if (first.kind !== "online") return { policy: first, reasons: [] };
  const [paid, reasons] = await Promise.all([hasPayments(services, visit), cancelReasons(services)]);
  const policy = cancelPolicyOf(visit, paid, now);
  return { policy, reasons: policy.kind === "online" ? reasons : [] };
}

export type CancelOutcome =
  | { kind: "cancelled"; feeCharged: boolean }
  | { kind: "not-cancellable"; policy: Exclude<CancelPolicy, { kind: "online" }> }
  | { kind: "unknown-reason" }
  | { kind: "refused"; message: string };

/**
 * Cancels the visit with the guest's reason and comment: checked again here (the page may be old,
 * or a second submit may follow the first), then Zenoti's cancel of the visit's invoice, a new
 * calendar revision and the guest's messages. An outage throws (the action keeps what was typed).
 */
export async function cancelVisit(
  services: Services,
  access: VisitAccess,
  input: { reasonId: string; comment: string; origin: string },
  now = Date.now(),
): Promise<CancelOutcome> {
  const { visit } = access;
  const { policy, reasons } = await cancelPage(services, visit, now);
  if (policy.kind !== "online") return { kind: "not-cancellable", policy };
  const reason = reasons.find((r) => r.id.toLowerCase() === input.reasonId.toLowerCase());
  if (!reason) return { kind: "unknown-reason" };
  let feeCharged: boolean;
  try {
    ({ chargeApplied: feeCharged } = await services.spa.cancelInvoice(visit.invoiceId!, reason.id, input.comment));
  } catch (error) {
    if (!(isSpaError(error) && error.kind === "rejected")) throw error;
    logger.warn("cancel refused by the back end", { code: String(error.code) });
    return { kind: "refused", message: refusalMessage(String(error.code), visit) };
  }
  await services.stores.visitRevisions.bump(calendarKey(visit), now);
  // Its time is free now: the waitlist's next pass looks at the day (decision 058).
  if (visit.center)
    await noteTimeMayOpen(services.stores, { centerId: visit.center.id, date: visit.start.slice(0, 10), at: now });
  const cancelled: Visit = {
    ...visit,
    status: APPOINTMENT_STATUS.CANCELLED,
    statusLabel: "Cancelled",
    upcoming: false,
  };
  await sendVisitChanged(services, {
    origin: input.origin,
    guestId: access.guestId,
    visit: cancelled,
    change: { kind: "cancelled", feeCharged },
  });
  return { kind: "cancelled", feeCharged };
}

function refusalMessage(code: string, visit: Visit): string {
  const phone = visit.center?.phone;
  const call = phone
    ? ` Please call the clinic at ${phone.replace(/(\d{3})(\d{3})(\d{4})/, "$1-$2-$3")}.`
    : " Please call the clinic.";
  return code === "502"
    ? `This appointment can't be cancelled online.${call}`
    : `We couldn't cancel this appointment.${call}`;
}
