import type { Service } from "~/domain/catalog";
import { downtimeRefusal, fixerAllowedAlone, type DowntimeRefusal } from "~/domain/downtime";
import { serviceKind } from "~/domain/service-kinds";
import { appCache } from "../cache/cache.server";
import type { CurrentUser, Services } from "../services";
import { logger } from "../observability/logger.server";
import type { NewGuest } from "../spa/booking.server";
import { withCallPriority } from "../spa/call-governor.server";
import { isSpaError } from "../spa/errors.server";
import { admitBooking, keepCallsForHold } from "./call-priority.server";
import type { Draft } from "./draft.server";
import {
  dropHoldClaim,
  keepHoldClaim,
  mayCreateGuest,
  startHoldAttempt,
  tooManyHoldsMessage,
} from "./hold-limits.server";
import { treatmentHistory } from "./downtime.server";
import { draftSlotQuery, dropDraftHold, forgetOpenTimes, openTimes } from "./holds.server";
import { noteTimeMayOpen } from "../store/waitlist-signal.server";
import { adoptSignedInGuest } from "./signed-in.server";

/** A hold is looked at for the waitlist this long after it runs out, when the back end has surely let it go. */
const HOLD_END_MARGIN_MS = 5_000;

/**
 * What came of holding a time. Every outcome carries the draft to keep, so a guest record made on
 * the way is used again by the next attempt instead of another being made.
 */
export type HoldOutcome = { draft: Draft } & (
  | { kind: "held" }
  | { kind: "too-many"; message: string; retryAfterSeconds: number }
  /** Medical downtime refuses the day (the time step offers only days it leaves; this is its safety net). */
  | { kind: "downtime"; refusal: DowntimeRefusal }
  /** The fixer booked on its own by a visitor with no laser facial in the 30 days before. */
  | { kind: "fixer-alone" }
  | { kind: "taken" }
  /** The back end refused the visitor's details for a new guest record (its legacy code). */
  | { kind: "refused"; code: string; message: string }
  | { kind: "unavailable" }
  /** The chain's booking system is at its call limit: nothing was made; try again in so many seconds (decision 036). */
  | { kind: "busy"; retryAfterSeconds: number }
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
  /**
   * The visitor's own guest record to make when the draft has none yet: only at the details step,
   * with their real name, email and mobile number (a Zenoti organisation may require them).
   */
  newGuest?: NewGuest;
};

/**
 * Holds a time for a known visitor: under their account's guest when signed in, the draft's guest
 * (a texted link, an earlier details step, a verified existing client), or a guest made from the
 * details they just gave. A Zenoti hold belongs to its guest, so it is never made for anyone else.
 */
export async function holdSlot(services: Services, request: HoldRequest): Promise<HoldOutcome> {
  // The id names this booking in progress for its own attempt limit and its calls; it is kept on every answer.
  const draft: Draft = { ...request.draft, id: request.draft.id ?? crypto.randomUUID() };
  // Until it holds, its calls are a new booking's, spending what was kept for it when it was let in (decision 036).
  return withCallPriority({ priority: "booking", booking: draft.id }, () =>
    holdForBooking(services, { ...request, draft }),
  );
}

