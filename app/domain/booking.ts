import type { Service } from "./catalog";
import type { PriceLine } from "./discounts";
import type { Cents } from "./money";
import { formatMoney } from "~/lib/money";
import { serviceKind } from "./service-kinds";

/** How many days ahead dates are offered (the spec's slot lookahead constant). */
export const LOOKAHEAD_DAYS = 28;

export type SlotGroup = "morning" | "afternoon" | "evening" | "all";
export const SLOT_GROUPS: { id: SlotGroup; label: string }[] = [
  { id: "morning", label: "Morning" },
  { id: "afternoon", label: "Afternoon" },
  { id: "evening", label: "Evening" },
  { id: "all", label: "All" },
];

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (a Thursday) of a YYYY-MM-DD day; counted without making a Date, as a booking step does this for every day it offers. */
function epochDay(isoDate: string): number {
  return Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - 1, Number(isoDate.slice(8, 10))) / DAY_MS;
}

export function addDays(isoDate: string, days: number): string {
  return new Date((epochDay(isoDate) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** 0 for Sunday to 6 for Saturday. */
export function weekday(isoDate: string): number {
  return (epochDay(isoDate) + 4) % 7;
}

/** The number of the Monday-to-Sunday week a day is in, counted from the epoch's. */
function weekOf(isoDate: string): number {
  return Math.floor((epochDay(isoDate) + 3) / 7);
}

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD day that exists: not 2026-02-30, nor 2026-12-32 or 2026-13-01 (which Date cannot read at all). */
export function isRealDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

let lastBookingDates: { today: string; lookahead: number; dates: readonly string[] } | null = null;

/** The dates offered from today (the clinic's today), Sundays left out; the same list for a day's every request. */
export function bookingDates(today: string, lookahead = LOOKAHEAD_DAYS): readonly string[] {
  if (lastBookingDates?.today === today && lastBookingDates.lookahead === lookahead) return lastBookingDates.dates;
  const dates: string[] = [];
  for (let i = 0; i < lookahead; i++) {
    const date = addDays(today, i);
    if (weekday(date) !== 0) dates.push(date);
  }
  lastBookingDates = { today, lookahead, dates: Object.freeze(dates) };
  return lastBookingDates.dates;
}

/**
 * A date from a link or a form: a Sunday moves to the Monday after (the spec's date picker rule);
 * a past, malformed or too-distant date is refused (null).
 */
export function normalizeBookingDate(
  value: string | null | undefined,
  today: string,
  lookahead = LOOKAHEAD_DAYS,
): string | null {
  if (!value || !isRealDate(value)) return null;
  const date = weekday(value) === 0 ? addDays(value, 1) : value;
  if (date < today || date >= addDays(today, lookahead)) return null;
  return date;
}

/** Morning before noon, afternoon until 5 PM, evening after. `time` is local "YYYY-MM-DDTHH:mm:ss". */
export function slotGroupOf(time: string): Exclude<SlotGroup, "all"> {
  const hour = Number(time.slice(11, 13));
  if (hour < 12) return "morning";
  if (hour < 17) return "afternoon";
  return "evening";
}

export function filterSlots(times: string[], group: SlotGroup): string[] {
  return group === "all" ? times : times.filter((t) => slotGroupOf(t) === group);
}

export function parseSlotGroup(value: string | null): SlotGroup {
  return SLOT_GROUPS.some((g) => g.id === value) ? (value as SlotGroup) : "all";
}

/** The lines of the price summary: the treatment, then its add-ons or areas. */
export function priceLines(service: Service, addOns: Service[]): PriceLine[] {
  const mainKind = serviceKind(service.name) === "fixer" ? "addon-fixer" : "service";
  return [
    { serviceId: service.id, kind: mainKind, name: service.displayName, price: service.price },
    ...addOns.map((a) => ({
      serviceId: a.id,
      kind: (serviceKind(a.name) === "fixer" ? "addon-fixer" : "addon-service") as PriceLine["kind"],
      name: a.displayName,
      price: a.price,
    })),
  ];
}

/** The no-show fee, in cents, and its window (spec section 9). */
export const NO_SHOW_FEE: Cents = 2500;
export const NO_SHOW_WINDOW_HOURS = 12;
export const LATE_ARRIVAL_MINUTES = 5;

/**
 * The chain's cancellation policy: one source for every page that states it (the payment step, the
 * confirmation) and for the fee a late cancel or move charges (`LATE_CHANGE_*` in appointments.ts).
 */
export type CancellationPolicy = { feeCents: Cents; windowHours: number; lateMinutes: number };
export const CANCELLATION_POLICY: CancellationPolicy = {
  feeCents: NO_SHOW_FEE,
  windowHours: NO_SHOW_WINDOW_HOURS,
  lateMinutes: LATE_ARRIVAL_MINUTES,
};

/** The policy in one line with its fee, said next to the payment button ("$25" from cents). */
export function cancellationPolicyLine(policy: CancellationPolicy): string {
  return `Free to cancel or reschedule up to ${policy.windowHours} hours before. Later, a missed visit or arriving more than ${policy.lateMinutes} minutes late costs ${formatMoney(policy.feeCents)}.`;
}

/** The policy as the booking messages remind of it: "To cancel or reschedule without the $25 fee, …". */
export function cancellationReminder(policy: CancellationPolicy): string {
  return `To cancel or reschedule without the ${formatMoney(policy.feeCents)} fee, do so at least ${policy.windowHours} hours before`;
}

/** Said when a visit was cancelled inside the policy's window and its fee was charged. */
export function lateCancellationNote(policy: CancellationPolicy): string {
  return `As it was cancelled less than ${policy.windowHours} hours ahead, the ${formatMoney(policy.feeCents)} late-cancellation fee applies.`;
}

/** The spec's message for an unknown clinic in a booking link. */
export const INVALID_CLINIC = "Invalid Clinic Location";

/** A reservation refused because another guest got the time first. */
export const SLOT_TAKEN = "That time was just taken. Please choose another time.";

/**
 * A booking not let in yet because the chain's booking system is at its call limit (decision 036):
 * nothing is held or lost, and the guest is told when to try again. `time` names the time chosen.
 */
export function busyHoldMessage(retryAfterSeconds: number, time?: string): string {
  const wait = retryAfterSeconds <= 1 ? "a second" : `${retryAfterSeconds} seconds`;
  return `We're very busy right now, so we can't hold ${time ?? "your time"} for you yet. Please try again in ${wait}; what you chose is kept.`;
}

/** The spec's message when a held time ran out before the booking was made. */
export const HOLD_EXPIRED_MESSAGE = "Reserved slot has expired. Please select the slot again.";

/**
 * Areas and enhancements one booking may add to its treatment. It bounds the booking draft kept in
 * the session cookie (decision 014).
 */
export const MAX_ADD_ONS = 12;
export const TOO_MANY_ADD_ONS = `Please choose at most ${MAX_ADD_ONS} areas and enhancements for one visit.`;

/** How many days the date strip shows: a week of bookable days (Sundays are never among them). */
export const STRIP_DAYS = 7;

/**
 * The date strip: seven bookable dates from the day shown, never cut at the end of a calendar week
 * (near the end of the list, the last seven, the day shown among them), and the first days of the
 * seven before and the seven after (null at either end of the list). A day not in the list (never
 * asked for by a step) counts as the first date on or after it.
 */
export function dateStrip(
  dates: readonly string[],
  date: string,
): { days: string[]; earlier: string | null; later: string | null } {
  const at = dates.findIndex((d) => d >= date);
  const index = at === -1 ? 0 : at;
  const start = Math.max(0, Math.min(index, dates.length - STRIP_DAYS));
  return {
    days: dates.slice(start, start + STRIP_DAYS),
    earlier: start > 0 ? dates[Math.max(0, start - STRIP_DAYS)] : null,
    later: start + STRIP_DAYS < dates.length ? dates[start + STRIP_DAYS] : null,
  };
}

/**
 * The days whose open times tell the whole strip which days have none: one answer of Zenoti's
 * slots call says, beside its own day's times, which later days of its week (Monday to Saturday)
 * have openings. So each week the strip touches is read once, at its first day that `skip` leaves
 * (a day medical downtime refuses needs no read); a week whose days are all skipped is not read.
 */
export function weekLeads(days: readonly string[], skip: (date: string) => boolean = () => false): string[] {
  const leads: string[] = [];
  let lastWeek = Number.NaN;
  for (const day of days) {
    if (skip(day) || weekOf(day) === lastWeek) continue;
    leads.push(day);
    lastWeek = weekOf(day);
  }
  return leads;
}

/** Said to a client who proved their record and turned out to be returning: what they are booked for now. */
export function returningClientSwitch(switched: { from: string; to: string }): string {
  return `Welcome back! As a returning client you're booked for ${switched.to}, at its price, instead of ${switched.from}.`;
}
