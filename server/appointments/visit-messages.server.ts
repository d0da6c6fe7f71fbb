import { dayjs } from "~/lib/dayjs";
import { CANCELLATION_POLICY, cancellationReminder, lateCancellationNote } from "~/domain/booking";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";
import { wallClockInstant } from "../spa/local-time.server";
import { manageLinkPaths } from "./access.server";
import type { Visit } from "./visits.server";

/** A link that opens this one visit without signing in, on the site's public origin. */
export function manageLinkUrl(
  services: Services,
  origin: string,
  guestId: string,
  visit: Pick<Visit, "id" | "start" | "center">,
): string {
  const startMs = visit.center ? wallClockInstant(visit.start, visit.center.timeZone) : Date.now();
  const token = services.manageLinks.sign(guestId, visit.id, startMs);
  return `${origin}${manageLinkPaths(token).home}`;
}

export type VisitChange = { kind: "rescheduled" } | { kind: "cancelled"; feeCharged: boolean };

/**
 * Tells the guest, by email and text, that their visit moved or was cancelled, with the link that
 * manages it (and its calendar file). The change stands either way: a message that cannot go out
 * is logged, never an error for the guest.
 */
export async function sendVisitChanged(
  services: Services,
  input: { origin: string; guestId: string; visit: Visit; change: VisitChange },
): Promise<void> {
  const { origin, guestId, visit, change } = input;
  try {
    const guest = await services.spa.getGuest(guestId);
    if (!guest || !visit.center) return;
    const center = visit.center;
    const when = dayjs(visit.start, "YYYY-MM-DDTHH:mm:ss").format("dddd, MMMM D, YYYY h:mm A");
    const what = visit.services.map((s) => s.displayName).join(", ");
    const link = manageLinkUrl(services, origin, guestId, visit);
    const calendar = `${link}/calendar.ics`;
    const email =
      change.kind === "rescheduled"
        ? {
            subject: `Your appointment at ${center.name} has moved`,
            body: `Hi ${guest.firstName},\n\nYour appointment is now: ${what}\n${when} at ${center.name}, ${center.address.line1}, ${center.address.city}, ${center.address.state} ${center.address.zip}.\n\nUpdate your calendar: ${calendar}\nChange or cancel it: ${link}\n\n${cancellationReminder(CANCELLATION_POLICY)}.`,
          }
        : {
            subject: `Your appointment at ${center.name} is cancelled`,
            body: `Hi ${guest.firstName},\n\nWe've cancelled your appointment: ${what}, ${when} at ${center.name}.${change.feeCharged ? `\n${lateCancellationNote(CANCELLATION_POLICY)}` : ""}\n\nRemove it from your calendar: ${calendar}\nBook again any time: ${link}\n\nQuestions? Call us at ${center.phone}.`,
          };
    if (guest.email)
      await services.notifier.send({ channel: "email", kind: `booking-${change.kind}`, to: guest.email, ...email });
    if (guest.phone) {
      const text =
        change.kind === "rescheduled"
          ? `Glow Clinic: your appointment moved to ${when} at ${center.name}. Manage it: ${link}`
          : `Glow Clinic: your appointment on ${when} at ${center.name} is cancelled. Reply STOP to opt out.`;
      await services.notifier.send({
        channel: "sms",
        kind: `booking-${change.kind}`,
        to: guest.phone,
        subject: change.kind === "rescheduled" ? "Appointment moved" : "Appointment cancelled",
        body: text,
      });
    }
  } catch (error) {
    logger.error("visit change message not sent", { kind: change.kind, error: (error as Error).message });
  }
}
