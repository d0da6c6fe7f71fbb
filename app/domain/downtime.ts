import { formatDay } from "~/lib/dates";
import { addDays, weekday } from "./booking";
import { serviceKind, type ServiceKind } from "./service-kinds";

/**
 * Medical downtime: after some treatments the skin needs days before the next one. Windows are in
 * days per kind of treatment and configurable (MEDICAL_DOWNTIME_DAYS).
 */
export type DowntimeWindows = Partial<Record<ServiceKind, number>>;

export const DEFAULT_DOWNTIME_DAYS: DowntimeWindows = {
  peel: 14,
  lhr: 28,
  "partial-face": 28,
  facial: 7,
  sculpting: 3,
};

export const DOWNTIME_MESSAGE = "An appointment cannot be taken on the selected date.";

/** "peel=14,lhr=28" -> { peel: 14, lhr: 28 }; unknown kinds and bad numbers are refused. */
export function parseDowntimeWindows(value: string): DowntimeWindows | null {
  const kinds: ServiceKind[] = ["facial", "peel", "lhr", "partial-face", "sculpting", "fixer", "consultation", "other"];
  const windows: DowntimeWindows = {};
  for (const part of value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [kind, days] = part.split("=").map((s) => s.trim());
    if (!kinds.includes(kind as ServiceKind) || !/^\d{1,3}$/.test(days ?? "")) return null;
    windows[kind as ServiceKind] = Number(days);
  }
  return windows;
}

/** A treatment the guest has had or has booked, as the back end lists it: `start` is the clinic's own wall clock. */
export type PastTreatment = { name: string; start: string; status: number };

/**
 * Why a day is refused: the treatment it comes too close to, and the first day on or after it that
 * the rule leaves (a Sunday, when no clinic books, moves to the Monday).
 */
export type DowntimeRefusal = {
  treatment: string;
  /** The refusing treatment's day, "YYYY-MM-DD" on its clinic's calendar. */
  treatmentDate: string;
  /** The refusing treatment comes before the day asked for: "too soon after"; on it or after it: "too close to". */
  before: boolean;
  firstDate: string;
};

/**
 * Whole calendar days from `a` to `b` ("YYYY-MM-DD"): counted on dates, never on instants, so a
 * change of clocks between them (a 23- or 25-hour day) does not move the count.
 */
function daysFrom(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * The treatments that keep `date` from being booked, each with the first day after it that it
 * allows: the longer of the two treatments' windows applies, on either side of the booked or
 * completed one. Cancelled and no-show visits (status -1, -2) do not count. A visit's day is the
 * date of its start as its clinic's clock shows it (the back end sends that wall clock).
 */
function refusingTreatments(
  treatment: string,
  date: string,
  history: readonly PastTreatment[],
  windows: DowntimeWindows,
) {
  const own = windows[serviceKind(treatment)] ?? 0;
  return history.flatMap((visit) => {
    if (visit.status < 0) return [];
    const window = Math.max(own, windows[serviceKind(visit.name)] ?? 0);
    const visitDate = visit.start.slice(0, 10);
    return window > 0 && Math.abs(daysFrom(visitDate, date)) < window
      ? [{ visit, visitDate, allowsFrom: addDays(visitDate, window) }]
      : [];
  });
}

/**
 * Medical downtime for one treatment on one day: null when the guest may book it, else the
 * treatment that refuses the day and the first day on or after it the rule leaves. The one rule
 * behind both the days the time step offers and the hold's own check.
 */
export function downtimeRefusal(
  treatment: string,
  date: string,
  history: readonly PastTreatment[],
  windows: DowntimeWindows,
): DowntimeRefusal | null {
  const refusing = refusingTreatments(treatment, date, history, windows);
  if (refusing.length === 0) return null;
  // Named after the treatment whose window ends last: the one the guest waits for.
  const named = refusing.reduce((a, b) => (b.allowsFrom > a.allowsFrom ? b : a));
  let firstDate = named.allowsFrom;
  // Past one window another may start (a later booked treatment): walk on until a day is left, and
  // over Sundays. History is finite and every step moves forward, so this ends.
  for (;;) {
    if (weekday(firstDate) === 0) {
      firstDate = addDays(firstDate, 1);
      continue;
    }
    const still = refusingTreatments(treatment, firstDate, history, windows);
    if (still.length === 0) break;
    firstDate = still.reduce((latest, r) => (r.allowsFrom > latest ? r.allowsFrom : latest), firstDate);
  }
  return { treatment: named.visit.name, treatmentDate: named.visitDate, before: named.visitDate < date, firstDate };
}

/** A refused day in a few words, for the date strip: "Too soon after your Glow Peel on Dec 1: from Dec 15". */
export function downtimeReason(refusal: DowntimeRefusal): string {
  const when = refusal.before ? "Too soon after" : "Too close to";
  return `${when} your ${refusal.treatment} on ${formatDay(refusal.treatmentDate, "ddd MMM D")}: from ${formatDay(refusal.firstDate, "ddd MMM D")}`;
}

/** The refused day's word in the strip itself, beside the reason written out under it. */
export function downtimeShortReason(refusal: DowntimeRefusal): string {
  return refusal.before ? "Too soon" : "Too close";
}

/** The spec's refusal, with its reason and the first possible date. */
export function downtimeMessage(refusal: DowntimeRefusal): string {
  const when = refusal.before ? "It is too soon after" : "It is too close to";
  return `${DOWNTIME_MESSAGE} ${when} your ${refusal.treatment} on ${formatDay(refusal.treatmentDate, "dddd, MMMM D")}; the first possible date is ${formatDay(refusal.firstDate, "dddd, MMMM D")}.`;
}

/** The fixer is a touch-up of a laser facial: booked alone, only this many days after one. */
export const FIXER_WINDOW_DAYS = 30;

export const FIXER_NEEDS_FACIAL =
  "The Fixer is a touch-up within 30 days of a laser facial. Add it to your facial, or sign in if you had a facial with us in the last 30 days.";

/**
 * Whether a fixer on its own may be booked on `date`: the guest had (or has booked) a laser facial
 * on that day or in the 30 days before. Cancelled and no-show visits do not count.
 */
export function fixerAllowedAlone(date: string, history: readonly PastTreatment[]): boolean {
  const day = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return history.some((visit) => {
    if (visit.status < 0 || serviceKind(visit.name) !== "facial") return false;
    const facialDay = Date.parse(`${visit.start.slice(0, 10)}T00:00:00Z`);
    return facialDay <= day && day - facialDay <= FIXER_WINDOW_DAYS * 86_400_000;
  });
}
