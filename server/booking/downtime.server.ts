import { downtimeRefusal, type DowntimeRefusal, type PastTreatment } from "~/domain/downtime";
import type { CurrentUser, Services } from "../services";
import { withDefaultCallPriority } from "../spa/call-governor.server";
import { knownGuest, type Draft } from "./draft.server";

/** Every treatment of every visit a guest has had or booked, as the downtime and fixer rules read them. */
export async function treatmentHistory(services: Services, guestId: string): Promise<PastTreatment[]> {
  // A look at the days a guest may book is a read, unless a booking under way makes it (decision 036).
  const visits = await withDefaultCallPriority("browse", () =>
    services.spa.listGuestAppointments(guestId, { size: 100 }),
  );
  return visits.flatMap((a) => a.services.map((s) => ({ name: s.name, start: s.start, status: s.status })));
}

/**
 * The guest a time would be held for, whose downtime applies: the signed-in account's (the hold
 * books under it), else the draft's known guest (a texted link, details given). A visitor not yet
 * known has no history to read.
 */
export function bookingGuestId(draft: Draft, user: CurrentUser | null): string | null {
  if (user) return user.guestId;
  return knownGuest(draft) ? draft.guestId! : null;
}

/** The rule for one guest and treatment, as a question asked of each day. */
export type DowntimeOf = (date: string) => DowntimeRefusal | null;

export const NO_DOWNTIME: DowntimeOf = () => null;

/**
 * Which days the downtime rule refuses this guest for this treatment: their history read once,
 * then the domain's rule asked of each day (the same rule the hold checks again).
 */
export async function downtimeFor(services: Services, guestId: string | null, treatment: string): Promise<DowntimeOf> {
  if (!guestId) return NO_DOWNTIME;
  const history = await treatmentHistory(services, guestId);
  const windows = services.env.MEDICAL_DOWNTIME_DAYS;
  return (date) => downtimeRefusal(treatment, date, history, windows);
}
