import { instantOf } from "~/lib/dates";
import { CANCELLATION_POLICY } from "./booking";

/** The back end's appointment status codes (spec section 4). */
export const APPOINTMENT_STATUS = { NO_SHOW: -2, CANCELLED: -1, NEW: 0, CLOSED: 1 } as const;

export type StatusLabel = "No show" | "Cancelled" | "Booked" | "Completed" | "In progress";

/** What a guest reads for a status code; codes Zenoti adds for the front desk read as in progress. */
export function statusLabel(status: number): StatusLabel {
  switch (status) {
    case APPOINTMENT_STATUS.NO_SHOW:
      return "No show";
    case APPOINTMENT_STATUS.CANCELLED:
      return "Cancelled";
    case APPOINTMENT_STATUS.NEW:
      return "Booked";
    case APPOINTMENT_STATUS.CLOSED:
      return "Completed";
    default:
      return "In progress";
  }
}

/** The appointment list's tabs: ids 0 and 1, and the spec's view identifiers. */
export const APPOINTMENT_TABS = [
  { id: 0, key: "upcoming", label: "Upcoming", view: "APPOINTMENT_LIST" },
  { id: 1, key: "past", label: "Past", view: "PAST_APPOINTMENT" },
] as const;

export type AppointmentTab = (typeof APPOINTMENT_TABS)[number]["key"];

/** "upcoming", "past", "0" or "1"; anything else is the upcoming tab. */
export function parseAppointmentTab(value: string | null): AppointmentTab {
  const tab = APPOINTMENT_TABS.find((t) => t.key === value || String(t.id) === value);
  return tab?.key ?? "upcoming";
}

/** How many visits a page of the list shows ("Lists are split into pages by size"). */
export const VISITS_PAGE_SIZE = 10;

/** One booked service of a visit, as the list needs it. */
export type VisitService = {
  name: string;
  /** Clinic-local "YYYY-MM-DDTHH:mm:ss". */
  start: string;
  durationMinutes: number;
  status: number;
  isAddOn: boolean;
};

/** The marker an add-on service carries in its name, when the back end does not flag it. */
const ADD_ON_MARKER = /\badd[- ]?on\b/i;
/** Treatment areas are booked as services of their own, back to back with the treatment. */
const TREATMENT_AREA = /\barea\b/i;

function runsWithTheVisit(service: Pick<VisitService, "name" | "isAddOn">): boolean {
  return service.isAddOn || ADD_ON_MARKER.test(service.name) || TREATMENT_AREA.test(service.name);
}

/**
 * The spec's total duration: every service added up when the visit has an add-on or a treatment
 * area (they follow the treatment), otherwise the first service's duration.
 */
export function totalDurationMinutes(services: Pick<VisitService, "name" | "isAddOn" | "durationMinutes">[]): number {
  if (services.length === 0) return 0;
  if (services.some(runsWithTheVisit)) return services.reduce((sum, s) => sum + Math.max(0, s.durationMinutes), 0);
  return Math.max(0, services[0].durationMinutes);
}

/** The visit's first service: the earliest, and the one the spec reads the status of. */
export function firstService<T extends Pick<VisitService, "start">>(services: T[]): T | undefined {
  return [...services].sort((a, b) => a.start.localeCompare(b.start))[0];
}

/**
 * Upcoming: the first service is booked (status 0) and the visit, from its start over its total
 * duration, has not ended on the clinic's clock.
 */
export function isUpcoming(services: VisitService[], now: number, timeZone: string): boolean {
  const first = firstService(services);
  if (!first || first.status !== APPOINTMENT_STATUS.NEW) return false;
  const end = instantOf(first.start, timeZone) + totalDurationMinutes(services) * 60_000;
  return end > now;
}

/** The spec's "has upcoming appointment": any visit whose first service has status 0. */
export function hasUpcomingAppointment(visits: { services: Pick<VisitService, "start" | "status">[] }[]): boolean {
  return visits.some((v) => firstService(v.services)?.status === APPOINTMENT_STATUS.NEW);
}

/**
 * The visit that makes the guest "have an upcoming appointment", to show them first: the soonest
 * booked visit (first service status 0) still to come, else the latest booked one whose time has
 * passed but that the clinic has not closed yet. Null when the guest has none.
 */
export function bookedVisit<T extends { services: Pick<VisitService, "start" | "status">[]; upcoming: boolean }>(
  visits: T[],
): T | null {
  if (!hasUpcomingAppointment(visits)) return null;
  const booked = visits
    .filter((v) => firstService(v.services)?.status === APPOINTMENT_STATUS.NEW)
    .map((v) => ({ visit: v, start: firstService(v.services)!.start }));
  const coming = booked.filter((b) => b.visit.upcoming).sort((a, b) => a.start.localeCompare(b.start));
  if (coming.length > 0) return coming[0].visit;
  return booked.sort((a, b) => b.start.localeCompare(a.start))[0].visit;
}

/**
 * The spec's first and latest booked dates and total number of appointments: over every visit the
 * guest booked and did not cancel (had, missed or still to come), by their clinic-local start date.
 */
export function visitHistory(visits: { start: string; status: number }[]): {
  first: string | null;
  latest: string | null;
  total: number;
} {
  const days = visits
    .filter((v) => v.status !== APPOINTMENT_STATUS.CANCELLED)
    .map((v) => v.start.slice(0, 10))
    .sort();
  return { first: days[0] ?? null, latest: days.at(-1) ?? null, total: days.length };
}

/** The discount named in an item's actions, in parentheses ("Discount applied (Glow 20)"). */
export function discountName(itemActions: string | null | undefined): string | null {
  const match = itemActions?.match(/\(([^()]*\S[^()]*)\)/);
  return match ? match[1].trim() : null;
}

/** The late-change window: cancelling or rescheduling inside it costs the no-show fee (spec section 9). */
export const LATE_CHANGE_HOURS = CANCELLATION_POLICY.windowHours;
export const LATE_CHANGE_FEE_CENTS = CANCELLATION_POLICY.feeCents;

/** The visit starts within the fee window (or has started). */
export function insideFeeWindow(start: string, now: number, timeZone: string): boolean {
  const startsAt = instantOf(start, timeZone);
  return startsAt - now < LATE_CHANGE_HOURS * 3_600_000;
}

/** One page of a list, 1-based; a page past the end is the last one. */
export function pageOf<T>(
  items: T[],
  page: number,
  size = VISITS_PAGE_SIZE,
): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { items: items.slice((current - 1) * size, current * size), page: current, pages };
}

/** The spec's date formats: a visit's date and time, and a month heading. */
export const VISIT_TIME_FORMAT = "MMMM D, YYYY h:mm A";
export const MONTH_FORMAT = "MMMM YYYY";
