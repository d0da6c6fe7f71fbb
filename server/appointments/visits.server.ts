import {
  APPOINTMENT_STATUS,
  discountName,
  firstService,
  isUpcoming,
  statusLabel,
  totalDurationMinutes,
  MONTH_FORMAT,
  VISIT_TIME_FORMAT,
  type AppointmentTab,
  type StatusLabel,
} from "~/domain/appointments";
import type { Center } from "~/domain/catalog";
import { timeZoneLabel } from "~/lib/dates";
import { dayjs } from "~/lib/dayjs";
import type { Services } from "../services";
import type { GuestAppointment } from "../spa/booking.server";
import { clinicLocalAt, wallClockInstant } from "../spa/local-time.server";

/** A guest's visit as the account pages show it: one invoice's services, its clinic and nurse. */
export type Visit = {
  /** Zenoti's appointment group (the invoice when it has none): what the pages address a visit by. */
  id: string;
  invoiceId: string | null;
  /** The first service's appointment: the id the confirmation page and links use. */
  appointmentId: string;
  center: Center | null;
  services: (GuestAppointment["services"][number] & { displayName: string })[];
  /** Clinic-local start of the first service and end over the spec's total duration. */
  start: string;
  end: string;
  status: number;
  statusLabel: StatusLabel;
  upcoming: boolean;
  nurse: string | null;
  discount: string | null;
};

/** At most this many visits are read for one guest (Zenoti pages of 100). */
const PAGE_SIZE = 100;
const MAX_PAGES = 5;

/** "Glow Peel (Addon)" reads "Glow Peel". */
export const serviceDisplayName = (name: string) => name.replace(/\s*\(addon\)\s*/i, " ").trim();

/**
 * Every visit of the guest, cancelled and no-show ones included, each with its clinic and nurse
 * from the cached catalog. One call for a guest with up to 100 visits.
 */
export async function loadGuestVisits(services: Services, guestId: string, now = Date.now()): Promise<Visit[]> {
  const groups: GuestAppointment[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { appointments, total } = await services.spa.guestAppointmentsPage(guestId, {
      page,
      size: PAGE_SIZE,
      includeNoShowCancel: true,
    });
    groups.push(...appointments);
    if (appointments.length < PAGE_SIZE || groups.length >= total) break;
  }
  const centerIds = [...new Set(groups.map((g) => g.centerId).filter((id): id is string => Boolean(id)))];
  const centers = new Map(
    await Promise.all(centerIds.map(async (id) => [id, await services.catalog.getCenter(id)] as const)),
  );
  const nurses = new Map<string, Map<string, string>>();
  await Promise.all(
    centerIds.map(async (id) => {
      const list = await services.catalog.listTherapists(id).catch(() => null);
      nurses.set(id, new Map((list ?? []).map((t) => [t.id.toLowerCase(), t.displayName])));
    }),
  );
  return groups
    .filter((g) => g.services.length > 0)
    .map((group) =>
      toVisit(
        group,
        group.centerId ? (centers.get(group.centerId) ?? null) : null,
        group.centerId ? nurses.get(group.centerId) : undefined,
        now,
      ),
    );
}

function toVisit(
  group: GuestAppointment,
  center: Center | null,
  nurses: Map<string, string> | undefined,
  now: number,
): Visit {
  const ordered = [...group.services].sort((a, b) => a.start.localeCompare(b.start));
  const first = firstService(ordered)!;
  const timeZone = center?.timeZone ?? "UTC";
  const minutes = totalDurationMinutes(ordered);
  const end = clinicLocalAt(wallClockInstant(first.start, timeZone) + minutes * 60_000, timeZone);
  const nurseId = ordered.find((s) => s.therapistId)?.therapistId ?? null;
  return {
    id: group.groupId ?? first.appointmentId,
    invoiceId: group.invoiceId,
    appointmentId: first.appointmentId,
    center,
    services: ordered.map((s) => ({ ...s, displayName: serviceDisplayName(s.name) })),
    start: first.start,
    end,
    status: first.status,
    statusLabel: statusLabel(first.status),
    upcoming: isUpcoming(ordered, now, timeZone),
    nurse: nurseId ? (nurses?.get(nurseId) ?? null) : null,
    discount: ordered.map((s) => discountName(s.itemActions)).find(Boolean) ?? null,
  };
}

/**
 * The key of a visit's calendar event and revisions: its invoice, which a reschedule keeps
 * (Zenoti moves the appointments on the same invoice) and which the confirmation already knows.
 */
export function calendarKey(visit: Pick<Visit, "id" | "invoiceId">): string {
  return (visit.invoiceId ?? visit.id).toLowerCase();
}

/** A tab's visits: upcoming soonest first; past (ended, cancelled, no-show) latest first. */
export function visitsOfTab(visits: Visit[], tab: AppointmentTab): Visit[] {
  if (tab === "upcoming") return visits.filter((v) => v.upcoming).sort((a, b) => a.start.localeCompare(b.start));
  return visits.filter((v) => !v.upcoming).sort((a, b) => b.start.localeCompare(a.start));
}

/** The visit with that id (its group, invoice or one of its appointments), among the guest's own only. */
export function findVisit(visits: Visit[], id: string): Visit | null {
  const key = id.toLowerCase();
  return (
    visits.find((v) => v.id === key || v.invoiceId === key || v.services.some((s) => s.appointmentId === key)) ?? null
  );
}

/** A visit the guest may still move or cancel: booked and not yet started. */
export function isChangeable(visit: Visit, now = Date.now()): boolean {
  if (visit.status !== APPOINTMENT_STATUS.NEW || !visit.invoiceId || !visit.center) return false;
  return wallClockInstant(visit.start, visit.center.timeZone) > now;
}

/** What a page shows of a visit: formatted on the server, in the clinic's zone (spec section 9 formats). */
export type VisitView = {
  id: string;
  when: string;
  month: string;
  timeZone: string;
  clinic: { name: string; slug: string; phone: string; address: string } | null;
  services: string[];
  nurse: string | null;
  status: number;
  statusLabel: StatusLabel;
  discount: string | null;
  upcoming: boolean;
};

export function toVisitView(visit: Visit): VisitView {
  const local = dayjs(visit.start, "YYYY-MM-DDTHH:mm:ss");
  const center = visit.center;
  return {
    id: visit.id,
    when: local.format(VISIT_TIME_FORMAT),
    month: local.format(MONTH_FORMAT),
    timeZone: center ? timeZoneLabel(center.timeZone) : "",
    clinic: center
      ? {
          name: center.name,
          slug: center.slug,
          phone: center.phone,
          address: `${center.address.line1}, ${center.address.city}, ${center.address.state} ${center.address.zip}`,
        }
      : null,
    services: visit.services.map((s) => s.displayName),
    nurse: visit.nurse,
    status: visit.status,
    statusLabel: visit.statusLabel,
    discount: visit.discount,
    upcoming: visit.upcoming,
  };
}
