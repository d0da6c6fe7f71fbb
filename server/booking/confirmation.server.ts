import { data } from "react-router";
import type { Center } from "~/domain/catalog";
import { requestSession, type RequestContext } from "../request-context.server";
import { orUnavailable } from "../unavailable.server";
import { getConfirmed } from "./draft.server";

export type ConfirmationView = {
  appointmentId: string;
  center: Center;
  services: { name: string; start: string; durationMinutes: number }[];
  start: string;
  end: string;
};

const NOT_FOUND = "We can't find that booking.";

/**
 * A confirmation is shown only to the browser that made the booking (its session names it);
 * any other id, or someone else's, is a 404.
 */
export async function loadConfirmation(context: RequestContext, appointmentId: string): Promise<ConfirmationView> {
  const { services } = context;
  const confirmed = getConfirmed(requestSession(context));
  if (!confirmed || confirmed.appointmentId !== appointmentId.toLowerCase()) throw data(NOT_FOUND, { status: 404 });
  const [center, appointments] = await orUnavailable(() =>
    Promise.all([services.catalog.getCenter(confirmed.centerId), services.spa.listGuestAppointments(confirmed.guestId, { size: 100 })]),
  );
  const group = appointments.find((a) => a.services.some((s) => s.appointmentId === confirmed.appointmentId));
  if (!center || !group) throw data(NOT_FOUND, { status: 404 });
  const live = group.services.filter((s) => s.status !== -1);
  const first = live[0] ?? group.services[0];
  const last = live.at(-1) ?? first;
  const endMinutes = last.durationMinutes;
  const end = new Date(Date.parse(`${last.start}Z`) + endMinutes * 60_000).toISOString().slice(0, 19);
  return {
    appointmentId: confirmed.appointmentId,
    center,
    services: live.map((s) => ({ name: s.name.replace(/\s*\(addon\)\s*/i, " ").trim(), start: s.start, durationMinutes: s.durationMinutes })),
    start: first.start,
    end,
  };
}
