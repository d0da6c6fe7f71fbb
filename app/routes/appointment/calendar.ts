import { clinicTime } from "~/lib/dates";
import { loadConfirmation } from "#server/booking/confirmation.server";
import type { Route } from "./+types/calendar";

/** Text escaping of RFC 5545. */
function icsText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

function icsUtc(instant: { toISOString(): string }): string {
  return instant.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** The booking as an iCalendar file, times in UTC. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const view = await loadConfirmation(context, params.appointmentId);
  const { center } = view;
  const start = clinicTime(view.start, center.timeZone);
  const end = clinicTime(view.end, center.timeZone);
  const location = `${center.name}, ${center.address.line1}, ${center.address.city}, ${center.address.state} ${center.address.zip}`;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Glow Clinic//Webstore//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${view.appointmentId}@glowclinic.example`,
    `DTSTAMP:${icsUtc(new Date())}`,
    `DTSTART:${icsUtc(start.toDate())}`,
    `DTEND:${icsUtc(end.toDate())}`,
    `SUMMARY:${icsText(view.services.join(", "))} at ${icsText(center.name)}`,
    `LOCATION:${icsText(location)}`,
    `DESCRIPTION:${icsText("Please arrive 10 minutes early. New clients: bring a photo ID.")}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ];
  return new Response(lines.join("\r\n"), {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": 'attachment; filename="glow-clinic-appointment.ics"',
      "cache-control": "private, no-store",
    },
  });
}