async function holdForBooking(services: Services, request: HoldRequest): Promise<HoldOutcome> {
  const { draft, centerId, service, slot, date, timeZone, clientIp, user } = request;
  const query = draftSlotQuery(draft, { centerId, serviceId: service.id, date });

  // The limits come before anything is made in the back end: a refused attempt leaves nothing behind.
  const gate = await startHoldAttempt(services.rateLimiter, clientIp, draft.id!, draft.hold?.claim);
  if (!gate.ok)
    return { kind: "too-many", message: tooManyHoldsMessage(gate), retryAfterSeconds: gate.retryAfterSeconds, draft };
  const { claim } = gate;
  let held = false;
  const guestBefore = draft.guestId;
  const fixerAlone = serviceKind(service.name) === "fixer";
  try {
    // Let in before anything is made: a booking the organisation's calls cannot carry now waits before it starts, not halfway.
    const admission = await admitBooking(services, draft.id!);
    if (!admission.ok) return { kind: "busy", retryAfterSeconds: admission.retryAfterSeconds, draft };
    if (user && draft.guestId !== user.guestId) {
      // Signed in: book under the account's own guest, with its details.
      const adopted = await adoptSignedInGuest(services, { ...draft, hold: undefined }, user);
      if (adopted !== "taken") Object.assign(draft, { guestId: adopted.guestId, details: adopted.details });
    }
    if (draft.guestId && draft.details) {
      // A known guest (signed in, or a texted link): medical downtime after their other treatments applies.
      const visits = await treatmentHistory(services, draft.guestId);
      const refusal = downtimeRefusal(service.name, date, visits, services.env.MEDICAL_DOWNTIME_DAYS);
      if (refusal) return { kind: "downtime", refusal, draft };
      if (fixerAlone && !fixerAllowedAlone(date, visits)) return { kind: "fixer-alone", draft };
    }
    // A visitor not yet known has had no facial with us: no guest record is made for a fixer alone.
    if (fixerAlone && !draft.guestId) return { kind: "fixer-alone", draft };
    if (!draft.guestId) {
      if (!request.newGuest) throw new Error("A time is held only for a known guest or with the visitor's details");
      const allowed = await mayCreateGuest(services.rateLimiter, clientIp);
      if (!allowed.ok)
        return {
          kind: "too-many",
          message: tooManyHoldsMessage(allowed),
          retryAfterSeconds: allowed.retryAfterSeconds,
          draft,
        };
      const created = await createVisitorGuest(services, request.newGuest);
      if ("refused" in created) return { kind: "refused", code: created.code, message: created.refused, draft };
      draft.guestId = created.id;
      // A new guest booking is a lead for the chain's marketing (decision 029), sent once: the
      // record is made once per visitor, and later tries of this booking reuse it.
      services.leads.send({
        kind: "booking",
        firstName: request.newGuest.firstName,
        lastName: request.newGuest.lastName,
        email: request.newGuest.email,
        phone: request.newGuest.phone,
        centerId,
        guestId: created.id,
        booking: { start: slot, services: [service.name] },
        tags: request.newGuest.tags,
      });
    }
    // Zenoti has no call to drop a hold. Another time on the same day is reserved on the same
    // booking, which replaces its hold, so the visitor's first choice does not block the second.
    const sameBooking =
      draft.hold && draft.hold.slot.slice(0, 10) === date && draft.guestId === guestBefore
        ? draft.hold.bookingId
        : null;
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
    await keepCallsForHold(services, draft.id!, hold.expiresAt);
    services.analytics.record({
      name: "time_held",
      userId: user?.id,
      properties: {
        bookingId,
        centerId,
        serviceIds: [service.id, ...draft.addOnIds],
        serviceCount: 1 + draft.addOnIds.length,
      },
    });
    await keepHoldClaim(services.rateLimiter, claim, hold.expiresAt);
    // A waiting guest may get the time when the hold runs out (Zenoti lets it go only then), and a
    // time replaced on the same booking is free now (decision 058).
    await noteTimeMayOpen(services.stores, { centerId, date, at: Date.parse(hold.expiresAt) + HOLD_END_MARGIN_MS });
    if (sameBooking && draft.hold && draft.hold.slot !== slot)
      await noteTimeMayOpen(services.stores, { centerId, date, at: Date.now() });
    // The replaced hold's place among the address's live holds is ours to give back.
    if (draft.hold) await dropHoldClaim(services.rateLimiter, draft.hold.claim);
    return {
      kind: "held",
      draft: {
        ...draft,
        date,
        slot: undefined,
        hold: { bookingId, slot, reservationId: hold.reservationId, expiresAt: hold.expiresAt, claim },
        payKey: undefined,
      },
    };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("reserve failed", { kind: error.kind, status: error.status });
    return { kind: "unavailable", draft };
  } finally {
    if (!held) await dropHoldClaim(services.rateLimiter, claim);
  }
}

/**
 * A visitor not yet known chooses a time: it is kept in the draft, not held, because a Zenoti
 * hold belongs to one guest and there is no call to move it. A time no longer open is refused now,
 * so the visitor does not fill in their details for nothing.
 */
export async function chooseTime(
  services: Services,
  request: Pick<HoldRequest, "draft" | "centerId" | "service" | "slot" | "date">,
): Promise<
  | { kind: "chosen"; draft: Draft }
  | { kind: "taken" }
  | { kind: "unavailable" }
  | { kind: "busy"; retryAfterSeconds: number; draft: Draft }
> {
  const { centerId, service, slot, date } = request;
  const draft: Draft = { ...request.draft, id: request.draft.id ?? crypto.randomUUID() };
  const query = draftSlotQuery(draft, { centerId, serviceId: service.id, date });
  // The booking starts here: let in only while the organisation's calls can carry it to its
  // confirmation, else told to wait now, with the day kept, rather than refused halfway (decision 036).
  const admission = await admitBooking(services, draft.id!);
  if (!admission.ok) return { kind: "busy", retryAfterSeconds: admission.retryAfterSeconds, draft: { ...draft, date } };
  try {
    const { times } = await withCallPriority({ priority: "booking", booking: draft.id }, () =>
      openTimes(services, query),
    );
    if (!times.includes(slot)) return { kind: "taken" };
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("slots unavailable", { kind: error.kind, status: error.status });
    return { kind: "unavailable" };
  }
  // A hold this draft had is not carried over: its place among the address's live holds is freed.
  await dropDraftHold(services, draft);
  return {
    kind: "chosen",
    draft: { ...draft, id: draft.id ?? crypto.randomUUID(), date, slot, hold: undefined, payKey: undefined },
  };
}

/** A guest record from the visitor's details, or the back end's refusal of them (a bad email, a bad number). */
async function createVisitorGuest(
  services: Services,
  guest: NewGuest,
): Promise<{ id: string } | { refused: string; code: string }> {
  try {
    const created = await services.spa.createGuest(guest);
    // Nothing to read yet: the kept card and membership lists start empty.
    appCache.emit("guestCreated", { guestId: created.id, centerId: guest.centerId });
    return created;
  } catch (error) {
    if (isSpaError(error) && error.kind === "rejected") return { refused: error.message, code: String(error.code) };
    throw error;
  }
}
