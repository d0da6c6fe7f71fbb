import { data } from "react-router";
import type { Center } from "~/domain/catalog";
import type { GuestAppointment } from "../spa/booking.server";
import { clinicLocalAt, wallClockInstant } from "../spa/local-time.server";
import type { Cents } from "~/domain/money";
import type { Services } from "../services";
import { withCallPriority } from "../spa/call-governor.server";
import { isSpaError } from "../spa/errors.server";
import { requestSession, type RequestContext } from "../request-context.server";
import { orUnavailable } from "../unavailable.server";
import { getConfirmed } from "./draft.server";
import { visitCalendar } from "../appointments/calendar.server";
import { manageLinkUrl } from "../appointments/visit-messages.server";

export type ConfirmationView = {
  appointmentId: string;
  invoiceId: string;
  center: Center;
  services: string[];
  start: string;
  end: string;
  /** The nurse the back end named for the visit, when the confirm's answer said. */
  nurse: string | null;
  /** Paid, due and the invoice's number as the booking read them from the back end, when it did (else read on the page). */
  invoice: BookedInvoice | null;
};

const NOT_FOUND = "We can't find that booking.";

/**
 * When a visit starts and ends on the clinic's clock: from its first service's start to the end of
 * the one that ends last, each lasting its service's duration. Counted on real instants, so a
 * visit across a change of clocks still lasts as long as its services.
 */
export function visitSpan(
  services: Pick<GuestAppointment["services"][number], "start" | "durationMinutes">[],
  timeZone: string,
): { start: string; end: string } {
  const start = services.map((s) => s.start).sort()[0];
  const endMs = Math.max(...services.map((s) => wallClockInstant(s.start, timeZone) + s.durationMinutes * 60_000));
  return { start, end: clinicLocalAt(endMs, timeZone) };
}

/**
 * A confirmation is shown only to the browser that made the booking (its session names it);
 * any other id, or someone else's, is a 404.
 */
export async function loadConfirmation(context: RequestContext, appointmentId: string): Promise<ConfirmationView> {
  const { services } = context;
  const confirmed = getConfirmed(requestSession(context));
  if (!confirmed || confirmed.appointmentId !== appointmentId.toLowerCase()) throw data(NOT_FOUND, { status: 404 });
  const { visit } = confirmed;
  if (visit) {
    // Just booked: the confirm's answer said what and when; only the clinic is looked up (cached).
    const center = await orUnavailable(() => services.catalog.getCenter(confirmed.centerId));
    if (!center) throw data(NOT_FOUND, { status: 404 });
    return {
      appointmentId: confirmed.appointmentId,
      invoiceId: confirmed.invoiceId,
      center,
      services: visit.services.map(displayName),
      start: visit.start,
      end: visit.end,
      nurse: visit.nurse ?? null,
      invoice: confirmed.invoice ? { ...confirmed.invoice, reference: confirmed.invoice.reference ?? null } : null,
    };
  }
  const [center, appointments] = await orUnavailable(() =>
    // Still the booking's own calls, first among the chain's (decision 036).
    withCallPriority({ priority: "held" }, () =>
      Promise.all([
        services.catalog.getCenter(confirmed.centerId),
        services.spa.listGuestAppointments(confirmed.guestId, { size: 100 }),
      ]),
    ),
  );
  const group = appointments.find((a) => a.services.some((s) => s.appointmentId === confirmed.appointmentId));
  if (!center || !group) throw data(NOT_FOUND, { status: 404 });
  const live = group.services.filter((s) => s.status !== -1);
  const { start, end } = visitSpan(live.length > 0 ? live : group.services, center.timeZone);
  return {
    appointmentId: confirmed.appointmentId,
    invoiceId: confirmed.invoiceId,
    center,
    services: live.map((s) => displayName(s.name)),
    start,
    end,
    nurse: null,
    invoice: null,
  };
}

/**
 * The confirmation's calendar file: the visit's invoice is the event's UID, as on the account's and
 * the manage link's files, with the revision count and the manage link.
 */
export async function loadConfirmationCalendar(
  context: RequestContext,
  appointmentId: string,
  origin: string,
): Promise<string> {
  const view = await loadConfirmation(context, appointmentId);
  const confirmed = getConfirmed(requestSession(context))!;
  const sequence = await context.services.stores.visitRevisions.get(view.invoiceId);
  const manageUrl = manageLinkUrl(context.services, origin, confirmed.guestId, {
    id: view.invoiceId,
    start: view.start,
    center: view.center,
  });
  return visitCalendar({
    id: view.invoiceId,
    center: view.center,
    services: view.services,
    start: view.start,
    end: view.end,
    status: 0,
    sequence,
    manageUrl,
  });
}

/** The link that manages the visit just booked, for the confirmation page. */
export function confirmationManageUrl(context: RequestContext, view: ConfirmationView, origin: string): string {
  const confirmed = getConfirmed(requestSession(context))!;
  return manageLinkUrl(context.services, origin, confirmed.guestId, {
    id: view.invoiceId,
    start: view.start,
    center: view.center,
  });
}

const displayName = (name: string) => name.replace(/\s*\(addon\)\s*/i, " ").trim();

export type BookedInvoice = { paid: Cents; due: Cents; reference: string | null };

/** What the back end's invoice says was paid and is still due, in cents, and its number; null when it can't be read. */
export async function bookedInvoice(services: Services, invoiceId: string): Promise<BookedInvoice | null> {
  try {
    const invoice = await withCallPriority({ priority: "held" }, () => services.spa.getInvoice(invoiceId));
    return { paid: invoice.paid, due: invoice.balance, reference: invoice.reference };
  } catch (error) {
    // The booking stands either way: the page is shown without the amounts.
    if (!isSpaError(error)) throw error;
    return null;
  }
}
