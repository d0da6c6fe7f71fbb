import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { APPOINTMENT_STATUS } from "~/domain/appointments";
import { CANCELLATION_POLICY, cancellationReminder } from "~/domain/booking";
import type { Center } from "~/domain/catalog";
import { clinicTime } from "~/lib/dayjs";
import type { Services } from "../services";
import type { VisitAccess } from "./access.server";
import { manageLinkUrl } from "./visit-messages.server";
import { calendarKey } from "./visits.server";

/** A visit as a calendar event: what, when (clinic-local), where, and whether it still stands. */
export type CalendarVisit = {
  /** The visit's stable key (its invoice, `calendarKey`): the event's UID, the same before and after a move. */
  id: string;
  center: Center;
  services: string[];
  start: string;
  end: string;
  status: number;
  /** How many times it was changed here: the event's SEQUENCE. */
  sequence: number;
  /** The link that manages it, when there is one to give. */
  manageUrl: string | null;
};

/**
 * The iCalendar file of one visit (RFC 5545, lines folded by ical-generator), times in UTC. A moved
 * visit keeps its UID and carries a higher SEQUENCE, so a calendar replaces the event it has; a
 * cancelled one is STATUS:CANCELLED. METHOD:PUBLISH throughout: a file the guest opens is an update
 * to their own calendar, not an invitation (iTIP's CANCEL needs an organizer and attendees).
 */
export function visitCalendar(visit: CalendarVisit, now = new Date()): string {
  const { center } = visit;
  const calendar = ical({
    prodId: { company: "Glow Clinic", product: "Webstore", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
  });
  const cancelled = visit.status === APPOINTMENT_STATUS.CANCELLED;
  const description = [
    "Please arrive 10 minutes early. New clients: bring a photo ID.",
    `${cancellationReminder(CANCELLATION_POLICY)}.`,
    visit.manageUrl ? `Manage your appointment: ${visit.manageUrl}` : null,
  ]
    .filter(Boolean)
    .join("\n");
  calendar.createEvent({
    id: `${visit.id.toLowerCase()}@glowclinic.example`,
    sequence: visit.sequence,
    stamp: now,
    start: clinicTime(visit.start, center.timeZone).toDate(),
    end: clinicTime(visit.end, center.timeZone).toDate(),
    summary: `${cancelled ? "Cancelled: " : ""}${visit.services.join(", ")} at ${center.name}`,
    location: `${center.name}, ${center.address.line1}, ${center.address.city}, ${center.address.state} ${center.address.zip}`,
    description,
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  // RFC 5545 ends every content line with CRLF, the last one too; ical-generator leaves it off.
  const ics = calendar.toString();
  return ics.endsWith("\r\n") ? ics : `${ics}\r\n`;
}

export function calendarResponse(ics: string): Response {
  return new Response(ics, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": 'attachment; filename="glow-clinic-appointment.ics"',
      "cache-control": "private, no-store",
      "referrer-policy": "same-origin",
    },
  });
}

/** The calendar file of the visit a page opened (account or manage link), with its link and revision. */
export async function accessCalendar(services: Services, access: VisitAccess, origin: string): Promise<string | null> {
  const { visit } = access;
  if (!visit.center) return null;
  const key = calendarKey(visit);
  return visitCalendar({
    id: key,
    center: visit.center,
    services: visit.services.map((s) => s.displayName),
    start: visit.start,
    end: visit.end,
    status: visit.status,
    sequence: await services.stores.visitRevisions.get(key),
    manageUrl: manageLinkUrl(services, origin, access.guestId, visit),
  });
}
