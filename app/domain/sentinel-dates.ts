import { formatDay } from "~/lib/dates";

/**
 * Zenoti writes "no date" as a date (spec section 9): 2000-01-01 for no start, 2100-01-01 for no
 * end (a membership, package or gift card that never expires), and some answers carry the word
 * "unlimited" instead. Neither is a day a guest should read.
 */
export const NO_START_DAY = "2000-01-01";
export const NO_END_DAY = "2100-01-01";
export const UNLIMITED_KEYWORD = "unlimited";

/** What a guest reads for an end date that is not one. */
export const NO_EXPIRY_LABEL = "No expiry";

/** An end date: a real day, or none at all (unlimited). */
export type EndDate = { kind: "day"; day: string } | { kind: "unlimited" };

/** "YYYY-MM-DD" of a date as the back end writes it ("2027-03-01", "2027-03-01T00:00:00"), or null. */
function dayOf(raw: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ]|$)/.exec(raw.trim());
  return match ? match[1] : null;
}

const isUnlimited = (raw: string) => raw.trim().toLowerCase() === UNLIMITED_KEYWORD;

/**
 * An expiry or end date as the guest should read it: null when there is none to show (absent,
 * unreadable, or the no-start stand-in), "unlimited" for the no-end stand-in, on or after it, or
 * the keyword; else the day.
 */
export function readEndDate(raw: string | null | undefined): EndDate | null {
  if (!raw) return null;
  if (isUnlimited(raw)) return { kind: "unlimited" };
  const day = dayOf(raw);
  if (!day || day <= NO_START_DAY) return null;
  if (day >= NO_END_DAY) return { kind: "unlimited" };
  return { kind: "day", day };
}

/** A start date ("member since", "valid from"): the day, or null for none (either stand-in, or the keyword). */
export function readStartDate(raw: string | null | undefined): string | null {
  if (!raw || isUnlimited(raw)) return null;
  const day = dayOf(raw);
  if (!day || day <= NO_START_DAY || day >= NO_END_DAY) return null;
  return day;
}

/** An end date's words on a page: "Mar 1, 2027", "No expiry", or null when there is nothing to show. */
export function endDateLabel(raw: string | null | undefined): string | null {
  const end = readEndDate(raw);
  if (!end) return null;
  return end.kind === "unlimited" ? NO_EXPIRY_LABEL : formatDay(end.day, "MMM D, YYYY");
}

/** A start date's words on a page, or null when there is none. */
export function startDateLabel(raw: string | null | undefined): string | null {
  const day = readStartDate(raw);
  return day ? formatDay(day, "MMM D, YYYY") : null;
}
