import { href } from "react-router";
import { bookedVisit, pageOf, visitHistory, VISITS_PAGE_SIZE, type AppointmentTab } from "~/domain/appointments";
import { dayjs } from "~/lib/dayjs";
import type { Services } from "../services";
import { orUnavailable, unlessUnavailable } from "../unavailable.server";
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
  return {
    ...toVisitView(visit),
    paths: accountVisitPaths(visit.id),
    changeable: isChangeable(visit, now),
    rebookable: !visit.upcoming,
  };
}

/** The guest's visits at a glance: how many, since when, the latest, in words. */
export type VisitHistoryView = { total: number; first: string | null; latest: string | null };

function historyView(visits: Visit[]): VisitHistoryView {
  const { first, latest, total } = visitHistory(visits);
  const day = (d: string | null) => (d ? dayjs(d, "YYYY-MM-DD").format("MMMM D, YYYY") : null);
  return { total, first: day(first), latest: day(latest) };
}

/** The visit behind "you have an upcoming appointment" (spec section 4), with its actions. */
function bookedOf(visits: Visit[], now: number): ListedVisit | null {
  const booked = bookedVisit(visits);
  return booked ? listed(booked, now) : null;
}

/** One page of one tab of the guest's visits, and what the page says of them all. A back-end outage is the 503 page. */
export async function appointmentsPage(
  services: Services,
  guestId: string,
  tab: AppointmentTab,
  page: number,
  now = Date.now(),
) {
  const visits = await orUnavailable(() => loadGuestVisits(services, guestId, now));
  const shown = pageOf(visitsOfTab(visits, tab), page, VISITS_PAGE_SIZE);
  return {
    visits: shown.items.map((v) => listed(v, now)),
    page: shown.page,
    pages: shown.pages,
    counts: { upcoming: visitsOfTab(visits, "upcoming").length, past: visitsOfTab(visits, "past").length },
    booked: bookedOf(visits, now),
    history: historyView(visits),
  };
}

/** The dashboard's next visit, how many more are coming, and the booked visit behind "has upcoming appointment". */
export async function visitOverview(
  services: Services,
  guestId: string,
  now = Date.now(),
): Promise<{ next: ListedVisit | null; more: number; booked: ListedVisit | null }> {
  const visits = await orUnavailable(() => loadGuestVisits(services, guestId, now));
  const upcoming = visitsOfTab(visits, "upcoming");
  return {
    next: upcoming[0] ? listed(upcoming[0], now) : null,
    more: Math.max(0, upcoming.length - 1),
    booked: bookedOf(visits, now),
  };
}

/**
 * The error page's way back for a known guest (spec section 4: `redirect=samesite` "after loading
 * their appointments"): their visits on this site rather than the storefront, with the booked one
 * named. The visits are read first; when the back end cannot be reached the way back is the same,
 * without the name, so the error page never becomes an outage page itself.
 */
export async function visitsWayBack(
  services: Services,
  guestId: string,
  now = Date.now(),
): Promise<{ to: string; booked: ListedVisit | null }> {
  const visits = await unlessUnavailable(
    () => loadGuestVisits(services, guestId, now),
    () => null,
  );
  return { to: `${href("/account/appointments")}?tab=upcoming`, booked: visits ? bookedOf(visits, now) : null };
}
