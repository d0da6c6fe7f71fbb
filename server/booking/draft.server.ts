import { randomUUID } from "node:crypto";
import { href, redirect } from "react-router";
import { z } from "zod";
import { MAX_ADD_ONS } from "~/domain/booking";
import { requestSession, type RequestContext } from "../request-context.server";
import type { AppSession } from "../session.server";
import type { PaymentAttempt } from "../store/stores.server";
import { flashNotBooked } from "./not-booked.server";

/**
 * The booking in progress, kept in the encrypted session: ids and choices only, never catalog data,
 * so the cookie stays small. Reload, back button and a second tab read the same draft.
 */
export const DraftSchema = z.object({
  /** Names this booking in progress for its own limit on holding slots. */
  id: z.string().optional(),
  centerId: z.string(),
  serviceId: z.string().optional(),
  addOnIds: z.array(z.string()).default([]),
  therapistId: z.string().nullable().default(null),
  date: z.string().optional(),
  promoCode: z.string().optional(),
  /**
   * 1: a session of the signed-in guest's package pays for the treatment (the spec's packageId). Which
   * package is read from the back end when needed; a short key, because the worst-case draft is
   * within a few bytes of the cookie's 4096.
   */
  pkg: z.literal(1).optional(),
  /**
   * The time a visitor not yet known chose: held only when their details come (the details step),
   * because a Zenoti hold belongs to one guest and cannot be moved to another.
   */
  slot: z.string().optional(),
  /**
   * The visitor's guest record: their account's, a texted link's, one made from their details, or
   * an existing client's after they proved the contact on file with a one-time code.
   */
  guestId: z.string().optional(),
  /**
   * An existing client's record the visitor must prove is theirs (a code was sent to the contact on
   * file); what they typed waits in `details`, with no guest yet.
   */
  verification: z
    .object({
      guestId: z.string(),
      /** The contact on file, masked, to say where the code went. */
      sentTo: z.array(z.string().max(80)).max(2),
    })
    .optional(),
  details: z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string() }).optional(),
  hold: z
    .object({
      bookingId: z.string(),
      slot: z.string(),
      reservationId: z.string(),
      expiresAt: z.string(),
      /** Its place among the live holds of the visitor's address. */
      claim: z.object({ key: z.string(), id: z.string() }).optional(),
    })
    .optional(),
  billing: z.object({ address: z.string(), city: z.string(), state: z.string(), zip: z.string() }).optional(),
  /**
   * The cards saved when the visitor left for the hosted card page (their number and a digest of
   * their ids): on return, a set that is not the same, and no smaller, holds the card added. No clock
   * is compared: Zenoti's card dates may be clinic-local.
   */
  cardsBefore: z.object({ count: z.number().int().min(0), digest: z.string().max(32) }).optional(),
  /** Idempotency key of the confirm-and-pay submit. */
  payKey: z.string().optional(),
  /** The employee booking for the guest (the spec's done_by), from a staff link. */
  doneBy: z.string().optional(),
});

export type Draft = z.infer<typeof DraftSchema>;

/** The last confirmed booking of this browser, so its confirmation page can be shown again. */
export const ConfirmedSchema = z.object({
  appointmentId: z.string(),
  invoiceId: z.string(),
  guestId: z.string(),
  centerId: z.string(),
  /**
   * What was booked, from the confirm's answer, so the confirmation page need not ask the back end
   * for it again (Zenoti meters every call). Absent when the booking was found another way.
   */
  visit: z
    .object({
      start: z.string().max(19),
      end: z.string().max(19),
      services: z.array(z.string().max(120)).max(MAX_ADD_ONS + 1),
      nurse: z.string().max(120).nullish(),
    })
    .optional(),
  /** The back end's paid and due amounts in cents and the invoice's number, when the booking read them (a prepaid visit). */
  invoice: z
    .object({ paid: z.number().int(), due: z.number().int(), reference: z.string().max(40).nullish() })
    .optional(),
});
export type Confirmed = z.infer<typeof ConfirmedSchema>;

export function getDraft(session: AppSession): Draft | null {
  const parsed = DraftSchema.safeParse(session.get("draft"));
  return parsed.success ? parsed.data : null;
}

export function setDraft(session: AppSession, draft: Draft | null) {
  if (draft) session.set("draft", draft);
  else session.unset("draft");
}

