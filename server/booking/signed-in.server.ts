import type { CurrentUser, Services } from "../services";
import type { GuestRef } from "../guests/holdings.server";
import type { Draft } from "./draft.server";
import { dropHoldClaim, keepHoldClaim } from "./hold-limits.server";

/**
 * Who is booking, as far as the visitor has proved it: their account's own guest; else the guest
 * of the booking in progress once it is known (a texted link, an existing client's record proved
 * with a code, a guest made from their details); else no one yet.
 */
export function bookingGuest(
  user: CurrentUser | null,
  draft: { guestId?: string; details?: { email: string }; verification?: unknown } | null,
): GuestRef | null {
  if (user) return { guestId: user.guestId, email: user.email, own: true };
  if (draft?.guestId && draft.details && !draft.verification)
    return { guestId: draft.guestId, email: draft.details.email };
  return null;
}

/**
 * A visitor who signs in during the journey books as themselves: their details come from their
 * account, and a slot held before they signed in is held again under their own guest record.
 * "taken" when no nurse is free for it under their record: Zenoti cannot drop the first hold, so
 * when it held the only free nurse the time stays blocked until that hold runs out.
 */
export async function adoptSignedInGuest(
  services: Services,
  draft: Draft,
  user: CurrentUser,
): Promise<Draft | "taken"> {
  const guest = await services.spa.getGuest(user.guestId);
  const details = {
    firstName: guest?.firstName ?? "",
    lastName: guest?.lastName ?? "",
    email: user.email,
    phone: guest?.phone ?? "",
  };
  if (!draft.hold || draft.guestId === user.guestId) return { ...draft, guestId: user.guestId, details };
  // The clinic's zone reads the new hold's expiry; a clinic gone from the catalog cannot be held.
  const center = await services.catalog.getCenter(draft.centerId);
  if (!center) return "taken";
  const bookingId = await services.spa.createBooking({
    centerId: draft.centerId,
    date: draft.hold.slot.slice(0, 10),
    guestId: user.guestId,
    serviceId: draft.serviceId!,
    therapistId: draft.therapistId,
    addOnIds: draft.addOnIds,
  });
  // The new hold takes the old one's place among the address's live holds.
  const claim = draft.hold.claim;
  const hold = await services.spa.reserveSlot(bookingId, draft.hold.slot, center.timeZone);
  if (!hold) {
    await dropHoldClaim(services.rateLimiter, claim);
    return "taken";
  }
  if (claim) await keepHoldClaim(services.rateLimiter, claim, hold.expiresAt);
  return {
    ...draft,
    guestId: user.guestId,
    details,
    hold: { bookingId, slot: draft.hold.slot, reservationId: hold.reservationId, expiresAt: hold.expiresAt, claim },
    payKey: undefined,
  };
}
