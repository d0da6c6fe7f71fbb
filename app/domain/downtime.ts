import { serviceKind, type ServiceKind } from "./service-kinds";

/**
 * Medical downtime: after some treatments the skin needs days before the next one. Windows are in
 * days per kind of treatment and configurable (MEDICAL_DOWNTIME_DAYS).
 */
export type DowntimeWindows = Partial<Record<ServiceKind, number>>;

export const DEFAULT_DOWNTIME_DAYS: DowntimeWindows = { peel: 14, lhr: 28, "partial-face": 28, facial: 7, sculpting: 3 };

export const DOWNTIME_MESSAGE = "An appointment cannot be taken on the selected date.";

/** "peel=14,lhr=28" -> { peel: 14, lhr: 28 }; unknown kinds and bad numbers are refused. */
export function parseDowntimeWindows(value: string): DowntimeWindows | null {
  const kinds: ServiceKind[] = ["facial", "peel", "lhr", "partial-face", "sculpting", "fixer", "consultation", "other"];
  const windows: DowntimeWindows = {};
  for (const part of value.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [kind, days] = part.split("=").map((s) => s.trim());
    if (!kinds.includes(kind as ServiceKind) || !/^\d{1,3}$/.test(days ?? "")) return null;
    windows[kind as ServiceKind] = Number(days);
  }
  return windows;
}

function daysBetween(a: string, b: string): number {
  return Math.abs(Date.parse(`${a.slice(0, 10)}T00:00:00Z`) - Date.parse(`${b.slice(0, 10)}T00:00:00Z`)) / 86_400_000;
}

/**
 * Whether a treatment on `date` comes too close to a booked or completed one: the longer of the two
 * treatments' windows applies. Cancelled and no-show visits (status -1, -2) do not count.
 */
export function violatesDowntime(
  treatment: string,
  date: string,
  history: { name: string; start: string; status: number }[],
  windows: DowntimeWindows,
): boolean {
  const own = windows[serviceKind(treatment)] ?? 0;
  return history.some((visit) => {
    if (visit.status < 0) return false;
    const window = Math.max(own, windows[serviceKind(visit.name)] ?? 0);
    return window > 0 && daysBetween(date, visit.start) < window;
  });
}

/** The fixer is a touch-up of a laser facial: booked alone, only this many days after one. */
export const FIXER_WINDOW_DAYS = 30;

export const FIXER_NEEDS_FACIAL =
  "The Fixer is a touch-up within 30 days of a laser facial. Add it to your facial, or sign in if you had a facial with us in the last 30 days.";

/**
 * Whether a fixer on its own may be booked on `date`: the guest had (or has booked) a laser facial
 * on that day or in the 30 days before. Cancelled and no-show visits do not count.
 */
export function fixerAllowedAlone(date: string, history: { name: string; start: string; status: number }[]): boolean {
  const day = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return history.some((visit) => {
    if (visit.status < 0 || serviceKind(visit.name) !== "facial") return false;
    const facialDay = Date.parse(`${visit.start.slice(0, 10)}T00:00:00Z`);
    return facialDay <= day && day - facialDay <= FIXER_WINDOW_DAYS * 86_400_000;
  });
}
