import { pageOf, VISITS_PAGE_SIZE, type AppointmentTab } from "~/domain/appointments";
import type { Services } from "../context.server";
import { orUnavailable } from "../unavailable.server";
import { accountVisitPaths, type VisitPaths } from "./access.server";
import { isChangeable, loadGuestVisits, toVisitView, visitsOfTab, type Visit, type VisitView } from "./visits.server";

/** A visit in a list, with what the guest may do with it from there. */
export type ListedVisit = VisitView & {
  paths: VisitPaths;
  /** Booked and not started: it may be moved or cancelled. */
  changeable: boolean;
  /** Over, cancelled or missed: it may be booked again. */
  rebookable: boolean;
};

function listed(visit: Visit, now: number): ListedVisit {
  return { ...toVisitView(visit), paths: accountVisitPaths(visit.id), changeable: isChangeable(visit, now), rebookable: !visit.upcoming };
}

/** One page of one tab of the guest's visits. A back-end outage is the 503 page. */
export async function appointmentsPage(services: Services, guestId: string, tab: AppointmentTab, page: number, now = Date.now()) {
  const visits = await orUnavailable(() => loadGuestVisits(services, guestId, now));
  const shown = pageOf(visitsOfTab(visits, tab), page, VISITS_PAGE_SIZE);
  return {
    visits: shown.items.map((v) => listed(v, now)),
    page: shown.page,
    pages: shown.pages,
    counts: { upcoming: visitsOfTab(visits, "upcoming").length, past: visitsOfTab(visits, "past").length },
  };
}

/** The dashboard's next visit, and how many more are coming. */
export async function nextVisit(services: Services, guestId: string, now = Date.now()): Promise<{ next: ListedVisit | null; more: number }> {
  const upcoming = visitsOfTab(await orUnavailable(() => loadGuestVisits(services, guestId, now)), "upcoming");
  return { next: upcoming[0] ? listed(upcoming[0], now) : null, more: Math.max(0, upcoming.length - 1) };
}
