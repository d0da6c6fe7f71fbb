import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";
import { isPhoneNumber, phoneDigits } from "~/lib/phone";
import { bookingDates, DATE_PATTERN, slotGroupOf, type SlotGroup } from "./booking";

/**
 * The waitlist of full days (issue 33, decision 058): a guest who finds no time that suits asks to
 * be told when one opens, for some of the next days, parts of the day and a nurse. The rules here
 * are pure; the store keeps the entries and the waitlist pass tells the guests.
 */

/** How many days ahead a guest may wait for: the first two weeks of the dates offered. */
export const WAITLIST_LOOKAHEAD_DAYS = 14;

export type DayPart = Exclude<SlotGroup, "all">;
export const DAY_PARTS: readonly { id: DayPart; label: string; hint: string }[] = [
  { id: "morning", label: "Morning", hint: "before noon" },
  { id: "afternoon", label: "Afternoon", hint: "noon to 5 PM" },
  { id: "evening", label: "Evening", hint: "after 5 PM" },
];

export const WAITLIST_MESSAGES = {
  days: "Please choose at least one day.",
  dayOffered: "Please choose days from the list.",
  parts: "Please choose at least one part of the day.",
  nurse: "Please choose a nurse from the list.",
  contact: "Please enter your email or a US mobile number.",
  consent: "Please agree to be contacted about open times.",
  clinic: "That clinic does not exist. Please start again from the clinic's page.",
  treatment: "Please choose your treatment first.",
  full: (places: number) =>
    `You are already on the waitlist for ${places} bookings. Please leave one (from a message we sent, or your account) before joining again.`,
} as const;

/** The days a form may send: dates, at most the two weeks' worth. */
const DayField = defineSchema(() =>
  z.string({ error: WAITLIST_MESSAGES.dayOffered }).regex(DATE_PATTERN, WAITLIST_MESSAGES.dayOffered),
);

/**
 * "Tell me when a time opens". The clinic is carried in a hidden field and checked against the
 * chain's clinics and the booking in progress; the days and the nurse against what the clinic
 * offers (the action says which); the contact is an email or a mobile, one field.
 */
export const WaitlistJoinSchema = defineSchema(() =>
  z.object({
    clinic: z.string({ error: WAITLIST_MESSAGES.clinic }).trim().min(1, WAITLIST_MESSAGES.clinic).max(64),
    days: z
      .array(DayField, { error: WAITLIST_MESSAGES.days })
      .min(1, WAITLIST_MESSAGES.days)
      .max(WAITLIST_LOOKAHEAD_DAYS, WAITLIST_MESSAGES.dayOffered),
    parts: z
      .array(z.enum(["morning", "afternoon", "evening"], { error: WAITLIST_MESSAGES.parts }), {
        error: WAITLIST_MESSAGES.parts,
      })
      .min(1, WAITLIST_MESSAGES.parts)
      .max(3, WAITLIST_MESSAGES.parts),
    therapist: z.string({ error: WAITLIST_MESSAGES.nurse }).trim().max(64, WAITLIST_MESSAGES.nurse).optional(),
    contact: z
      .string({ error: WAITLIST_MESSAGES.contact })
      .trim()
      .min(1, WAITLIST_MESSAGES.contact)
      .max(254, WAITLIST_MESSAGES.contact)
      .refine((value) => contactOf(value) !== null, WAITLIST_MESSAGES.contact),
    consent: z.literal("on", { error: WAITLIST_MESSAGES.consent }),
  }),
);

/** Who a waitlist's messages go to: `to` is an email in lower case or a mobile's ten digits. */
export type WaitlistContact = { channel: "email" | "sms"; to: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email (kept in lower case) or a US mobile number (its ten digits); null for anything else. */
export function contactOf(value: string): WaitlistContact | null {
  const text = value.trim();
  if (text.includes("@"))
    return EMAIL.test(text) && text.length <= 254 ? { channel: "email", to: text.toLowerCase() } : null;
  return isPhoneNumber(text) ? { channel: "sms", to: phoneDigits(text) } : null;
}

/** The days a guest may wait for, from the clinic's today: the first two weeks of the dates offered. */
export function waitlistDays(today: string): readonly string[] {
  return bookingDates(today, WAITLIST_LOOKAHEAD_DAYS);
}

/** The days chosen that are offered, ascending, each once; null when one is not offered. */
export function chosenDays(days: readonly string[], offered: readonly string[]): string[] | null {
  if (!days.every((d) => offered.includes(d))) return null;
  return [...new Set(days)].sort();
}

/** What an entry waits for, as the pass reads it. */
export type WaitFor = { days: readonly string[]; parts: readonly DayPart[]; offered: readonly string[] };

/**
 * The open times that fit an entry and that it was not told about yet, earliest first: on one of
 * its days, in one of its parts of the day. `times` are clinic-local ("YYYY-MM-DDTHH:mm:ss").
 */
export function newFits(entry: WaitFor, times: readonly string[]): string[] {
  return times
    .filter(
      (t) => entry.days.includes(t.slice(0, 10)) && entry.parts.includes(slotGroupOf(t)) && !entry.offered.includes(t),
    )
    .sort();
}

/** How many times an entry keeps of those it was told about (oldest dropped): enough to never tell one twice in a day. */
export const OFFERED_KEPT = 40;

/** The parts of the day in words, for the account page and the messages ("mornings and evenings"). */
export function partsLabel(parts: readonly DayPart[]): string {
  if (parts.length === 3) return "any time of day";
  const words = DAY_PARTS.filter((p) => parts.includes(p.id)).map((p) => `${p.label.toLowerCase()}s`);
  return words.join(" and ");
}