export function getConfirmed(session: AppSession): Confirmed | null {
  const parsed = ConfirmedSchema.safeParse(session.get("confirmed"));
  return parsed.success ? parsed.data : null;
}

/** What the session keeps of a booked attempt for its confirmation page. */
export function confirmedOf(attempt: PaymentAttempt): Confirmed {
  const visit = attempt.visitEnd
    ? {
        start: attempt.slot,
        end: attempt.visitEnd,
        services: attempt.serviceNames.slice(0, MAX_ADD_ONS + 1).map((name) => name.slice(0, 120)),
        nurse: attempt.nurseName?.slice(0, 120) ?? null,
      }
    : undefined;
  const booked = attempt.bookedInvoice;
  const invoice = booked
    ? { paid: booked.paid, due: booked.due, reference: booked.reference?.slice(0, 40) ?? null }
    : undefined;
  return {
    appointmentId: attempt.appointmentId!,
    invoiceId: attempt.invoiceId!,
    guestId: attempt.guestId,
    centerId: attempt.centerId,
    visit,
    invoice,
  };
}

export function setConfirmed(session: AppSession, confirmed: Confirmed) {
  session.set("confirmed", confirmed);
}

export function newPayKey(): string {
  return randomUUID();
}

/** The held slot is still ours. */
export function holdIsLive(draft: Draft, now: number): boolean {
  return Boolean(draft.hold && Date.parse(draft.hold.expiresAt) > now);
}

export { HOLD_EXPIRED_MESSAGE } from "~/domain/booking";

/**
 * Sends the visitor back to the time step when their hold ran out, keeping every other choice, and
 * says there that nothing was booked.
 */
function requireLiveHold(context: RequestContext, draft: Draft): void {
  if (holdIsLive(draft, Date.now())) return;
  setDraft(requestSession(context), { ...draft, hold: undefined, payKey: undefined });
  if (draft.hold) {
    flashNotBooked(context, { kind: "hold-expired", slot: draft.hold.slot, resume: "time" });
    context.services.analytics.record({
      name: "hold_expired",
      properties: { bookingId: draft.hold.bookingId, centerId: draft.centerId },
    });
  }
  throw redirect(`${href("/appointment/time")}${draft.date ? `?date=${draft.date}` : ""}`);
}

/** The visitor's guest is known (signed in, a texted link, details given): a time is held when chosen. */
export function knownGuest(draft: Draft): boolean {
  return Boolean(draft.guestId && draft.details);
}

/** A time is chosen but not yet held: the visitor is not known yet, so it is held after their details. */
export function timeChosen(draft: Draft): boolean {
  return Boolean(!draft.hold && draft.slot && !knownGuest(draft));
}

/** The first step that still needs an answer. */
export function firstOpenStep(draft: Draft | null): string {
  if (!draft) return href("/locations");
  if (!draft.serviceId) return `${href("/appointment/service")}?id=${encodeURIComponent(draft.centerId)}`;
  if (!draft.hold && !timeChosen(draft))
    return `${href("/appointment/time")}${draft.date ? `?date=${draft.date}` : ""}`;
  if (draft.verification && !draft.hold) return href("/appointment/verify");
  if (!draft.details || !draft.hold) return href("/appointment/details");
  return href("/appointment/payment");
}

/**
 * A booking step that needs a draft with a chosen service, or sends the visitor where to start.
 * "time": a held time, or a chosen one waiting for the visitor's details.
 */
export async function requireDraft(
  context: RequestContext,
  needs: "service" | "time" | "hold" | "details",
): Promise<{ session: AppSession; draft: Draft }> {
  const session = requestSession(context);
  const draft = getDraft(session);
  if (!draft || !draft.serviceId) throw redirect(firstOpenStep(draft));
  if (needs === "service") return { session, draft };
  if (needs === "time" && timeChosen(draft)) return { session, draft };
  if (!draft.hold) throw redirect(firstOpenStep(draft));
  // Once the confirm went out the hold is used up: the payment step finishes that attempt.
  if (
    needs === "details" &&
    draft.details &&
    draft.payKey &&
    !holdIsLive(draft, Date.now()) &&
    (await context.services.stores.paymentAttempts.get(draft.payKey))
  ) {
    return { session, draft };
  }
  requireLiveHold(context, draft);
  if (needs === "details" && !draft.details) throw redirect(href("/appointment/details"));
  return { session, draft };
}
