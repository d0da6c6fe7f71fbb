import { z } from "zod";
import { APPOINTMENT_STATUS, insideFeeWindow } from "~/domain/appointments";
import { HOLD_EXPIRED_MESSAGE } from "~/domain/booking";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";
import type { AppSession } from "../session.server";
import type { BookingRequest, SlotList } from "../spa/booking.server";
import { isSpaError } from "../spa/errors.server";
import type { VisitAccess } from "./access.server";
import { noteTimeMayOpen } from "../store/waitlist-signal.server";
import { sendVisitChanged } from "./visit-messages.server";
import { oneChangeAtATime } from "./visit-lock.server";
import { calendarKey, findVisit, isChangeable, loadGuestVisits, type Visit } from "./visits.server";

/**
 * Moving a visit, Zenoti's way (zenoti-api.md 4.5): a booking that carries the visit's invoice and
 * its treatment's line, its slots, a hold, a confirm that moves the visit on the same invoice. The
 * old time stays booked until the confirm; anything short of it leaves the visit as it was.
 */

/** The new time held for a visit, in the session (never in one process): small, checked when read. */
const RescheduleHoldSchema = z.object({
  visitId: z.string().max(64),
  bookingId: z.string().max(64),
  slot: z.string().max(19),
  reservationId: z.string().max(64),
  expiresAt: z.string().max(30),
  /** The visit's start when the new time was held: a confirm moves it only from there. Absent in holds kept before it was recorded. */
  from: z.string().max(19).optional(),
});
export type RescheduleHold = z.infer<typeof RescheduleHoldSchema>;

export function getRescheduleHold(session: AppSession, visitId: string): RescheduleHold | null {
  const parsed = RescheduleHoldSchema.safeParse(session.get("reschedule"));
  return parsed.success && parsed.data.visitId === visitId ? parsed.data : null;
}

export function setRescheduleHold(session: AppSession, hold: RescheduleHold | null) {
  if (hold) session.set("reschedule", hold);
  else session.unset("reschedule");
}

export type ReschedulePolicy =
  | { kind: "movable"; lateFee: boolean }
  | { kind: "not-movable"; why: "cancelled" | "over" };

/** A booked visit not yet started may move; inside 12 hours of its start the fee applies. */
export function reschedulePolicyOf(visit: Visit, now = Date.now()): ReschedulePolicy {
  if (visit.status === APPOINTMENT_STATUS.CANCELLED) return { kind: "not-movable", why: "cancelled" };
  if (!isChangeable(visit, now)) return { kind: "not-movable", why: "over" };
  return { kind: "movable", lateFee: insideFeeWindow(visit.start, now, visit.center!.timeZone) };
}

/** The reschedule booking of a visit for a date: its treatment, add-ons and nurse, on its invoice. */
function rescheduleRequest(access: VisitAccess, date: string): BookingRequest | null {
  const { visit } = access;
  const treatment = visit.services.find((s) => !s.isAddOn && s.status === APPOINTMENT_STATUS.NEW);
  if (!treatment?.serviceId || !treatment.invoiceItemId || !visit.invoiceId || !visit.center) return null;
  return {
    centerId: visit.center.id,
    date,
    guestId: access.guestId,
    serviceId: treatment.serviceId,
    therapistId: treatment.therapistId,
    addOnIds: visit.services
      .filter((s) => s.isAddOn && s.serviceId && s.status === APPOINTMENT_STATUS.NEW)
      .map((s) => s.serviceId!),
    reschedule: { invoiceId: visit.invoiceId, invoiceItemId: treatment.invoiceItemId },
  };
}

/**
 * The open times of a date for this visit: read through its own reschedule booking, so its current
 * time does not stand in the way and no other guest's record is used. Its current start is left out.
 */
export async function rescheduleTimes(
  services: Services,
  access: VisitAccess,
  date: string,
): Promise<SlotList | "not-movable"> {
  const request = rescheduleRequest(access, date);
  if (!request) return "not-movable";
  try {
    const bookingId = await services.spa.createBooking(request);
    const list = await services.spa.listSlots(bookingId, date);
    return { ...list, times: list.times.filter((t) => t !== access.visit.start) };
  } catch (error) {
    if (isSpaError(error) && error.kind === "rejected" && Number(error.code) === 5001) return "not-movable";
    throw error;
  }
}

