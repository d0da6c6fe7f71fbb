import type { Service } from "~/domain/catalog";
import { violatesDowntime } from "~/domain/downtime";
import type { CurrentUser } from "../accounts/account-service.server";
import type { Services } from "../context.server";
import { logger } from "../observability/logger.server";
import { isSpaError } from "../spa/errors.server";
import type { Draft } from "./draft.server";
import { dropHoldClaim, keepHoldClaim, mayCreateGuest, startHoldAttempt, tooManyHoldsMessage } from "./hold-limits.server";
import { forgetOpenTimes, type SlotQuery } from "./holds.server";
import { adoptSignedInGuest } from "./signed-in.server";

/**
 * What came of holding a time. Every outcome carries the draft to keep, so a guest record made on
 * the way is used again by the next attempt instead of another being made.
 */
export type HoldOutcome = { draft: Draft } & (
  | { kind: "held" }
  | { kind: "too-many"; message: string; retryAfterSeconds: number }
  | { kind: "downtime" }
  | { kind: "taken" }
  | { kind: "unavailable" }
);

export type HoldRequest = {
  draft: Draft;
  centerId: string;
  service: Service;
  /** The clinic's local time of the slot and its date, already checked against the bookable days. */
  slot: string;
  date: string;
  /** The clinic's IANA zone, which reads the hold's expiry. */
  timeZone: string;
  clientIp: string;
  user: CurrentUser | null;
};

/** Holds a time for the visitor: under their account's guest when signed in, else a lead guest of their own. */
export async function holdSlot(services: Services, request: HoldRequest): Promise<HoldOutcome> {
  const { centerId, service, slot, date, timeZone, clientIp, user } = request;
  // The id names this booking in progress for its own attempt limit; it is kept on every answer.
  const draft: Draft = { ...request.draft, id: request.draft.id ?? crypto.randomUUID() };
  const query: SlotQuery = { centerId, serviceId: service.id, addOnIds: draft.addOnIds, therapistId: draft.therapistId, date };

  // The limits come before anything is made in the back end: a refused attempt leaves nothing behind.
  const gate = startHoldAttempt(services.rateLimiter, clientIp, draft.id!, draft.hold?.claim);
  if (!gate.ok) return { kind: "too-many", message: tooManyHoldsMessage(gate), retryAfterSeconds: gate.retryAfterSeconds, draft };
  const { claim } = gate;
  let held = false;
  const guestBefore = draft.guestId;
  try {
    if (user && draft.guestId !== user.guestId) {
      // Signed in: book under the account's own guest, with its details.
      const adopted = await adoptSignedInGuest(services, { ...draft, hold: undefined }, user);
      if (adopted !== "taken") Object.assign(draft, { guestId: adopted.guestId, details: adopted.details });
    }
    if (draft.guestId && draft.details) {
      // A known guest (signed in, or a texted link): medical downtime after their other treatments applies.
      const history = await services.spa.listGuestAppointments(draft.guestId, { size: 100 });
      const visits = history.flatMap((a) => a.services.map((s) => ({ name: s.name, start: s.start, status: s.status })));
      if (violatesDowntime(service.name, date, visits, services.env.MEDICAL_DOWNTIME_DAYS)) return { kind: "downtime", draft };
    }
    if (!draft.guestId) {
      const allowed = mayCreateGuest(services.rateLimiter, clientIp);
      if (!allowed.ok) return { kind: "too-many", message: tooManyHoldsMessage(allowed), retryAfterSeconds: allowed.retryAfterSeconds, draft };
      // The visitor's own guest record, filled in at the details step.
      const guest = await services.spa.createGuest({
        centerId,
        firstName: "Online",
        lastName: "Guest",
        email: null,
        phone: null,
        consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
        tags: ["Booking Lead", "NBF"],
      });
      draft.guestId = guest.id;
    }
    // Zenoti has no call to drop a hold. Another time on the same day is reserved on the same
    // booking, which replaces its hold, so the visitor's first choice does not block the second.
    const sameBooking = draft.hold && draft.hold.slot.slice(0, 10) === date && draft.guestId === guestBefore ? draft.hold.bookingId : null;
    let bookingId = sameBooking ?? (await services.spa.createBooking({ ...query, guestId: draft.guestId }));
    let hold = await services.spa.reserveSlot(bookingId, slot, timeZone);
    if (!hold && sameBooking) {
      // That booking may be used up (confirmed before a refused payment): try on a new one.
      bookingId = await services.spa.createBooking({ ...query, guestId: draft.guestId });
      hold = await services.spa.reserveSlot(bookingId, slot, timeZone);
    }
    forgetOpenTimes(query);
    if (!hold) return { kind: "taken", draft: { ...draft, date } };
    held = true;
    keepHoldClaim(services.rateLimiter, claim, hold.expiresAt);
    // The replaced hold's place among the address's live holds is ours to give back.
    if (draft.hold) dropHoldClaim(services.rateLimiter, draft.hold.claim);
    return {
      kind: "held",
      draft: { ...draft, date, hold: { bookingId, slot, reservationId: hold.reservationId, expiresAt: hold.expiresAt, claim }, payKey: undefined },
    };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("reserve failed", { kind: error.kind, status: error.status });
    return { kind: "unavailable", draft };
  } finally {
    if (!held) dropHoldClaim(services.rateLimiter, claim);
  }
}
