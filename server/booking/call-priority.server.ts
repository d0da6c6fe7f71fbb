import type { MiddlewareFunction } from "react-router";
import type { Services } from "../services";
import { requestSession } from "../request-context.server";
import { withCallPriority, type CallScope } from "../spa/call-governor.server";
import { getDraft, type Draft } from "./draft.server";

/**
 * Who a booking step's back-end calls are for (decision 036): a booking that holds a slot comes
 * first, up to the last of the organisation's calls; one on its way to a hold spends the calls
 * reserved for it when it was let in. A draft with neither is a visitor still looking.
 */
export function bookingScope(draft: Pick<Draft, "id" | "hold"> | null, now = Date.now()): CallScope | null {
  if (draft?.hold) {
    // Waits end with the hold; once it has run out (a confirmed booking still being paid) only the payment lease bounds them.
    const expiresAt = Date.parse(draft.hold.expiresAt);
    return { priority: "held", booking: draft.id, holdUntil: expiresAt > now ? expiresAt : undefined };
  }
  if (draft?.id) return { priority: "booking", booking: draft.id };
  return null;
}

/** Runs `work` as the booking's. */
export function forBooking<T>(draft: Pick<Draft, "id" | "hold"> | null, work: () => T): T {
  const scope = bookingScope(draft);
  return scope ? withCallPriority(scope, work) : work();
}

/**
 * Route middleware for the steps after a time is chosen (details, verify, payment): their loaders'
 * and actions' calls are the booking's, whichever use case makes them.
 */
export const bookingCallPriority: MiddlewareFunction<Response> = async ({ context }, next) =>
  forBooking(getDraft(requestSession(context)), next);

/** Services made by hand (tests) may have no governor: every call then goes as it comes. */
const governorOf = (services: Pick<Services, "callGovernor">) => services.callGovernor ?? null;

/**
 * Lets a new booking in before anything is held for it, or says in how many seconds to try again:
 * the organisation's bucket must cover its calls besides those kept for the bookings under way.
 */
export async function admitBooking(
  services: Pick<Services, "callGovernor">,
  bookingId: string,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  return (await governorOf(services)?.admit(bookingId)) ?? { ok: true };
}

/** The booking holds a slot until `expiresAt` (ISO): its remaining calls are kept for it until then. */
export async function keepCallsForHold(
  services: Pick<Services, "callGovernor">,
  bookingId: string,
  expiresAt: string,
): Promise<void> {
  await governorOf(services)?.holding(bookingId, Date.parse(expiresAt));
}

/** The booking ended (booked or not): the calls kept for it are free for others. */
export async function freeBookingCalls(
  services: Pick<Services, "callGovernor">,
  bookingId: string | undefined,
): Promise<void> {
  if (bookingId) await governorOf(services)?.release(bookingId);
}