export type HoldNewTimeOutcome = { kind: "held"; hold: RescheduleHold } | { kind: "taken" } | { kind: "not-movable" };

/** Holds the new time on a fresh reschedule booking (the visit keeps its own time meanwhile). */
export async function holdNewTime(services: Services, access: VisitAccess, slot: string): Promise<HoldNewTimeOutcome> {
  const request = rescheduleRequest(access, slot.slice(0, 10));
  if (!request || reschedulePolicyOf(access.visit).kind !== "movable") return { kind: "not-movable" };
  try {
    const bookingId = await services.spa.createBooking(request);
    const held = await services.spa.reserveSlot(bookingId, slot, access.visit.center!.timeZone);
    if (!held) return { kind: "taken" };
    return {
      kind: "held",
      hold: {
        visitId: access.visit.id,
        bookingId,
        slot,
        reservationId: held.reservationId,
        expiresAt: held.expiresAt,
        from: access.visit.start,
      },
    };
  } catch (error) {
    if (isSpaError(error) && error.kind === "rejected" && Number(error.code) === 5001) return { kind: "not-movable" };
    throw error;
  }
}

export type ConfirmMoveOutcome =
  | { kind: "moved"; start: string; duplicate: boolean }
  /** The visit was moved or cancelled from another window (or the front desk) since this hold: it is as `visit` says, unmoved by this confirm. */
  | { kind: "changed-elsewhere"; visit: Visit }
  | { kind: "expired"; message: string }
  | { kind: "no-hold" };

/**
 * Confirms the held time: Zenoti moves the visit on its invoice. Confirms of one visit run one at a
 * time (several windows may each hold a time), and each reads the visit again first: only a visit
 * still where the hold found it is moved, so every window is told the time the visit really has.
 * Then a new calendar revision and the guest's messages, once: a second submit of the same confirm
 * (the back end's confirm is idempotent) finds the booking already counted and sends nothing again.
 */
export async function confirmNewTime(
  services: Services,
  access: VisitAccess,
  hold: RescheduleHold | null,
  origin: string,
  now = Date.now(),
): Promise<ConfirmMoveOutcome> {
  if (!hold) return { kind: "no-hold" };
  return oneChangeAtATime<ConfirmMoveOutcome>(services, calendarKey(access.visit), async () => {
    const visit = findVisit(await loadGuestVisits(services, access.guestId, now), access.visit.id) ?? access.visit;
    const alreadyMoved = visit.start === hold.slot && visit.status === APPOINTMENT_STATUS.NEW;
    const from = hold.from ?? access.visit.start;
    if (!alreadyMoved && (visit.start !== from || visit.status !== APPOINTMENT_STATUS.NEW))
      return { kind: "changed-elsewhere", visit };
    if (!alreadyMoved && Date.parse(hold.expiresAt) <= now) return { kind: "expired", message: HOLD_EXPIRED_MESSAGE };
    const confirmed = await services.spa.confirmBooking(hold.bookingId, visit.center!.timeZone);
    if (!confirmed) return { kind: "expired", message: HOLD_EXPIRED_MESSAGE };
    // Counted once per reschedule booking, whichever request gets here first.
    const first = !(await services.rateLimiter.hit(`reschedule-confirmed:${hold.bookingId}`, 1, 24 * 3_600_000))
      .limited;
    if (first && !alreadyMoved) {
      await services.stores.visitRevisions.bump(calendarKey(visit), now);
      // The time it left is free now: the waitlist's next pass looks at that day (decision 058).
      await noteTimeMayOpen(services.stores, { centerId: visit.center!.id, date: visit.start.slice(0, 10), at: now });
      const moved: Visit = {
        ...visit,
        start: confirmed.items.map((i) => i.start).sort()[0] ?? hold.slot,
        services: visit.services.map((s) => {
          const item = confirmed.items.find((i) => i.appointmentId === s.appointmentId);
          return item ? { ...s, start: item.start } : s;
        }),
      };
      await sendVisitChanged(services, {
        origin,
        guestId: access.guestId,
        visit: moved,
        change: { kind: "rescheduled" },
      });
    } else {
      logger.info("reschedule confirm repeated", { duplicate: true });
    }
    return { kind: "moved", start: hold.slot, duplicate: !first || alreadyMoved };
  });
}
